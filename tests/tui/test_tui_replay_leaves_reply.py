"""Leaving replay after a write there (a strike) shows that write's reply on the main
screen, not the reply the main screen said before replay opened."""

from __future__ import annotations

import pytest

from stockade.core.commands import run_script
from stockade.tui.app import StockadeApp
from stockade.tui.screens.confirm import ConfirmScreen
from stockade.tui.screens.main import MainScreen
from stockade.tui.widgets.history_view import HistoryView
from stockade.tui.widgets.status_line import StatusLine
from tests.book.kit import AMEND_SCRIPT
from tests.tui.support import new_game, sync

SIDES = [("American", "American", 4), ("German", "German", 3)]


@pytest.fixture(autouse=True)
def _dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("STOCKADE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("STOCKADE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr("stockade.tui.widgets.history_view.NUMBER_PAUSE", 600.0)


@sync
async def test_leaving_replay_after_a_strike_shows_the_strikes_reply(tmp_path):
    game = new_game(tmp_path, "Strike", SIDES)
    run_script(game, AMEND_SCRIPT)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("u", "r")  # the main screen says "redone: entry ..."
        await pilot.pause()
        assert app.screen.query_one(StatusLine).message.startswith("redone: entry")
        await pilot.press("h")
        await pilot.pause()
        await pilot.press("1", "2")
        await pilot.pause()
        assert app.screen.query_one(HistoryView).selected_seq == 12
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert app.screen.query_one(StatusLine).message.startswith("struck entry 12")
    game.close()
