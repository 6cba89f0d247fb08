"""What a long log's open holds when its fold begins, counted with tracemalloc (bytes,
never time): the snapshot cache checks the bytes read by hashing them again a block at
a time, so the log's bytes are never held whole while the game folds."""

from __future__ import annotations

import gc
import tracemalloc
from pathlib import Path

import pytest

from bench.hostile_shapes import added
from stockade.core.book import projection
from stockade.core.book.game import Game
from stockade.core.log import derived, snap_sizes, snapcache, store
from stockade.core.log.chain import chained
from stockade.core.model import events as ev


@pytest.fixture(autouse=True)
def long_games(monkeypatch, tmp_path):
    monkeypatch.setenv("STOCKADE_CACHE_DIR", str(tmp_path / "cache"))  # snapshots on
    monkeypatch.setattr(store, "STREAM_FROM", 0)  # every log read piece by piece
    monkeypatch.setattr(snap_sizes, "MIN_EVENTS", 200)
    monkeypatch.setattr(snap_sizes, "TAIL", 30)


def added_log(tmp_path: Path, units: int) -> Path:
    path = tmp_path / f"added-{units}.jsonl"
    lines = chained([ev.encode(r) for r in added(units)])
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    return path


def held_between_read_and_fold(monkeypatch, path: Path) -> int:
    """The most bytes allocated at once after the log is read (``LogStore.open``
    returned: its records indexed, its timeline built) until the fold of every entry
    begins: what matching the log to the snapshot cache holds. Traced from the one to
    the other only (the read, the fold and the snapshot's write untraced), so a block
    let go in between that was allocated before is not taken off the count."""
    seen: list[int] = []
    open_store = store.LogStore.open.__func__  # type: ignore[attr-defined]
    fold_all = projection.Projection.fold_all

    def counted_open(cls, *args, **kwargs):
        got = open_store(cls, *args, **kwargs)
        tracemalloc.start()
        return got

    def counted_fold(self, *args, **kwargs):
        if tracemalloc.is_tracing():
            seen.append(tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
        return fold_all(self, *args, **kwargs)

    monkeypatch.setattr(store.LogStore, "open", classmethod(counted_open))
    monkeypatch.setattr(projection.Projection, "fold_all", counted_fold)
    gc.collect()
    try:
        Game.open(path, read_only=True).close()
    finally:
        tracemalloc.stop()
    assert seen, "the log was not opened and folded"
    return seen[0]


def test_a_long_log_is_never_held_whole_before_its_fold_begins(monkeypatch, tmp_path):
    warm = tmp_path / "warm"
    warm.mkdir()
    Game.open(added_log(warm, 300), read_only=True).close()  # what a process pays once
    path = added_log(tmp_path, 4000)
    size = path.stat().st_size
    ratio = held_between_read_and_fold(monkeypatch, path) / size
    assert ratio < 0.1, ratio  # 1.0x before: the whole log read again and hashed


def test_the_snapshot_written_from_bytes_read_again_is_found_and_verified(tmp_path):
    path = added_log(tmp_path, 600)
    first = Game.open(path, read_only=True)
    units = len(first.projection.state.units)
    first.close()
    assert snapcache.peek(path) is not None  # written, keyed by the bytes read again
    again = Game.open(path, read_only=True)
    assert len(again.projection.state.units) == units
    again.close()


def test_bytes_read_again_hash_as_the_file_and_a_changed_block_is_refused(tmp_path):
    path = added_log(tmp_path, 600)
    streamed = store.LogStore.read_sound(path)
    assert streamed is not None
    records = streamed.records
    data = path.read_bytes()
    again = snapcache.ReadAgain(records)
    assert again.key() == (len(data), derived.Content(data).digest())
    cut = data.index(b"\n", len(data) // 2) + 1  # a prefix ending at a line's end
    assert again.prefix_digest(cut) == derived.Content(data[:cut]).digest()
    assert again.prefix_digest(cut - 1) is None  # not a line's end
    changed = bytearray(data)
    changed[10] ^= 1
    path.write_bytes(bytes(changed))  # written in place: the store's descriptor sees it
    assert again.key() is None
    records.close()
