"""A player who types one of the board's keys by its word in the command bar (new,
tally, quit) gets that key's action and is told the key; a verb of the book wins where
a word is both (help). The first run's note names the app's own new-game key."""

from __future__ import annotations

from stockade.tui.app import StockadeApp
from tests.tui.support import new_game, status_text, sync, type_command

SIDES = [("American", "American", 4), ("German", "German", 3)]


@sync
async def test_new_typed_in_the_bar_opens_the_new_game_form_and_names_its_key(tmp_path):
    from stockade.tui.screens.games import NewGameScreen
    from stockade.tui.screens.text_screen import TextScreen

    game = new_game(tmp_path, "Bar words", SIDES)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await type_command(pilot, "new")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("escape")
        await pilot.pause()
        said = status_text(app)
        assert "^n: new game" in said and "refused" not in said
        await type_command(pilot, "help")  # the book's verb, not the help screen
        await pilot.pause()
        # its verbs, long: on a page of their own (the help screen is the keys' too)
        assert isinstance(app.screen, TextScreen)
        await pilot.press("escape")
        assert "add" in status_text(app) and app.screen.__class__.__name__ == "MainScreen"
    game.close()


@sync
async def test_the_first_run_note_names_the_new_game_key_of_the_keymap(tmp_path):
    from stockade.tui.opening import DemoMade

    config = tmp_path / "config"
    config.mkdir(exist_ok=True)
    (config / "config.toml").write_text('[keys]\n"stockade.new_game" = "ctrl+e"\n')
    game = new_game(tmp_path, "Notes", SIDES)
    app = StockadeApp(game, notes=[DemoMade(tmp_path / "demo.jsonl")], remember=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        said = " ".join(str(toast.render()) for toast in app.screen.query("Toast"))
        assert "^e starts your own game" in said
        assert "stockade new FILE" in said  # the shell's way, second
    game.close()
