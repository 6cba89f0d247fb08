"""A log holding an amendment reads the same by every path: written and opened again,
by the strict reader and the fast one (tests/log/test_core_fast_open.py holds an
amendment among its records), and repaired when a line is damaged: the amendment's own
line (the entry reads as it was) or the line it mends (the amendment is moot). Each
time the fold equals the effective history folded from nothing, and ``check`` finds no
record acting on nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import get_args

import msgspec
import pytest

from stockade.core.book.game import Game
from stockade.core.book.projection import Projection
from stockade.core.cli import main
from stockade.core.log import game_log
from stockade.core.log.reader import load as careful_load
from stockade.core.model import events as ev
from tests.book.kit import AMEND_SCRIPT
from tests.rules.machine import dump

# The log format as it was: the strict records decode every line, nothing in bulk.
STRICT_HEADER = next(c for c in get_args(ev.STRICT.union) if c.__struct_config__.tag == "game")
STRICT_ONLY = msgspec.structs.replace(
    game_log.GAME,
    union=ev.STRICT.union,
    decoder=ev.STRICT.decoder,
    header=STRICT_HEADER,
    strict=None,
)


def amended_log(tmp_path: Path, capsys) -> Path:
    path = tmp_path / "game.jsonl"
    assert (
        main(
            [
                "new",
                str(path),
                "--scenario",
                "T",
                "--side",
                "American:American:4",
                "--side",
                "German:German:3",
            ]
        )
        == 0
    )
    script = tmp_path / "s.txt"
    script.write_text("\n".join(AMEND_SCRIPT) + "\n")
    assert main(["run", str(path), str(script), "-q"]) == 0
    assert main(["amend", str(path), "10", "transfer g1 to a3"]) == 0
    capsys.readouterr()
    return path


def consistent(path: Path) -> Game:
    game = Game.open(path, read_only=True)
    assert dump(game.state) == dump(Projection(game.timeline.effective()).state)
    return game


def test_the_fast_and_the_strict_reader_read_an_amendment_alike(tmp_path, capsys):
    path = amended_log(tmp_path, capsys)
    fast, strict = game_log.load(path), careful_load(path, STRICT_ONLY)
    assert fast.problem is None and strict.problem is None
    assert [json.dumps(r.__struct_fields__) for r in fast.records] == [
        json.dumps(r.__struct_fields__) for r in strict.records
    ]
    assert fast.records[-1].event.to_guard == "a3"
    game = consistent(path)
    assert game.state.units["g1"].guard == "a3"
    game.close()


@pytest.mark.parametrize(("line", "guard"), [(16, "a1"), (10, "a1")])
def test_a_repaired_log_with_an_amendment_stays_consistent(tmp_path, capsys, line, guard):
    """Line 16 (the amendment) lost: the transfer reads as typed, to a2, whose takeover
    then passes g1 to a1. Line 10 (the transfer) lost: g1 stays with a1, and the
    amendment of a line no longer there is moot."""
    path = amended_log(tmp_path, capsys)
    lines = path.read_bytes().split(b"\n")[:-1]
    lines[line - 1] = b"\x00 damaged"
    path.write_bytes(b"\n".join(lines) + b"\n")
    fixed = tmp_path / "fixed.jsonl"
    assert main(["repair", str(path), "-o", str(fixed), "--force"]) == 0
    capsys.readouterr()
    game = consistent(fixed)
    assert game.state.units["g1"].guard == guard
    assert not any(e.amended_by for e in game.history())
    game.close()
    code = main(["check", str(fixed)])
    said = capsys.readouterr()
    assert code in (0, 4) and "acts on nothing" not in said.out + said.err
