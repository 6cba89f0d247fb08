"""``stockade check`` names undo, redo, strike and unstrike records that act on nothing
(core.log.control_check): a target that is not there, an undo of an entry that is not the
last in effect, a redo with nothing undone, a strike of a struck entry or of a control
record, an unstrike of an entry not struck. Logs a player's own Stockade writes never
hold one, whatever the order of undo, redo, strike and unstrike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stockade.core.book.game import Game
from stockade.core.cli import main
from stockade.core.commands import run_script
from stockade.core.log.control_check import control_problems
from stockade.core.log.game_log import load
from stockade.core.model import events as ev

CONTROL = Path(__file__).resolve().parents[1] / "fixtures" / "hostile" / "control"
EXPECTED: dict[str, int] = json.loads((CONTROL / "expected.json").read_text())


# no snapshot cache: each open folds the whole log
pytestmark = pytest.mark.usefixtures("cache_off")


def test_the_control_corpus_is_as_the_script_makes_it():
    assert len(EXPECTED) >= 7
    for name in EXPECTED:
        assert (CONTROL / name).is_file(), name


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_check_names_the_line_of_a_control_record_that_acts_on_nothing(name, capsys):
    line = EXPECTED[name]
    problems = control_problems(load(CONTROL / name).records)
    assert problems and problems[0].line == line, problems
    code = main(["check", str(CONTROL / name)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 3, err  # DAMAGED: a record Stockade never writes
    assert len(err) == 1 and f"line {line}: " in err[0] and "acts on nothing" in err[0], err


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_game_still_opens_and_tallies_such_a_log(name, tmp_path, capsys):
    """The record is ignored, as before: nothing is lost, no traceback."""
    copy = tmp_path / name
    copy.write_bytes((CONTROL / name).read_bytes())
    assert main(["tally", str(copy)]) == 0
    assert main(["history", str(copy)]) == 0
    assert "Traceback" not in capsys.readouterr().err


def test_each_reason_is_the_one_game_gives(tmp_path):
    reasons = {name: control_problems(load(CONTROL / name).records)[0].reason for name in EXPECTED}
    assert reasons["undo_no_such_entry.jsonl"] == "there is no entry 99 before it"
    assert (
        "not the last entry in effect (the last entry in effect is 3)"
        in reasons["undo_not_the_last.jsonl"]
    )
    assert reasons["redo_nothing_undone.jsonl"] == "entry 3 is not the last undone entry"
    assert reasons["strike_twice.jsonl"] == "entry 3 is already struck"
    assert reasons["strike_a_later_entry.jsonl"] == "there is no entry 5 before it"
    assert "undo/redo/strike record" in reasons["strike_an_undo.jsonl"]
    assert reasons["unstrike_not_struck.jsonl"] == "entry 2 is not struck"


def test_every_way_stockade_itself_undoes_and_strikes_is_sound(tmp_path, capsys):
    """No false alarm: undo, redo, undo-to, strike, unstrike, a strike of an entry
    later undone and redone, an abandoned branch, in one log written by Game."""
    path = tmp_path / "sound.jsonl"
    game = Game.create(
        path, "Sound", [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]
    )
    run_script(game, ["add German 4-6-7 4-6-7 at Q4 broken", "add American 6-6-6 6-6-6 at Q5"])
    run_script(game, ["phase RtPh 1 American"])
    run_script(game, ["surrender g1 g2 to a1"])
    run_script(game, ["phase APh 1 American"])
    run_script(game, ["transfer g2 to a2"])
    game.strike(len(game.records))
    game.unstrike(len(game.records) - 1)
    game.undo()
    game.redo()
    run_script(game, ["move a2 R5"])
    game.undo()
    run_script(game, ["move a2 R6"])  # the undone move is now an abandoned branch
    game.undo_to(3)
    game.redo()
    game.strike(2)
    game.close()
    assert control_problems(load(path).records) == []
    assert main(["check", str(path)]) == 0, capsys.readouterr().err
