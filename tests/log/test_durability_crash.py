"""Crash test: a child appends through Game.submit and reports every accepted record;
the parent SIGKILLs it at random moments; after each kill, every accepted record is in
the log, unchanged, and the log opens cleanly: at most the record being written when the
kill came is left out as a torn tail."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from stockade.core.book.game import Game
from stockade.core.log.game_log import load
from stockade.core.model import events as ev

SERVER = Path(__file__).resolve().parents[1] / "fixtures" / "crash_child.py"
ROOT = Path(__file__).resolve().parents[2]
# Kills per run. tests/log/test_portable_lock.py re-runs this file with fewer (each kill
# leaves the portable lock's file behind for the next worker to break, from the first).
KILLS = int(os.environ.get("STOCKADE_TEST_CRASH_KILLS", "60"))


class ForkServer:
    def __init__(self):
        self.proc = subprocess.Popen(
            [sys.executable, str(SERVER)],
            cwd=ROOT,
            text=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )

    def ask(self, line: str) -> str:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        assert answer, "fork server died"
        return answer.strip()

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(10)


def _reported(report: Path) -> list[bytes] | None:
    """The worker's report lines after "ready", or None before it is ready."""
    lines = report.read_bytes().split(b"\n")[:-1] if report.exists() else []
    return lines[lines.index(b"ready") + 1 :] if b"ready" in lines else None


def _run_and_kill(
    server: ForkServer, path: Path, seed: int, report: Path, rng: random.Random
) -> list[str]:
    """Start a worker, let it report 1 to 4 accepted records (counted, so a slow or busy
    machine kills it at the same point of its work), then kill it within the next few
    milliseconds: often in the middle of writing the next record."""
    report.unlink(missing_ok=True)
    pid = int(server.ask(f"{path} {seed} {report}"))
    wanted = rng.randint(1, 4)
    hang_guard = time.monotonic() + 300  # a stalled worker, never a slow one
    while (done := _reported(report)) is None or len(done) < wanted:
        assert time.monotonic() < hang_guard, "the worker stalled"
        time.sleep(0.001)
    time.sleep(rng.uniform(0, 0.005))
    os.kill(pid, signal.SIGKILL)
    assert server.ask(f"wait {pid}") == "dead"  # reaped: nothing more can be written
    lines = report.read_bytes().split(b"\n")[:-1]
    return [line.decode() for line in lines if line != b"ready"]


def test_sigkill_never_loses_an_accepted_record(tmp_path: Path) -> None:
    rng = random.Random(4)
    path = tmp_path / "crash.jsonl"
    accepted: dict[int, str] = {}
    server = ForkServer()
    try:
        for attempt in range(KILLS):
            for line in _run_and_kill(server, path, attempt, tmp_path / "report", rng):
                number, record = line.split(" ", 1)
                accepted[int(number)] = record
            before = path.read_bytes(), path.stat().st_mtime_ns
            loaded = load(path)
            assert loaded.problem is None, (attempt, loaded.problem)
            if loaded.warnings:
                # SIGKILL can cut a write() short at a page boundary (Linux checks for a
                # fatal signal between the pages it copies), so the record being written
                # may be torn. That is allowed: it was never accepted (checked below),
                # and the next worker's Game.open sets it aside and goes on writing.
                assert loaded.torn_tail is not None, (attempt, loaded.warnings)
                assert all("entry" in w and "left out" in w for w in loaded.warnings[:1]), (
                    attempt,
                    loaded.warnings,
                )
            by_seq = {r.seq: r for r in loaded.records}
            for seq, record in accepted.items():
                assert seq in by_seq, f"kill {attempt}: accepted record {seq} lost"
                assert ev.encode(by_seq[seq]).decode() == record, (
                    f"kill {attempt}: record {seq} changed"
                )
            if attempt % 6 == 0:
                game = Game.open(path, read_only=True)  # folds cleanly, never modifies
                assert game.problem is None and len(game.records) == len(loaded.records)
                assert (path.read_bytes(), path.stat().st_mtime_ns) == before
    finally:
        server.close()
    assert len(accepted) >= KILLS  # every worker had an action accepted before its kill
