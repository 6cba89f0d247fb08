"""What the player is told after a command (``told``): its reply, then what else it
did, each side's CVP among it. The app's command bar and ``stockade do`` say the same
lines: an entry at the table said its prisoners but never what they were worth. As rows
(``told_rows_or_lines``): each line one step under the line it belongs to, so a screen wraps it
under its own text; the command line prints the same rows as the same text."""

from __future__ import annotations

from stockade.core.book.game import Game
from stockade.core.commands import execute, run_script, told
from stockade.core.commands.execute import told_rows_or_lines
from stockade.core.commands.verbs_control import rows_text
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


def test_an_entry_is_told_as_its_line_and_the_lines_under_it():
    game = _game()
    outcome = execute(game, "surrender g1 g2 to a1")
    rows, _ = told_rows_or_lines(game, outcome)
    assert rows[0].depth == 0 and rows[0].text.startswith("German 4-6-7 (g1)")
    assert [row.depth for row in rows[1:]] == [1] * (len(rows) - 1)
    assert any(row.text.startswith("any SW g1 or g2") for row in rows)  # the reminder
    assert rows[-1].text == "American if-ended CVP 0 -> 8"
    assert told(game, outcome) == rows_text(rows).splitlines()


def test_a_strike_tells_the_entries_it_left_in_conflict_under_it():
    game = _game()
    execute(game, "surrender g1 g2 to a1")
    outcome = execute(game, "strike 2")
    assert outcome.rows[0].text.startswith("struck entry 2; these need resolving")
    assert outcome.rows[1].depth == 1 and outcome.rows[1].text.startswith("entry 6 ")
    assert outcome.message == rows_text(outcome.rows)
    rows, _ = told_rows_or_lines(game, outcome)  # the brief: the consequences list the conflicts
    assert rows[0].text == "struck entry 2" and all(row.depth == 1 for row in rows[1:])


def test_undo_and_redo_are_told_as_rows():
    game = _game()
    execute(game, "surrender g1 g2 to a1")
    for verb in ("undo", "redo"):
        rows, _ = told_rows_or_lines(game, execute(game, verb))
        assert rows[0].text.startswith(f"{verb}ne: entry 6")
        assert rows[-1].depth == 1 and "if-ended CVP" in rows[-1].text


def test_a_reply_that_is_a_text_of_its_own_is_told_as_its_lines_and_no_rows():
    game = _game()
    outcome = execute(game, "help rulings")
    rows, lines = told_rows_or_lines(game, outcome)
    assert rows == [] and lines and lines == outcome.message.splitlines()
    app = StockadeApp(game, remember=False)
    assert app.run_command("help rulings") == "\n".join(lines)


def test_what_else_an_entry_did_sits_under_it_not_under_what_it_set_with_it():
    """A surrender typed in the RPh moves the clock to the RtPh and implies its unit
    broken: the CVP it is worth is told under the surrender, above those lines, never
    one step under "implied:" as if the implied fact changed the CVP; the app and the
    command line say it alike, and the message (``--json``) is the reply's own."""
    game = Game.in_memory(
        "told", [ev.SideSpec("German", "German", 3), ev.SideSpec("Russian", "Russian", 3)]
    )
    run_script(game, ["add German 4-6-7 K4", "add Russian 4-4-7 K5", "turn"])
    outcome = execute(game, "surrender r1 to g1")
    lines = told(game, outcome)
    cvp = lines.index("  German if-ended CVP 0 -> 4")
    clock = next(i for i, line in enumerate(lines) if line.startswith("clock: RPh -> RtPh"))
    implied = next(i for i, line in enumerate(lines) if line.startswith("implied: r1 broken"))
    assert lines[0].startswith("Russian 4-4-7 (r1) surrendered to German 4-6-7 (g1)")
    assert cvp < clock < implied == len(lines) - 1, lines
    assert "CVP" not in outcome.message
    game.undo()
    app = StockadeApp(game, remember=False)
    assert app.run_command("surrender r1 to g1").splitlines() == lines
