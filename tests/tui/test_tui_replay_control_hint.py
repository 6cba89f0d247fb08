"""In history and replay (h), the status line names only the keys that act on the
selected line: on an undo/redo/strike record x (strike), X and a do nothing, and the
line said "x: strike · X: unstrike · a: amend" there all the same."""

from __future__ import annotations

from stockade.core.commands import run_script
from stockade.tui.app import StockadeApp
from stockade.tui.widgets.history_view import HistoryView
from stockade.tui.widgets.status_line import StatusLine
from tests.book.kit import AMEND_SCRIPT
from tests.tui.support import new_game, sync

SIDES = [("American", "American", 4), ("German", "German", 3)]


@sync
async def test_a_control_record_is_not_offered_the_keys_that_do_nothing_on_it(tmp_path):
    game = new_game(tmp_path, "Replay", SIDES)
    run_script(game, AMEND_SCRIPT)
    game.undo()
    game.redo()  # the last line is a control record: the redo
    last = len(game.records)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        history = app.screen.query_one(HistoryView)
        assert history.selected_seq == last
        await app.workers.wait_for_complete()
        await pilot.pause()
        said = app.screen.query_one(StatusLine).message
        assert "[control]" in said
        assert "strike" not in said and "amend" not in said, said
        history.select_seq(10)  # an entry: these keys act on it
        await app.workers.wait_for_complete()
        await pilot.pause()
        said = app.screen.query_one(StatusLine).message
        assert "x: strike" in said and "a: amend" in said, said
    game.close()
