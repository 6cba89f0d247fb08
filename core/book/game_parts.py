"""The three parts of an open game, built from a log: the log store (``core.log.store``),
the timeline (``core.log.game_timeline``) and the projection (``core.book.projection``).

Separate from the writer (``core.book.writer``) because opening a log and re-reading
it after a failed write (``core.book.write_recovery``) build them the same way, and
neither is a write.
"""

from __future__ import annotations

from pathlib import Path

from stockade.core.book.projection import Projection, gc_paused
from stockade.core.log import snapcache
from stockade.core.log.game_timeline import Timeline, build_timeline
from stockade.core.log.records import LogRecords
from stockade.core.log.store import LogStore

Parts = tuple[LogStore, Timeline, Projection]


def parts_from_store(store: LogStore) -> Parts:
    """The parts of the game ``store`` holds: folded from the snapshot cache when
    the bytes it read (``store.log_data``) match one, else whole."""
    records = store.records
    timeline = store.take_timeline()
    if timeline is None:
        timeline = build_timeline(records)
    held = records.held() if isinstance(records, LogRecords) else records
    fold = Projection(timeline.effective_of(held), fold=False)
    fold.snapshots = not timeline.amends
    wanted = fold.snapshots and len(fold.effective) >= snapcache.MIN_EVENTS
    path = store.path
    if path is None:
        store.take_log_data(wanted=False)  # not kept: nothing is read from the cache
    try:
        # the bytes are passed on, never held here: the fold lets them go before it
        # folds (a long log's bytes are as large as its records)
        if path is None or not fold.from_snapshot(path, store.take_log_data(wanted), store.content):
            fold.fold_all()
    finally:
        if store.content is not None:
            store.content.settle()  # hashed now: the bytes read are not kept
    return store, timeline, fold


def open_parts(path: Path, read_only: bool = False) -> Parts:
    """The parts of the game in the log at ``path``. Raises JournalError if it cannot
    be read or is not a game."""
    with gc_paused():
        return parts_from_store(LogStore.open(Path(path), read_only))
