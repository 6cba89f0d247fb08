"""``check``'s pass over a long log's undo, redo, strike and amend records holds the
seqs of the log's events, never the events decoded (tracemalloc bytes, no timing)."""

from __future__ import annotations

import gc
import tracemalloc

from bench.hostile_shapes import added
from stockade.core.log import store
from stockade.core.log.chain import chained
from stockade.core.log.control_check import control_problems
from stockade.core.log.store import LogStore
from stockade.core.model import events as ev


def test_the_control_pass_over_a_long_log_holds_no_record_decoded(tmp_path, monkeypatch):
    monkeypatch.setattr(store, "STREAM_FROM", 1 << 12)  # read piece by piece
    path = tmp_path / "added.jsonl"
    units = 3000
    lines = chained([ev.encode(r) for r in added(units)])
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    sound = LogStore.read_sound(path)
    assert sound is not None
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        assert control_problems(sound.records) == []
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    per_record = peak / units
    assert per_record < 250, per_record  # ~700 when its timeline held each record
