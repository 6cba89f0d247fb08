"""The start-up notes (the first run's demo game, the log's warnings) are read by the
time a key is pressed: the first key puts them away, so that they never cover the help
screen or the first replies it opens. So are the notes of a game opened in the app (a
new game made with its form): they would cover the command bar's syntax hint."""

from __future__ import annotations

from stockade.tui.app import StockadeApp
from tests.tui.support import new_game, sync, until

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


@sync
async def test_the_first_key_puts_away_the_note_of_a_game_opened_in_the_app(tmp_path):
    game = new_game(tmp_path, "Notes", SIDES)
    (tmp_path / "other").mkdir()
    other = new_game(tmp_path / "other", "Other", SIDES)
    other_path = other.path
    other.close()
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        app.call_later(app.switch_game, other_path)
        await until(pilot, lambda: app.game.path == other_path, "the other game")
        await until(pilot, lambda: len(app.screen.query("Toast")) == 1, "the 'opened' note")
        await pilot.press("colon")  # the command bar, its syntax hint at the bottom
        await pilot.pause()
        assert len(app.screen.query("Toast")) == 0
    app.game.close()
