"""What the player is told, as rows (``told_rows``): each record's line, what it
reminds of and what else it did one step under it, so a screen wraps each line under
its own text; the command line prints the same rows as the same text (``told``)."""

from __future__ import annotations

from stockade.core.book.game import Game
from stockade.core.commands import execute, run_script, told
from stockade.core.commands.execute import told_rows
from stockade.core.commands.verbs_control import rows_text
from stockade.core.model import events as ev

SETUP = ["add American 3-4-7 hs at T4", "add German 4-6-7 8-1 at T5 broken", "phase RtPh 1"]


def _game() -> Game:
    game = Game.in_memory(
        "told", [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]
    )
    run_script(game, SETUP)
    return game


def test_an_entry_is_told_as_its_line_and_the_lines_under_it():
    game = _game()
    outcome = execute(game, "surrender g1 g2 to a1")
    rows = told_rows(game, outcome)
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
    rows = told_rows(game, outcome)  # the brief: the consequences list the conflicts
    assert rows[0].text == "struck entry 2" and all(row.depth == 1 for row in rows[1:])


def test_undo_and_redo_are_told_as_rows():
    game = _game()
    execute(game, "surrender g1 g2 to a1")
    for verb in ("undo", "redo"):
        rows = told_rows(game, execute(game, verb))
        assert rows[0].text.startswith(f"{verb}ne: entry 6")
        assert rows[-1].depth == 1 and "if-ended CVP" in rows[-1].text
