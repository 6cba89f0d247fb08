"""The live second view (core/book/follow.py): whole lines only, from the last offset, a
fresh start on truncation or replacement; ``Game.absorb``; ``stockade watch``; and a
writer process and a follower process running at once."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bench.generate import Driver, new_game
from stockade.core.book.follow import Follower, GameFollower
from stockade.core.book.game import Game
from stockade.core.book.tally import tally
from tests.cli.support import CLI_CHILD

ROOT = Path(__file__).resolve().parents[2]


def _signature(game: Game) -> tuple:
    """What a player sees: every entry's status, and the tally."""
    statuses = [(e.seq, e.status) for e in game.history()]
    points = {n: (s.cvp, s.cvp_if_ended) for n, s in tally(game.state).sides.items()}
    return statuses, points, len(game.state.units), game.state.phase


# ---------------------------------------------------------------- the Follower
def test_only_whole_lines_are_handed_out(tmp_path):
    path = tmp_path / "log"
    path.write_bytes(b"one\ntw")
    follower = Follower(path)
    assert follower.poll().lines == [b"one"]
    assert follower.poll().lines == []  # "tw" is being written
    with open(path, "ab") as f:
        f.write(b"o\nthree\nfo")
    assert follower.poll().lines == [b"two", b"three"]
    assert follower.offset == len(b"one\ntwo\nthree\n")


def test_it_reads_from_the_last_offset_only(tmp_path):
    path = tmp_path / "log"
    path.write_bytes(b"a\nb\n")
    follower = Follower(path, offset=2)
    assert follower.poll().lines == [b"b"]
    assert follower.poll().lines == []


def test_a_truncated_file_is_read_again_from_the_top(tmp_path):
    path = tmp_path / "log"
    path.write_bytes(b"a\nb\nc\n")
    follower = Follower(path)
    follower.poll()
    path.write_bytes(b"a\n")
    batch = follower.poll()
    assert batch.restarted == "the log was cut shorter" and batch.lines == [b"a"]


def test_a_replaced_file_is_read_again_from_the_top(tmp_path):
    path = tmp_path / "log"
    path.write_bytes(b"a\nb\n")
    follower = Follower(path)
    follower.poll()
    other = tmp_path / "other"
    other.write_bytes(b"x\ny\nz\n")
    os.replace(other, path)
    batch = follower.poll()
    assert batch.restarted.startswith("the log was replaced") and batch.lines == [b"x", b"y", b"z"]


def test_a_torn_tail_cut_away_and_written_over_is_never_shown(tmp_path):
    path = tmp_path / "log"
    path.write_bytes(b"a\nb\nTORN-BY-A-CRASH")
    follower = Follower(path)
    assert follower.poll().lines == [b"a", b"b"]
    # the writer sets the torn bytes aside, cuts the file back and writes on: the file
    # is longer than before, but the held-back bytes are gone
    path.write_bytes(b"a\nb\nc-is-a-longer-line\n")
    batch = follower.poll()
    assert batch.lines == [b"c-is-a-longer-line"] and not batch.restarted


def _log(path: Path, seed: int, lines: int) -> bytes:
    game = new_game(f"Scenario {seed}", path=path)
    driver = Driver(game, seed=seed, controls=False)
    while len(game.records) < lines:
        driver.step()
    game.close()
    return path.read_bytes()


def test_a_file_rewritten_in_place_is_caught_by_the_chain(tmp_path):
    first = _log(tmp_path / "a.jsonl", seed=3, lines=10)
    other = _log(tmp_path / "b.jsonl", seed=4, lines=30)
    path = tmp_path / "game.jsonl"
    path.write_bytes(first)
    follower = Follower(path)
    assert len(follower.poll().lines) == len(first.splitlines())
    with open(path, "r+b") as f:  # same file, other content, longer: only the chain tells
        f.write(other)
    batch = follower.poll()
    assert batch.restarted == "an earlier line of the log was rewritten"
    assert batch.lines == other.splitlines()  # all of it, from the top


