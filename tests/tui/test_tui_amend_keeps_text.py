"""The amend question starts from the entry's own line (the core's ``entry_line``), to
be edited rather than typed again; a refused line stays in the question with the
refusal under it, and nothing is written."""

from __future__ import annotations

import pytest

from stockade.core.commands import run_script
from stockade.tui.app import StockadeApp
from stockade.tui.screens.confirm import ConfirmScreen
from stockade.tui.widgets.history_view import HistoryView
from tests.book.kit import AMEND_SCRIPT
from tests.tui.support import new_game, sync

SIDES = [("American", "American", 4), ("German", "German", 3)]


@pytest.fixture(autouse=True)
def _dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("STOCKADE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("STOCKADE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr("stockade.tui.widgets.history_view.NUMBER_PAUSE", 600.0)


@sync
async def test_amend_starts_from_the_entry_and_keeps_a_refused_line(tmp_path):
    game = new_game(tmp_path, "Amend", SIDES)
    run_script(game, AMEND_SCRIPT)
    n = len(game.records)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        await pilot.press("1", "0")
        await pilot.pause()
        assert app.screen.query_one(HistoryView).selected_seq == 10
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        field = app.screen.query_one("#confirm-input")
        assert field.value == "transfer g1 to a2"  # the entry as typed
        await pilot.press("backspace", "9")  # edited, not retyped: a unit no game has
        await pilot.pause()
        assert field.value == "transfer g1 to a9"
        await pilot.press("enter")
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, ConfirmScreen) and modal.query_one("#confirm-input") is field
        assert field.value == "transfer g1 to a9"  # kept, to be corrected
        refusal = modal.query_one("#confirm-refusal")
        assert refusal.display and "a9" in str(refusal.render())
        assert len(game.records) == n
        await pilot.press("backspace", "3", "enter")
        await pilot.pause()
        body = str(app.screen.query_one("#confirm-body").render())  # the preview now
        assert "holds in part" in body and len(game.records) == n
    game.close()
