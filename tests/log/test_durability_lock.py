"""The single-writer lock across processes (docs/durability.md, "One writer").

These run twice in CI: as they are (the ``flock`` backend) and again by
tests/log/test_portable_lock.py in an interpreter with ``fcntl`` hidden (the ``filelock``
backend Windows uses), so both ways of holding the lock keep the same promises."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.generate import new_game
from stockade.core.book.game import Game
from stockade.core.log import writelock

ROOT = Path(__file__).resolve().parents[2]

# A second process that opens the game for writing, says whether it got the lock,
# then waits until told to close (a line on stdin) or is killed.
HOLDER = """
import sys
from stockade.core.book.game import Game
game = Game.open(sys.argv[1])
print("read-only" if game.read_only else "writer", flush=True)
sys.stdin.readline()
game.close()
print("closed", flush=True)
"""


def _holder(path: Path) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path)],
        cwd=ROOT,
        text=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert proc.stdout is not None
    return proc, proc.stdout.readline().strip()


def test_a_second_process_gets_read_only_until_the_first_closes(tmp_path):
    path = tmp_path / "g.jsonl"
    new_game(path=path).close()
    proc, got = _holder(path)
    try:
        assert got == "writer"
        second = Game.open(path)
        assert second.read_only
        assert any("another Stockade window" in w for w in second.warnings)
        second.close()
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write("\n")
        proc.stdin.flush()
        assert proc.stdout.readline().strip() == "closed"
    finally:
        proc.kill()
        proc.wait(10)
    third = Game.open(path)
    assert not third.read_only, third.warnings
    third.close()


def test_a_killed_writer_leaves_no_lock_behind(tmp_path):
    path = tmp_path / "g.jsonl"
    new_game(path=path).close()
    proc, got = _holder(path)
    assert got == "writer"
    proc.kill()  # SIGKILL: no chance to release anything
    proc.wait(10)
    game = Game.open(path)
    assert not game.read_only, game.warnings
    game.close()


def test_this_process_cannot_write_from_two_windows(tmp_path):
    path = tmp_path / "g.jsonl"
    first = new_game(path=path)
    second = Game.open(path)
    assert second.read_only and not first.read_only
    second.close()
    first.close()
    again = Game.open(path)
    assert not again.read_only
    again.close()


def test_the_lock_leaves_no_file_behind_once_released(tmp_path):
    path = tmp_path / "g.jsonl"
    new_game(path=path).close()
    game = Game.open(path)
    if writelock.BACKEND == "filelock":
        assert writelock.side_file(path).exists()
    game.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.jsonl"]


def test_help_answers_while_another_window_holds_the_write_lock(tmp_path, capsys):
    from stockade.core.cli import main

    path = tmp_path / "g.jsonl"
    new_game(path=path).close()
    proc, got = _holder(path)
    try:
        assert got == "writer"
        assert main(["do", str(path), "help nq"]) == 0  # help writes nothing: no lock wanted
        assert "nq" in capsys.readouterr().out
        assert main(["do", str(path), "next"]) != 0  # a write still waits for the lock
    finally:
        proc.kill()
        proc.wait(10)


# The way this interpreter holds the lock, and the side file's way where that is another
# (``acquire`` reads ``BACKEND`` at each call): with ``fcntl`` present the side file is
# held by filelock's ``flock`` on it, without it (tests/log/test_portable_lock.py) by its
# pid file.
BACKENDS = sorted({writelock.BACKEND, "filelock"})


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_released_lock_is_free_while_its_holder_still_lives(tmp_path, monkeypatch, backend):
    """Released means released now, not once the lock object is collected: whoever still
    refers to it (a journal kept for its warnings, a frame in a traceback), the next
    writer gets the lock."""
    monkeypatch.setattr(writelock, "BACKEND", backend)
    path = tmp_path / "g.jsonl"
    new_game(path=path).close()
    first, second = os.open(path, os.O_RDWR), os.open(path, os.O_RDWR)
    try:
        held = writelock.acquire(path, first)
        with pytest.raises(writelock.LockHeld):
            writelock.acquire(path, second)
        os.close(first)  # as Journal.close does: the descriptor, then the lock
        first = -1
        held.release()
        again = writelock.acquire(path, second)
        again.release()
        assert held is not again
    finally:
        for fd in (first, second):
            if fd >= 0:
                os.close(fd)
