"""The snapshot's write holds a few pieces of it, not its columns: a read command on a
long log writes the snapshot while the whole state is held, so what the write adds
is on top of the game's own peak (``core.log.snap_columns``)."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import msgspec
import pytest

from bench.hostile_shapes import added
from stockade.core.book import projection
from stockade.core.book.game import Game
from stockade.core.log import snap_columns, snap_sizes, snap_write, snapcache
from stockade.core.log.chain import chained
from stockade.core.model import events as ev


def added_log(tmp_path: Path, units: int) -> Path:
    path = tmp_path / f"added-{units}.jsonl"
    lines = chained([ev.encode(r) for r in added(units)])
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    return path


def held_by_the_write(monkeypatch, path: Path) -> int:
    """The most bytes (tracemalloc) the snapshot's write held beyond the game: traced
    from the write's start to its end only (the open around it untraced, at a third of
    the cost), so a block of the game the write let go is not taken off its count."""
    seen: list[int] = []
    save = projection.Projection.save_snapshot

    def measured(self, *args, **kwargs):
        tracemalloc.start()
        try:
            save(self, *args, **kwargs)
            seen.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()

    with monkeypatch.context() as m:
        m.setattr(projection.Projection, "save_snapshot", measured)
        game = Game.open(path, read_only=True)
    assert seen and game.projection.snap_position == len(game.effective)
    return seen[0]


@pytest.fixture()
def long_games(monkeypatch, tmp_path):
    monkeypatch.setenv("STOCKADE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(snap_sizes, "MIN_EVENTS", 500)
    monkeypatch.setattr(snap_write, "PIECE_BYTES", 1 << 14)
    monkeypatch.setattr(snap_columns, "NAME_WINDOW", 256)


def test_the_snapshot_write_holds_no_column_whole(long_games, monkeypatch, tmp_path):
    """Per unit more in the game, the write holds a few bytes more (the seqs it hashes),
    not its rows, times, names and timeline made whole (~190 bytes a unit before)."""
    # 1,000 and 4,000 units: 16 bytes a unit more here; 155 on the code that made the
    # columns whole (164 at 2,000 and 8,000)
    small = held_by_the_write(monkeypatch, added_log(tmp_path, 1000))
    large = held_by_the_write(monkeypatch, added_log(tmp_path, 4000))
    assert (large - small) / 3000 < 40, (small, large)


def test_the_timeline_written_in_columns_is_the_bytes_of_its_rows(long_games, tmp_path):
    game = Game.open(added_log(tmp_path, 600), read_only=True)
    rows = snap_write.timeline_rows(game.timeline)
    columns = snap_write.timeline_columns(game.timeline)
    assert rows is not None and columns is not None
    written = b"".join(snap_columns.pieces([("timeline", columns)], 1 << 10))
    assert written == msgspec.msgpack.encode({"timeline": rows})


def test_names_past_the_window_are_read_back_as_they_were(long_games, monkeypatch, tmp_path):
    """A name seen again once the table's window has moved on is in the table twice:
    read back, every entry has the names it had."""
    path = added_log(tmp_path, 1500)
    Game.open(path, read_only=True).close()
    snap = snapcache.peek(path)
    assert snap is not None and len(snap.name_table) > 256
    warm = Game.open(path, read_only=True)
    assert warm.projection.restored
    snapcache.ENABLED = False
    try:
        cold = Game.open(path, read_only=True)
    finally:
        snapcache.ENABLED = True
    assert warm.names.by_seq == cold.names.by_seq
