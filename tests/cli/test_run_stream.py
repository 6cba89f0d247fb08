"""``stockade run`` reads and checks its script as a stream: a line is read when it is
tried, the records wait beside the log (``core.log.staging``) and the replies in a
scratch file, so its memory is the game's, not the script's; and the promise on disk
is the one it always made: a refused line, however late, writes nothing and names its
line and rule."""

from __future__ import annotations

import errno
import gc
import importlib
import io
import json
import os
import sys
import tracemalloc
from pathlib import Path
from typing import Any

from stockade.core.book.game import Game
from stockade.core.cli import main
from stockade.core.log import staging
from stockade.core.log.files import group_marker
from stockade.core.model import events as ev
from tests.cli.killed_runs import KilledRuns

execute_module: Any = importlib.import_module("stockade.core.commands.execute")
SIDES = [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]
# the last line is refused by a rule: g1 is already a1's prisoner
REFUSED_LAST = ["add German 4-6-7 as g1 at Q6", "surrender g1 to a1", "capture g1 by a1"]


def _log(folder: Path) -> Path:
    path = folder / "game.jsonl"
    Game.create(path, "Run", SIDES, first_attacker="American").close()
    return path


def _moves(count: int) -> list[str]:
    """``count`` lines of one record each; the game's state stays the same size."""
    moves = [f"move a1 {'R8' if n % 2 else 'R7'}" for n in range(1, count)]
    return ["add American 7-4-7 as a1 at Q5", *moves]


def _write(folder: Path, lines: list[str]) -> Path:
    script = folder / "script.txt"
    script.write_text("\n".join(lines) + "\n")
    return script


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


class _Stdin(io.TextIOBase):
    """A script on stdin that counts the lines handed out."""

    def __init__(self, lines: list[str]):
        self._lines = [line + "\n" for line in lines]
        self.given = 0

    def readable(self) -> bool:
        return True

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        if self.given == len(self._lines):
            return ""
        self.given += 1
        return self._lines[self.given - 1]

    def read(self, size: int | None = -1) -> str:
        rest = "".join(self._lines[self.given :])
        self.given = len(self._lines)
        return rest


def test_a_line_is_read_when_it_is_tried_never_the_script_ahead(tmp_path, monkeypatch, capsys):
    """Counted: when line N is tried, at most N lines were read from stdin (main read
    the whole script before trying its first line)."""
    path = _log(tmp_path)
    stdin = _Stdin(_moves(400))
    ahead: list[int] = []
    real = execute_module.execute

    def counted(game, line):
        tried = len(ahead) + 1
        ahead.append(stdin.given - tried)
        return real(game, line)

    monkeypatch.setattr(execute_module, "execute", counted)
    monkeypatch.setattr(sys, "stdin", stdin)
    assert main(["run", str(path), "-", "-q"]) == 0
    assert len(ahead) == 400 and max(ahead) == 0, max(ahead)
    assert len(Game.open(path, read_only=True).records) == 401


def _growth(run) -> int:
    """Bytes that tracemalloc sees added between the 50th line tried and the last."""
    marks: dict[str, int] = {}
    real = execute_module.execute
    tried = [0]

    def marked(game, line):
        tried[0] += 1
        if tried[0] == 50:
            marks["first"] = tracemalloc.get_traced_memory()[0]
        outcome = real(game, line)
        marks["last"] = tracemalloc.get_traced_memory()[0]
        return outcome

    execute_module.execute = marked
    tracemalloc.start()
    try:
        run()
    finally:
        tracemalloc.stop()
        execute_module.execute = real
    return marks["last"] - marks["first"]


