"""The start-up notes (the first run's demo game, the log's warnings) are read by the
time a key is pressed: the first key puts them away, so that they never cover the help
screen or the first replies it opens."""

from __future__ import annotations

from stockade.tui.app import StockadeApp
from tests.tui.support import new_game, sync

SIDES = [("American", "American", 4), ("German", "German", 3)]


@sync
async def test_the_first_key_puts_the_start_up_notes_away(tmp_path):
    game = new_game(tmp_path, "Notes", SIDES)
    app = StockadeApp(game, notes=["first run: a demo game was made"], remember=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        assert len(app.screen.query("Toast")) == 1
        await pilot.press("question_mark")  # the help screen
        await pilot.pause()
        assert len(app.screen.query("Toast")) == 0
    game.close()
