"""A long log is read a piece at a time and its undo, redo and strike records are read
again from the file when asked for (core/log/records.py): what a game holds after
opening grows with its state, not with the lines read, and everything reads, undoes,
redoes, strikes, amends and writes exactly as when the whole log is held.

The bound is held by counting (tracemalloc bytes held after opening, no timing); the
sameness by reading one log both ways (``STREAM_FROM`` set to 0: every log streamed,
or past its size: none).
"""

from __future__ import annotations

import gc
import io
import tracemalloc
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from bench.generate import generate, write_log
from stockade.core.book.game import Game
from stockade.core.cli import main
from stockade.core.log import store as log_store
from stockade.core.log.journal_errors import JournalError
from stockade.core.log.records import BLOCK, LogRecords
from stockade.core.model import events as ev
from tests.log.kit import pingpong_log


def _held_after_open(path: Path) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        game = Game.open(path, read_only=True)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - base
        assert game.state.units  # the game is whole
        game.close()
        return held
    finally:
        tracemalloc.stop()


def test_bytes_held_after_opening_grow_with_the_state_not_the_lines(tmp_path):
    small = pingpong_log(tmp_path / "small.jsonl", 6_000)
    large = pingpong_log(tmp_path / "large.jsonl", 12_000)
    assert small.stat().st_size >= log_store.STREAM_FROM  # both read a piece at a time
    lines = 2 * (12_000 - 6_000)
    grown = _held_after_open(large) - _held_after_open(small)
    # a slot (a pointer) a line and 12 bytes a block of the index; holding every
    # record costs ~250 bytes a line (the record and its time stamp)
    assert grown / lines < 24, f"{grown / lines:.0f} bytes held a line read"


def _same_both_ways(path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> str:
    said = []
    for stream_from in (0, 1 << 40):
        monkeypatch.setattr(log_store, "STREAM_FROM", stream_from)
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code = main([*argv])
        said.append((code, out.getvalue(), err.getvalue()))
    assert said[0] == said[1]
    return said[0][1]


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """A game with undo, redo and strike records among its entries."""
    path = tmp_path_factory.mktemp("streamed") / "played.jsonl"
    write_log(generate(1_500, seed=3), path)
    return path


@pytest.mark.parametrize(
    "command",
    [["history"], ["history", "--json"], ["check"], ["check", "--json"], ["tally"], ["show"]],
    ids=" ".join,
)
def test_every_read_command_says_the_same_streamed(played, monkeypatch, tmp_path, command):
    monkeypatch.setenv("STOCKADE_CACHE_DIR", str(tmp_path / "cache"))
    out = _same_both_ways(played, monkeypatch, [command[0], str(played), *command[1:]])
    assert out


def test_verify_of_a_longer_copy_is_the_same_streamed(played, monkeypatch, tmp_path):
    records = Game.open(played, read_only=True).records
    kept = tmp_path / "kept.jsonl"
    kept.write_bytes(played.read_bytes()[: _line_end(played, len(records) - 40)])
    out = _same_both_ways(played, monkeypatch, ["verify", str(kept), str(played)])
    assert "extends" in out


def _line_end(path: Path, lines: int) -> int:
    data = path.read_bytes()
    pos = 0
    for _ in range(lines):
        pos = data.index(b"\n", pos) + 1
    return pos


def test_records_read_again_are_the_records_read(played, monkeypatch):
    monkeypatch.setattr(log_store, "STREAM_FROM", 0)
    streamed = Game.open(played, read_only=True)
    whole = Game.load(list(streamed.records))  # every record, read again in order
    assert isinstance(streamed.records, LogRecords)
    controls = [r for r in whole.records if ev.is_control(r)]
    assert controls  # the log has records that were dropped and read again
    assert [streamed.records[r.seq - 1] for r in controls] == controls
    assert streamed.history() == whole.history()
    assert streamed.state == whole.state


def test_undo_redo_strike_amend_after_a_streamed_open_write_what_a_whole_open_does(
    played, monkeypatch, tmp_path
):
    logs = []
    for stream_from in (0, 1 << 40):
        monkeypatch.setattr(log_store, "STREAM_FROM", stream_from)
        path = tmp_path / f"copy-{stream_from}.jsonl"
        path.write_bytes(played.read_bytes())
        game = Game.open(path)
        assert isinstance(game.records, LogRecords) == (stream_from == 0)
        game.undo()
        game.redo()
        struck = next(
            e.seq
            for e in reversed(game.history())
            if e.status == "ok" and not isinstance(e.record, ev.GameCreated)
        )
        game.strike(struck, "wrong")
        game.unstrike(struck)
        control = next(r.seq for r in game.records if ev.is_control(r))
        first = next(e for e in game.history() if e.status == "ok" and e.seq > 3)
        game.undo_to(first.seq)
        game.redo()
        history = game.history()
        game.close()
        again = Game.open(path, read_only=True)
        assert again.history() == history
        logs.append((history, again.state, again.records[control - 1]))
    # the same entries with the same status either way (times of writing differ)
    first, second = logs
    assert [(e.seq, e.status, e.reason) for e in first[0]] == [
        (e.seq, e.status, e.reason) for e in second[0]
    ]
    assert first[1] == second[1] and first[2] == second[2]


def test_a_block_changed_on_disk_is_refused_by_its_lines(tmp_path, monkeypatch):
    path = pingpong_log(tmp_path / "log.jsonl", 500)
    monkeypatch.setattr(log_store, "STREAM_FROM", 0)
    game = Game.open(path, read_only=True)
    line = 3 * BLOCK + 5
    data = bytearray(path.read_bytes())
    start = _line_end(path, line - 1)
    at = data.index(b"2026-01-01", start)
    data[at : at + 4] = b"2027"  # the same length, in place: only its bytes differ
    path.write_bytes(bytes(data))
    with pytest.raises(
        JournalError, match=rf"lines {3 * BLOCK + 1}-{4 * BLOCK} are no longer .*changed"
    ):
        game.records[line - 1]
    assert game.records[1].seq == 2  # a record held is still there


def test_a_file_put_in_the_logs_place_is_never_read_as_it(tmp_path, monkeypatch):
    path = pingpong_log(tmp_path / "log.jsonl", 500)
    monkeypatch.setattr(log_store, "STREAM_FROM", 0)
    game = Game.open(path, read_only=True)
    want = game.records[400]
    other = pingpong_log(tmp_path / "other.jsonl", 700)
    other.replace(path)  # renamed over it: the descriptor opened still reads the first
    assert game.records[400] == want


def test_a_prefix_reads_on_after_the_records_it_came_from_are_gone(tmp_path, monkeypatch):
    path = pingpong_log(tmp_path / "log.jsonl", 500)
    monkeypatch.setattr(log_store, "STREAM_FROM", 0)
    game = Game.open(path, read_only=True)
    want = [game.records[n] for n in (299, 301)]
    assert isinstance(game.records, LogRecords)
    first = game.records.prefix(302)  # what a write never accepted leaves the game with
    del game
    gc.collect()
    assert [first[299], first[301]] == want and len(first) == 302
    first.truncate(300)  # a block cut short keeps its lines readable, checked anew
    assert first[299] == want[0] and len(list(first)) == 300