def test_a_run_holds_no_more_than_the_game_it_writes_to(tmp_path, capsys):
    """Counted with tracemalloc over 750 lines: what a ``run --json`` holds more
    while it goes is what the game itself holds more when the same lines are written
    one by one (its history), and nothing of the script, its records or its replies
    (main held each line's encoded records and its reply: ~2x the game's growth; holding
    only each reply's JSON text is ~1.7x, over the bound by 100 kB at 750 lines)."""
    lines = _moves(800)
    one = tmp_path / "one"
    one.mkdir()
    alone = _log(one)

    def one_by_one():
        game = Game.open(alone)
        try:
            for line in lines:
                execute_module.execute(game, line)
        finally:
            game.close()

    run = tmp_path / "run"
    run.mkdir()
    path, script = _log(run), _write(run, lines)
    game_growth = _growth(one_by_one)
    run_growth = _growth(lambda: main(["run", str(path), str(script), "--json"]))
    capsys.readouterr()
    assert run_growth < 1.25 * game_growth + 200_000, (run_growth, game_growth)


def test_a_refused_last_line_of_a_long_script_writes_nothing_and_names_it(tmp_path, capsys):
    path = _log(tmp_path)
    lines = _moves(3_000) + REFUSED_LAST
    script = _write(tmp_path, lines)
    before = _files(tmp_path)
    assert main(["run", str(path), str(script), "--json"]) == 1
    reply = json.loads(capsys.readouterr().out)
    error = reply["error"]
    assert reply["ok"] is False and reply["recorded"] == 0 and reply["outcomes"] == []
    assert error["message"].startswith(f"{script} line {len(lines)}: A20.22: ")
    assert error["rule"] == "A20.22" and error["message"].endswith("nothing was recorded")
    assert _files(tmp_path) == before  # the log byte for byte; no marker, spill or side file


