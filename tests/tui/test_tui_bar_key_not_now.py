"""A board key's word typed in the command bar when its key would do nothing (the
forms in a read-only game, accept with no offer) says why, not the key."""

from __future__ import annotations

from stockade.core.book.game import Game
from stockade.tui.app import StockadeApp
from stockade.tui.screens.main import READ_ONLY, MainScreen
from tests.tui.support import new_game, sample_copy, status_text, sync, type_command

SIDES = [("American", "American", 4), ("German", "German", 3)]


@sync
async def test_forms_in_a_read_only_game_says_why_not(tmp_path):
    game = Game.open(sample_copy(tmp_path), read_only=True)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await type_command(pilot, "forms")
        said = status_text(app)
        assert "guided forms: not now" in said and READ_ONLY in " ".join(said.split()), said
        assert "f: guided forms" not in said  # not its key: it would do nothing
        assert isinstance(app.screen, MainScreen)  # no form opened
    game.close()


@sync
async def test_accept_with_nothing_offered_says_so(tmp_path):
    game = new_game(tmp_path, "Not now", SIDES)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await type_command(pilot, "accept")
        said = status_text(app)
        assert "not now (no refusal has offered an entry to record)" in said, said
    game.close()
