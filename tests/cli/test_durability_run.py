"""``stockade run`` is all or nothing, on disk too: a script's records land in one write
and one fsync, accepted when the marker beside the log is removed, or none of them does,
whatever fails or kills it; the reply (text and ``--json``) says exactly what the file
holds (issue 23)."""

from __future__ import annotations

import errno
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from stockade.core.book.game import Game
from stockade.core.cli import main
from stockade.core.log import files as files_module
from stockade.core.log import journal as journal_module
from stockade.core.log.files import group_marker
from stockade.core.log.game_log import load
from stockade.core.model import events as ev
from tests.cli.killed_runs import KilledRuns

ROOT = Path(__file__).resolve().parents[2]
SIDES = [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]


def _log(tmp_path: Path) -> Path:
    path = tmp_path / "game.jsonl"
    game = Game.create(path, "Run", SIDES, first_attacker="American")
    game.close()
    return path


def _script(tmp_path: Path, lines: int = 12, refused_at: int = 0) -> Path:
    script = tmp_path / "script.txt"
    text = [f"add German 4-6-7 as g{n} at Q{n % 9 + 1}" for n in range(1, lines + 1)]
    if refused_at:
        text[refused_at - 1] = "surrender zz1 to zz2"  # no such units: refused
    script.write_text("\n".join(text) + "\n")
    return script


def _opened(path: Path) -> list[ev.Record]:
    """What Stockade takes the log to hold: read-only first (it hides a group never
    accepted), then for writing (which cuts such a group back)."""
    seen = Game.open(path, read_only=True)
    records = list(seen.records)
    seen.close()
    game = Game.open(path)
    assert game.records == records
    game.close()
    return records


def _reply(capsys) -> dict:
    return json.loads(capsys.readouterr().out)


def test_a_whole_run_lands_in_one_write_and_says_what_it_recorded(tmp_path, capsys, monkeypatch):
    path, script = _log(tmp_path), _script(tmp_path)
    writes: list[int] = []
    real = os.write

    def counted(fd, data):
        writes.append(len(data))
        return real(fd, data)

    original_init = journal_module.Journal.__init__

    def init(self, *args, **kwargs):
        original_init(self, *args, **kwargs)
        self._write = counted

    monkeypatch.setattr(journal_module.Journal, "__init__", init)
    assert main(["run", str(path), str(script), "--json"]) == 0
    reply = _reply(capsys)
    records = _opened(path)
    assert len(writes) == 1  # the twelve lines' records: one write
    assert reply["ok"] and reply["recorded"] == len(records) - 1 == 12
    assert [o["line"] for o in reply["outcomes"]] == list(range(1, 13))
    assert not group_marker(path).exists()


def test_a_refused_line_records_nothing_and_the_json_says_so(tmp_path, capsys):
    path, script = _log(tmp_path), _script(tmp_path, refused_at=7)
    before = path.read_bytes()
    assert main(["run", str(path), str(script), "--json"]) == 1
    reply = _reply(capsys)
    assert reply["ok"] is False and reply["recorded"] == 0 and reply["outcomes"] == []
    assert (
        "line 7" in reply["error"]["message"]
        and "nothing was recorded" in reply["error"]["message"]
    )
    assert path.read_bytes() == before


