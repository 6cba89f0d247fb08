"""Logs the log's tests write, shared with the TUI's tests (a plain module, not a test
module)."""

from __future__ import annotations

from pathlib import Path

from bench.generate import new_game
from stockade.core.log.chain import chained
from stockade.core.model import events as ev


def pingpong_log(path: Path, pairs: int) -> Path:
    """A game of one unit entered, then ``pairs`` undo/redo pairs of it: a long log
    (``2 * pairs + 2`` records) whose state stays small, written hash-chained."""
    game = new_game()
    game.submit([ev.UnitEntered(handle="u1", side="Americans", unit_kind="squad", counter="4-6-7")])
    records = list(game.records)
    at = "2026-01-01T00:00:00+00:00"
    for _ in range(pairs):
        seq = len(records) + 1
        records.append(ev.Undo(seq=seq, grp=seq, at=at, target=2))
        records.append(ev.Redo(seq=seq + 1, grp=seq + 1, at=at, target=2))
    path.write_bytes(b"".join(line + b"\n" for line in chained([ev.encode(r) for r in records])))
    return path
