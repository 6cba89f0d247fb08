"""What the player is told after a command (``told``): its reply, then what else it
did, each side's CVP among it. The app's command bar and ``stockade do`` say the same
lines: an entry at the table said its prisoners but never what they were worth."""

from __future__ import annotations

from stockade.core.book.game import Game
from stockade.core.commands import execute, run_script, told
from stockade.core.model import events as ev
from stockade.tui.app import StockadeApp

SETUP = ["add American 3-4-7 hs at T4", "add German 4-6-7 8-1 at T5 broken", "phase RtPh 1"]


def _game() -> Game:
    game = Game.in_memory(
        "told", [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]
    )
    run_script(game, SETUP)
    return game


def test_a_capture_is_told_with_the_cvp_it_is_worth():
    game = _game()
    outcome = execute(game, "surrender g1 g2 to a1")
    lines = told(game, outcome)
    assert lines[: len(outcome.message.splitlines())] == outcome.message.splitlines()
    # a 4-6-7 (2 CVP) and an 8-1 leader (2 CVP), guarded: doubled (A26.222)
    assert "  American if-ended CVP 0 -> 8" in lines, lines


def test_an_entry_that_moves_no_cvp_is_told_its_reply_alone():
    game = _game()
    outcome = execute(game, "move a1 T6")
    assert told(game, outcome) == outcome.message.splitlines()


def test_undo_is_told_the_cvp_it_takes_back():
    game = _game()
    execute(game, "surrender g1 g2 to a1")
    lines = told(game, execute(game, "undo"))
    assert "  American if-ended CVP 8 -> 0" in lines, lines


def test_the_app_says_what_the_cli_says():
    game = _game()
    app = StockadeApp(game, remember=False)
    said = app.run_command("surrender g1 g2 to a1")
    assert "American if-ended CVP 0 -> 8" in said, said