def test_a_script_on_stdin_is_recorded_whole_or_not_at_all(tmp_path, monkeypatch, capsys):
    path = _log(tmp_path)
    monkeypatch.setattr(sys, "stdin", _Stdin(_moves(500)))
    assert main(["run", str(path), "-"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1] == "American 7-4-7 (a1) moved to R8"
    assert sum(" moved to " in line for line in printed) == 499
    records = Game.open(path, read_only=True).records
    assert len(records) == 501
    before = _files(tmp_path)
    monkeypatch.setattr(sys, "stdin", _Stdin(_moves(500)[1:] + REFUSED_LAST))
    assert main(["run", str(path), "-"]) == 1
    said = capsys.readouterr()
    assert said.out == "" and "stdin line 502: A20.22: " in said.err
    assert _files(tmp_path) == before


def test_a_line_that_is_not_text_is_named_and_nothing_is_written(tmp_path, capsys):
    path = _log(tmp_path)
    script = tmp_path / "script.txt"
    script.write_bytes("\n".join(_moves(800)).encode() + b"\nmove a1 \xff\xfe\n")
    before = _files(tmp_path)
    assert main(["run", str(path), str(script)]) == 1
    said = capsys.readouterr()
    assert f"{script} line 801: not UTF-8 text" in said.err and said.out == ""
    assert _files(tmp_path) == before


def test_a_line_longer_than_any_command_is_refused_before_it_is_held(tmp_path, capsys):
    path = _log(tmp_path)
    script = tmp_path / "script.txt"
    script.write_text("\n".join(_moves(3)) + "\nmove a1 " + "Q" * 200_000 + "\n")
    before = _files(tmp_path)
    assert main(["run", str(path), str(script)]) == 1
    assert "line 4: longer than 65,536 bytes" in capsys.readouterr().err
    assert _files(tmp_path) == before


def test_a_disk_full_while_staging_records_nothing_and_says_so(tmp_path, monkeypatch, capsys):
    path = _log(tmp_path)
    script = _write(tmp_path, _moves(300))
    before = _files(tmp_path)
    real = staging.StagedGroup.add
    staged = [0]

    def full(self, lines):
        staged[0] += 1
        if staged[0] == 200:
            raise staging.StagedGroup._error(tmp_path, OSError(errno.ENOSPC, "No space left"))
        real(self, lines)

    monkeypatch.setattr(staging.StagedGroup, "add", full)
    assert main(["run", str(path), str(script)]) == 1
    said = capsys.readouterr().err
    assert "line 200: " in said and "The disk is full" in said and "nothing was recorded" in said
    assert _files(tmp_path) == before


def test_a_group_written_in_many_chunks_is_the_group_written_in_one(tmp_path, monkeypatch):
    """The spill is copied into the log a chunk at a time: the log is byte for byte
    the one a single write makes (links included), and its marker is gone."""
    from stockade.core.book import writer

    monkeypatch.setattr(writer, "now", lambda: "2026-01-01T00:00:00")
    start = _log(tmp_path).read_bytes()
    logs = []
    for chunk in (1 << 20, 1000):
        folder = tmp_path / str(chunk)
        folder.mkdir()
        path, script = folder / "game.jsonl", _write(folder, _moves(60))
        path.write_bytes(start)
        monkeypatch.setattr(staging, "CHUNK_BYTES", chunk)
        assert main(["run", str(path), str(script), "-q"]) == 0
        logs.append(path.read_bytes())
        assert not group_marker(path).exists()
    assert logs[0] == logs[1] and len(logs[1]) - len(start) > 10 * 1000


def test_a_run_written_in_chunks_killed_at_every_step_leaves_none_or_all(tmp_path):
    """The group's chunks are written one by one: a kill between any two leaves the
    log as it was, read-only and for writing alike (the marker is still there)."""
    script = _write(tmp_path, _moves(12))
    seen = {"none": 0, "all": 0}
    (tmp_path / "runs").mkdir()
    with KilledRuns(tmp_path / "runs") as runs:
        for at in range(1, 60):
            path = _log(tmp_path)
            before = len(Game.open(path, read_only=True).records)
            # staged in chunks of 1,000 bytes: many writes, each a moment to be killed at
            done = runs.run(["run", str(path), str(script), "--json"], at, chunk=1000)
            shown = len(Game.open(path, read_only=True).records)
            game = Game.open(path)
            records = len(game.records)
            game.close()
            assert shown == records and records in (before, before + 12), (at, records)
            if done.returncode == 0:
                assert json.loads(done.stdout)["recorded"] == 12 == records - before
            seen["all" if records > before else "none"] += 1
            for side in [path, *tmp_path.glob("game.jsonl.torn-*")]:
                os.unlink(side)
            if done.returncode == 0:
                break
    assert seen["none"] > 4 and seen["all"] >= 1, seen


def test_a_run_holds_no_record_it_writes_only_its_names_and_tables(tmp_path, monkeypatch, capsys):
    """Counted with tracemalloc between the 1,000th line tried and the 4,000th of a
    ``run`` (a game long enough to keep a snapshot from 500 entries): what the game
    holds more per record written. No record is held past the last few: each is read
    back from the spill, then the log (``core.log.read_back``); a seq is no int object
    (the effective places, the fold's seqs and the groups in effect are arrays), the
    undo journal a window of ``snap_sizes.TAIL`` entries. What is left: the names of
    the entry's units, its time and names in the tables, a slot in a few lists (~160
    bytes; main e4cabae ~670: the journal's entry, the groups' list, a string per
    token; main 6b38317 ~320: the record, its seq's int and the lists' slots)."""
    from stockade.core.log import snap_sizes

    monkeypatch.setattr(snap_sizes, "MIN_EVENTS", 500)
    path, script = _log(tmp_path), _write(tmp_path, _moves(4_000))
    marks: dict[int, int] = {}
    real = execute_module.execute
    tried = [0]

    def marked(game, line):
        outcome = real(game, line)
        tried[0] += 1
        if tried[0] in (1_000, 4_000):
            gc.collect()
            marks[tried[0]] = tracemalloc.get_traced_memory()[0]
        return outcome

    monkeypatch.setattr(execute_module, "execute", marked)
    tracemalloc.start()
    try:
        assert main(["run", str(path), str(script), "-q"]) == 0
    finally:
        tracemalloc.stop()
    per_record = (marks[4_000] - marks[1_000]) / 3_000
    assert per_record < 180, per_record
