"""What a one-shot command (``stockade tally``, ``stockade do``) makes that it need not,
counted in a fresh interpreter running the console script's ``main`` (never timed)."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.cli.one_shot import CHILD, DEMO, ROOT

# the state's own classes, which the fold makes for a tally too
STATE_CLASSES = {
    "stockade.core.model.tracked_unit.Origin",
    "stockade.core.model.tracked_unit.Unit",
    "stockade.core.model.state.Side",
    "stockade.core.model.state.Casualty",
    "stockade.core.model.state.GameState",
}


def _run(script: str, *argv: str) -> dict:
    """``script`` in a fresh interpreter as ``stockade ARGV`` with the store off: its
    JSON reply, once it exited 0."""
    done = subprocess.run(
        [sys.executable, "-c", script, *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "STOCKADE_CACHE_DIR": "off"},
        timeout=120,
    )
    reply = json.loads(done.stdout)
    assert reply["code"] == 0, done.stderr
    return reply


def test_a_do_makes_no_dataclass_beyond_the_states(tmp_path):
    """A dataclass ``exec``s the source of its methods when made (~2.6 M instructions
    each); the line's reading (the lexer's sections, the grammar's verbs and slots, the
    vocabulary, the parse), the rules' board facts and clock and a write's outcome are
    msgspec Structs (~0.1 M): a ``do`` makes the state's classes and nothing more."""
    game = tmp_path / "game.jsonl"
    game.write_bytes(DEMO.read_bytes())
    reply = _run(CHILD, "do", str(game), "next")
    assert len(game.read_bytes()) > len(DEMO.read_bytes())  # it did write
    assert set(reply["made"]) <= STATE_CLASSES, sorted(set(reply["made"]) - STATE_CLASSES)


# The patterns compiled while a folding tally runs, by the module that asked.
PATTERNS_CHILD = """
import contextlib, io, json, re._compiler, sys
compiled = []
compile_ = re._compiler.compile
def counted(pattern, flags=0):
    compiled.append(pattern if isinstance(pattern, str) else repr(pattern))
    return compile_(pattern, flags)
re._compiler.compile = counted
from stockade.tui.launcher import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "compiled": compiled}))
"""


def test_a_folding_tally_compiles_no_pattern_only_a_write_or_a_refusal_uses():
    """Compiling a character class with a surrogate or a wide range costs milliseconds
    (the control characters shown as escapes ~5 ms, the invisible ones ~3 ms): the
    patterns only a refusal, a write or a text holding such a character uses are
    compiled on their first use, and a tally of a sound log prints none of those."""
    from stockade.core.log import reader
    from stockade.core.model import bounds, record_bounds, units, visible

    reply = _run(PATTERNS_CHILD, "tally", str(DEMO))
    unused = {
        "visible": str(getattr(visible._HIDDEN, "pattern", visible._HIDDEN)),
        "control": f"[{bounds.CONTROL_CHARS}]",
        "invisible": str(getattr(record_bounds._INVISIBLE, "pattern", record_bounds._INVISIBLE)),
        # a torn group's recovery reads its last line's group and seq; a vehicle's name
        # is read when one enters (the demo has none)
        "group": repr(getattr(reader._GRP, "pattern", reader._GRP)),
        "seq": repr(getattr(reader._SEQ, "pattern", reader._SEQ)),
        "vehicle": str(getattr(units._VEHICLE_NAME, "pattern", units._VEHICLE_NAME)),
        # a name's and a text's pattern, held by the strict decoder of a suspicious line
        # (``core.model.string_bounds``); a sound log's strings are checked in bulk
        "strings": bounds.NO_CONTROL,
    }
    made = set(reply["compiled"])
    assert not {k for k, p in unused.items() if p in made}, sorted(made)


# The TypedDict classes made while a folding tally runs, by name.
TYPED_CHILD = """
import contextlib, io, json, sys, typing
made = []
new = typing._TypedDictMeta.__new__
def counted(cls, name, *args, **kwargs):
    made.append(name)
    return new(cls, name, *args, **kwargs)
typing._TypedDictMeta.__new__ = counted
from stockade.tui.launcher import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "made": [n for n in made if n != "TypedDict"]}))
"""


def test_a_folding_tally_makes_no_class_only_a_type_checker_reads():
    """A TypedDict is made from its annotations at import (the counters'
    ``UnitFields``, 14 fields: ~1 M instructions), and one that only types keyword
    arguments is read by the type checker alone: declared for it only (main made one)."""
    reply = _run(TYPED_CHILD, "tally", str(DEMO))
    assert reply["made"] == [], reply["made"]