def test_an_append_after_an_in_place_edit_above_is_caught_by_the_chain(tmp_path):
    log = _log(tmp_path / "a.jsonl", seed=3, lines=12)
    path = tmp_path / "game.jsonl"
    lines = log.splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:10]))
    follower = Follower(path)
    follower.poll()
    # the first ten lines rewritten in place, same length, and the eleventh written
    # against them: its link does not match what the follower read
    edited = b"".join(lines[:10]).replace(b'"at":"2', b'"at":"1', 1)
    assert len(edited) == len(b"".join(lines[:10]))
    from stockade.core.log import chain

    head = None
    rewritten = []
    for number, line in enumerate(edited.splitlines(), 1):
        if number > 1:
            record = json.loads(line)
            record["prev"] = head
            line = json.dumps(record, separators=(",", ":")).encode()
        rewritten.append(line)
        head = chain.link_of(line, head)
    eleventh = json.loads(lines[10])
    eleventh["prev"] = head
    path.write_bytes(
        b"".join(x + b"\n" for x in rewritten)
        + json.dumps(eleventh, separators=(",", ":")).encode()
        + b"\n"
    )
    batch = follower.poll()
    assert batch.restarted == "an earlier line of the log was rewritten"


# ------------------------------------------------------------------- absorb
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_follower_ends_where_the_writer_is_including_undo_redo_strike(tmp_path, seed):
    path = tmp_path / "game.jsonl"
    writer = new_game(path=path)
    follower = GameFollower(path)
    driver = Driver(writer, seed=seed)
    seen: list[int] = [r.seq for r in follower.game.records]
    kinds = set()
    for step in range(400):
        driver.step()
        if step % 7 == 0:
            if step % 35 == 0 and writer.can_undo():
                writer.undo()
            new, why = follower.poll()
            assert why == ""
            seen += [r.seq for r in new]
            kinds.update(type(r).__name__ for r in new)
    new, why = follower.poll()
    seen += [r.seq for r in new]
    kinds.update(type(r).__name__ for r in new)
    writer.close()
    assert seen == list(range(1, len(writer.records) + 1))
    assert {"Undo", "Redo"} <= kinds
    assert _signature(follower.game) == _signature(Game.open(path, read_only=True))


# ------------------------------------------------------ two processes at once
WRITER = r"""
import os, sys, time, random
from bench.generate import Driver
from stockade.core.book.game import Game

path, n = sys.argv[1], int(sys.argv[2])
game = Game.open(path)
rng = random.Random(4)

def slow_write(fd, data):
    # write each group in pieces, with a pause between: a follower polling now sees
    # a torn tail, which it must hold back
    cut = rng.randrange(1, len(data)) if len(data) > 1 else len(data)
    written = os.write(fd, data[:cut])
    time.sleep(0.002)
    return written + os.write(fd, data[cut:])

game.journal._write = slow_write
driver = Driver(game, seed=8)
while len(game.records) < n:
    driver.step()
    if rng.random() < 0.3:
        time.sleep(0.001)
game.close()
"""

FOLLOWER = r"""
import json, sys, time
from pathlib import Path
from stockade.core.book.follow import GameFollower

path, n, stop = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
follower = GameFollower(path)
seen = [r.seq for r in follower.game.records]
restarts = []
hang_guard = time.monotonic() + 600  # a writer that died, never a slow one
while time.monotonic() < hang_guard:
    done = stop.exists()
    new, why = follower.poll()
    if why:
        restarts.append(why)
    seen += [r.seq for r in new]
    if done and len(follower.game.records) >= n:
        break
    time.sleep(0.001)
g = follower.game
history = [[e.seq, e.status] for e in g.history()]
print(json.dumps({"seen": seen, "restarts": restarts, "history": history}))
"""


