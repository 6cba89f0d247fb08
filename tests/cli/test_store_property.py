"""Over random sequences of commands, foreign edits in place, foreign appends and changed
data files, ``stockade tally`` (the derived store first, as the console script runs
it) always prints what a fresh fold of the file as it is prints.

Each command stands for a process of its own: the code fingerprint is taken again and
the data files read again. The data files are a copy of core/data the test may change
(``units._load`` reads them, the fingerprint covers them), as an upgrade would.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stockade.core import cli as core_cli
from stockade.core.log import derived
from stockade.core.model import units
from stockade.sample_games.catalog import HERE as SAMPLE_DIR
from stockade.tui import launcher

COMMANDS = ["next", "undo", "redo", "undo", "strike 3", "phase rtph", "end"]
TALLIES = [[], ["--format", "md"], ["--json"], ["--at", "5"], ["--format=csv", "--at=9"]]

step = st.one_of(
    st.tuples(st.just("do"), st.sampled_from(COMMANDS)),
    st.tuples(st.just("tally"), st.sampled_from(range(len(TALLIES)))),
    st.tuples(st.just("edit"), st.integers(0, 10_000)),
    st.tuples(st.just("append"), st.sampled_from(["copy", "torn"])),
    st.tuples(st.just("data"), st.integers(1, 4)),
)


def run(argv: list[str], *, launcher_first: bool) -> tuple[int, str, str]:
    """One ``stockade`` process: a fresh fingerprint, the data files read afresh."""
    derived.forget_code_fingerprint()
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        if launcher_first:
            code = launcher.main(argv)
        else:
            code = core_cli.main(argv)
    return int(code or 0), out.getvalue(), err.getvalue()


# Letters whose case the fold sees (most letters of a log are in hash links and times,
# which it does not read): the scenario, a side's name, a unit's handle, counter or
# Location, a record's kind.
_SEEN = re.compile(rb'"(?:scenario|name|handle|counter|location|kind|guard)":"([^"]*)"')


def foreign_edit(path: Path, where: int) -> None:
    """Another program changes one letter's case in place (same length)."""
    data = bytearray(path.read_bytes())
    letters = [
        i
        for found in _SEEN.finditer(data)
        for i in range(found.start(1), found.end(1))
        if chr(data[i]).isalpha()
    ]
    i = letters[where % len(letters)]
    data[i] ^= 0x20
    with open(path, "r+b") as f:
        f.write(bytes(data))


def foreign_append(path: Path, how: str) -> None:
    """Another program appends: a copy of the last record under the next seq, or an
    unfinished line."""
    lines = path.read_bytes().splitlines()
    if how == "torn":
        extra = b'{"kind":"phase","turn":'
    else:
        try:
            record = json.loads(lines[-1])
        except ValueError:
            return
        record["seq"] = record.get("seq", 0) + 1
        record["grp"] = record["seq"]
        record.pop("prev", None)
        extra = json.dumps(record, separators=(",", ":")).encode() + b"\n"
    with open(path, "ab") as f:
        f.write(extra)


@pytest.fixture
def data_copy(tmp_path, monkeypatch):
    """core/ copied (its .py and .toml), the fingerprint and the data reads pointed at it."""
    root = tmp_path / "core"
    shutil.copytree(
        derived.core_root(), root, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
    )

    def load(name: str):
        with open(root / "data" / name, "rb") as fh:
            return tomllib.load(fh)

    monkeypatch.setattr(derived, "core_root", lambda: str(root))
    monkeypatch.setattr(units, "_load", load)
    yield root
    derived.forget_code_fingerprint()


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(step, min_size=1, max_size=8))
def test_tally_always_prints_what_a_fresh_fold_prints(steps, tmp_path, data_copy, monkeypatch):
    game = tmp_path / "game.jsonl"
    game.write_bytes((Path(SAMPLE_DIR) / "demo.jsonl").read_bytes())
    cvp = data_copy / "data" / "cvp.toml"
    original = cvp.read_bytes()
    cache = tmp_path / "cache-of-this-example"
    shutil.rmtree(cache, ignore_errors=True)
    monkeypatch.setenv("STOCKADE_CACHE_DIR", str(cache))
    try:
        for what, arg in [*steps, ("tally", 0), ("tally", 0)]:
            if what == "do":
                run(["do", str(game), str(arg)], launcher_first=True)
            elif what == "edit":
                foreign_edit(game, int(arg))
            elif what == "append":
                foreign_append(game, str(arg))
            elif what == "data":
                text = original.replace(b"squad = 2", f"squad = {arg}".encode())
                cvp.write_bytes(text)
                os.utime(cvp)
            else:
                argv = ["tally", str(game), *TALLIES[int(arg)]]
                answered = run(argv, launcher_first=True)
                monkeypatch.setenv("STOCKADE_CACHE_DIR", "off")
                truth = run(argv, launcher_first=False)
                monkeypatch.setenv("STOCKADE_CACHE_DIR", str(cache))
                assert answered == truth, (steps, what, arg)
    finally:
        cvp.write_bytes(original)