class Faulty:
    """The journal's writes of one ``run`` failing in one way (installed on every
    journal made while it is active)."""

    def __init__(self, how: str):
        self.how = how

    def write(self, fd, data):
        if self.how == "enospc":
            raise OSError(errno.ENOSPC, "No space left on device")
        os.write(fd, memoryview(data)[: len(data) // 2])  # half the group reaches the file
        if self.how == "short":
            return len(data) // 2
        raise OSError(errno.EIO, "Input/output error")

    def fsync(self, fd):
        if self.how == "fsync":
            raise OSError(errno.EIO, "Input/output error")
        os.fsync(fd)

    def truncate(self, fd, size):
        raise OSError(errno.EIO, "Input/output error")


@pytest.mark.parametrize(
    "how",
    ["marker", "enospc", "partial", "short", "fsync", "partial-stuck", "fsync-stuck", "accept"],
)
def test_every_write_of_a_run_failing_records_nothing_and_says_so(
    tmp_path, capsys, monkeypatch, how
):
    path, script = _log(tmp_path), _script(tmp_path)
    before = path.read_bytes()
    faulty = Faulty(how.removesuffix("-stuck"))
    if how == "marker":  # the marker beside the log cannot be written (a full disk)

        def full(fd, data):
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(files_module, "write_all", full)
    elif how == "accept":  # the marker cannot be removed: the group is not accepted

        def stuck(path):
            raise OSError(errno.EIO, "Input/output error")

        monkeypatch.setattr(journal_module, "fsync_dir", stuck)
    else:
        original_init = journal_module.Journal.__init__

        def init(self, *args, **kwargs):
            original_init(self, *args, **kwargs)
            self._write = faulty.write if how != "fsync" and how != "fsync-stuck" else os.write
            self._fsync = faulty.fsync
            if how.endswith("-stuck"):  # and the cut-back fails too
                self._truncate = faulty.truncate

        monkeypatch.setattr(journal_module.Journal, "__init__", init)
    code = main(["run", str(path), str(script), "--json"])
    reply = _reply(capsys)
    monkeypatch.undo()
    assert code == 1 and reply["ok"] is False and reply["recorded"] == 0, reply
    assert "nothing was recorded" in reply["error"]["message"]
    assert "kept" not in reply["error"]["message"]
    assert _opened(path) == load_records(before, tmp_path)
    assert path.read_bytes() == before
    assert not group_marker(path).exists()
    assert not [p for p in tmp_path.iterdir() if p.stat().st_size == 0]  # no empty side file


def load_records(data: bytes, tmp_path: Path) -> list[ev.Record]:
    copy = tmp_path / "expected.jsonl"
    copy.write_bytes(data)
    return load(copy).records


# ----------------------------------------------------------------- killed runs
def test_a_run_killed_at_every_step_of_its_write_leaves_the_log_as_before_or_whole(tmp_path):
    """The child SIGKILLs itself at the k-th step of the write protocol (before and after
    each write, half-write and fsync), for every k: afterwards the log holds all of the
    script's records or none, and a run that replied says exactly what the file holds."""
    script = _script(tmp_path, lines=40)
    outcomes = {"none": 0, "all": 0}
    (tmp_path / "runs").mkdir()
    with KilledRuns(tmp_path / "runs") as runs:
        for at in range(1, 40):
            path = _log(tmp_path)
            before = len(load(path).records)
            argv = ["run", str(path), str(script), "--json"]
            done = runs.run(argv, at, half_writes=True)
            records = _opened(path)
            assert len(records) in (before, before + 40), (at, len(records))
            if done.returncode == 0:
                assert json.loads(done.stdout)["recorded"] == 40 == len(records) - before
            else:
                assert done.returncode == -signal.SIGKILL, done.stderr
            outcomes["all" if len(records) > before else "none"] += 1
            path.unlink()
            for side in tmp_path.glob("game.jsonl.torn-*"):
                side.unlink()
            if done.returncode == 0:
                break  # every step was passed: the run finished
    assert outcomes["none"] and outcomes["all"]  # kills before and after it was accepted
    print(f"\n[figures] run killed at each write step: {outcomes}")


RUN = "import sys; from stockade.core.cli import main; sys.exit(main(sys.argv[1:]))"


def test_runs_killed_at_random_moments_leave_the_log_as_before_or_whole(tmp_path):
    rng = random.Random(23)
    script = _script(tmp_path, lines=300)
    seen: dict[str, int] = {"none": 0, "all": 0, "replied": 0}
    for _ in range(12):
        path = _log(tmp_path)
        before = len(load(path).records)
        reply = tmp_path / "reply.json"
        with open(reply, "w") as out:  # a file, not a pipe: a full pipe would block it
            proc = subprocess.Popen(
                [sys.executable, "-c", RUN, "run", str(path), str(script), "--json"],
                cwd=ROOT,
                stdout=out,
                stderr=subprocess.DEVNULL,
            )
            time.sleep(rng.uniform(0.0, 1.5))
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=60)
        records = _opened(path)
        assert len(records) in (before, before + 300)
        if proc.returncode == 0:
            seen["replied"] += 1
            assert json.loads(reply.read_text())["recorded"] == len(records) - before == 300
        seen["all" if len(records) > before else "none"] += 1
        path.unlink()
        for side in tmp_path.glob("game.jsonl.torn-*"):
            side.unlink()
    print(f"\n[figures] run killed at random moments: {seen}")
