"""The command bar's keys as a player types them: a refused line kept, selected,
Esc then a key sent together by the terminal, word jumps over a counter."""

from __future__ import annotations

from textual import events

from stockade.tui.app import StockadeApp
from stockade.tui.escape_keys import escape_then
from stockade.tui.widgets.command_bar import CommandInput
from tests.tui.support import new_game, sync, type_command


def _game(tmp_path):
    return new_game(tmp_path, "Bar", [("Russian", "Russian", 3), ("German", "German", 4)])


@sync
async def test_a_refused_line_stays_selected_an_edit_fixes_it_a_letter_replaces_it(tmp_path):
    """A refused line is kept, selected, the cursor at its end: backspace (or an arrow)
    fixes it in place; after a refusal, a letter starts a new command instead of being
    glued to the refused one ("rearm g2 cc r3rearm g3 ...")."""
    game = _game(tmp_path)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await type_command(pilot, "refuse g4")
        bar = app.screen.query_one(CommandInput)
        assert bar.has_focus and bar.value == "refuse g4"  # kept, to be corrected
        assert bar.selected_text == "refuse g4" and bar.cursor_position == len("refuse g4")
        await pilot.press("ctrl+down")  # a key of the board: the line stays selected
        assert bar.selected_text == "refuse g4"
        await pilot.press("backspace", "1")
        assert bar.value == "refuse g1"  # fixed in place, not replaced
        await pilot.press("enter")
        await pilot.pause()
        assert bar.selected_text == "refuse g1"  # refused again, selected again
        await pilot.press("n", "e", "x", "t")
        assert bar.value == "next"  # a new command, not "refuse g1next"
    game.close()


def test_an_alt_key_is_read_as_escape_then_its_character():
    assert escape_then(events.Key("alt+n", "n")) == "n"
    assert escape_then(events.Key("alt+shift+n", "N")) == "N"
    assert escape_then(events.Key("n", "n")) is None
    assert escape_then(events.Key("ctrl+right", None)) is None


@sync
async def test_escape_then_a_key_sent_together_leaves_the_bar_then_is_the_key(tmp_path):
    # A terminal sends Esc then n, typed quickly (tmux's escape-time, Textual's ESCDELAY),
    # as the two bytes of Alt+n; Stockade binds no Alt key, so it is Esc, then n.
    game = _game(tmp_path)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("colon")
        bar = app.screen.query_one(CommandInput)
        bar.post_message(events.Paste("help"))
        await pilot.pause()
        app.post_message(events.Key("alt+n", "n"))
        await pilot.pause()
        await pilot.pause()
        assert bar.value == "" and not bar.has_focus
        assert game.state.phase == "PFPh"  # n: the next phase, from the RPh
    game.close()


@sync
async def test_word_jumps_step_over_a_counter_whole(tmp_path):
    game = _game(tmp_path)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("colon")
        bar = app.screen.query_one(CommandInput)
        line = "add Russian 4-4-7 at K5"
        bar.post_message(events.Paste(line))
        await pilot.pause()
        bar.cursor_position = 0
        await pilot.press("ctrl+right", "ctrl+right", "ctrl+right")
        assert bar.cursor_position == line.index("at")
        await pilot.press("ctrl+left")
        assert bar.cursor_position == line.index("4-4-7")
    game.close()