def test_writer_and_follower_processes_every_entry_once_in_order(tmp_path):
    path = tmp_path / "game.jsonl"
    new_game(path=path).close()
    stop = tmp_path / "stop"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    total = 600
    follower = subprocess.Popen(
        [sys.executable, "-c", FOLLOWER, str(path), str(total), str(stop)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
    time.sleep(0.3)
    writer = subprocess.run(
        [sys.executable, "-c", WRITER, str(path), str(total)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )
    assert writer.returncode == 0, writer.stderr
    stop.touch()
    out, err = follower.communicate(timeout=180)
    assert follower.returncode == 0, err
    result = json.loads(out)
    final = Game.open(path, read_only=True)
    n = len(final.records)
    assert n >= total
    assert result["seen"] == list(range(1, n + 1))  # each once, in order
    assert result["restarts"] == []  # no torn tail ever reached the follower as a line
    assert result["history"] == [[e.seq, e.status] for e in final.history()]
    kinds = {type(r).__name__ for r in final.records}
    assert {"Undo", "Redo"} <= kinds


# ------------------------------------------------------------------- watch
def test_watch_prints_new_entries_and_the_tally_delta(tmp_path):
    from stockade.sample_games import catalog

    full = catalog.log_path("ex05_rtph_surrender").read_bytes().splitlines(keepends=True)
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"".join(full[:9]))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # Ctrl-C in a terminal reaches a process that takes SIGINT; a run started in the
    # background of a script inherits it ignored, and the watch would never end.
    interruptible = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    watch = subprocess.Popen(
        [sys.executable, "-c", interruptible + CLI_CHILD, "watch", str(path), "--last", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
    assert watch.stdout is not None
    lines = _Lines(watch.stdout)
    assert lines.until(lambda line: True).startswith(f"watching {path}: 9 entries")
    with open(path, "ab") as f:
        f.write(b"".join(full[9:11]))
    lines.until(lambda line: line.split()[:1] == ["11"])
    game = Game.open(path)
    game.undo()
    # the undo and the redo seen in two polls: each changes the tally
    lines.until(lambda line: line.split()[:3] == ["12", "·", "undo"])
    lines.until(lambda line: "tally:" in line)
    game.redo()
    game.close()
    lines.until(lambda line: line.split()[:3] == ["13", "·", "redo"])
    lines.until(lambda line: "tally:" in line)
    with open(path, "ab") as f:
        f.write(b'{"kind":"end","seq":14,')  # a torn tail: never shown
    time.sleep(1.5)  # time to show it wrongly (a slow machine can only make this pass)
    watch.send_signal(signal.SIGINT)  # Ctrl-C: how a watch ends
    assert watch.wait(timeout=300) == 0, watch.stderr.read() if watch.stderr else ""
    lines = lines.to_the_end()
    assert any(line.split()[0] == "10" and "surrendered" in line for line in lines)
    assert any(line.split()[:3] == ["12", "·", "undo"] for line in lines)
    assert any(line.split()[:3] == ["13", "·", "redo"] for line in lines)
    assert any("tally: American if the game ended now 10 -> 4 (-6)" in line for line in lines)
    assert not any("end" in line.split()[:3] for line in lines)


class _Lines:
    """The lines a child prints, read as they come: a test waits for the line it
    expects (what happened), never for a number of seconds."""

    def __init__(self, stream) -> None:
        self.seen: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream) -> None:
        for line in iter(stream.readline, ""):
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)  # the child closed its output

    def until(self, wanted) -> str:
        """The first line from here on for which ``wanted(line)`` is true."""
        while True:
            line = self._queue.get(timeout=300)  # a child that hung, never a slow one
            assert line is not None, f"the output ended without it: {self.seen}"
            self.seen.append(line)
            if wanted(line):
                return line

    def to_the_end(self) -> list[str]:
        """Every line the child printed, once it has closed its output."""
        while (line := self._queue.get(timeout=300)) is not None:
            self.seen.append(line)
        return self.seen
