"""The issue's scenario in the TUI: striking the transfer shows, before the write, the
later elimination that now frees a prisoner and the CVP it costs; the strike itself
says it again in a notice; the history marks nothing by diffing (GameChanged)."""

from __future__ import annotations

from stockade.core.commands import run_script
from stockade.tui.app import StockadeApp
from stockade.tui.widgets.history_view import HistoryView
from tests.book.kit import SCENARIO
from tests.tui.support import new_game, status_text, sync


@sync
async def test_strike_preview_and_notice_name_the_later_entry_and_the_cvp(tmp_path):
    game = new_game(tmp_path, "Scen", [("American", "American", 4), ("German", "German", 3)])
    run_script(game, SCENARIO)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        history = app.screen.query_one(HistoryView)
        history.select_seq(9)  # the transfer of g2 to a2
        await pilot.pause()
        await pilot.press("x")
        await pilot.pause()
        body = str(app.screen.query_one("#confirm-body").render())
        assert "entry 14" in body and "now frees g2" in body
        assert "American if-ended CVP 4 -> 0" in body
        assert len(game.records) == 14  # nothing written yet
        await pilot.press(*"wrong", "enter")
        await pilot.pause()
        assert game.timeline.struck == {9: 15}
        notices = [n.message for n in app._notifications]
        assert any(m.startswith("entry ") for m in notices)  # the first consequence, brief
        assert all(m.count("\n") <= 1 for m in notices)  # a toast: one or two lines
        said = status_text(app)  # the whole of it is on the status line
        assert "entry 14" in said and "American if-ended CVP 4 -> 0" in said
        assert history.line(9).status == "struck"
        await pilot.press("escape")  # back to the main screen: its history followed too
        await pilot.pause()
        assert app.screen.query_one(HistoryView).line(9).status == "struck"
    game.close()
