"""The three parts of an open game, built from a log: the log store (``core.log.store``),
the timeline (``core.log.game_timeline``) and the projection (``core.book.projection``).

Separate from the writer (``core.book.writer``) because opening a log and re-reading
it after a failed write (``core.book.write_recovery``) build them the same way, and
neither is a write.
"""

from __future__ import annotations

from pathlib import Path

from stockade.core.book.projection import Projection, gc_paused
from stockade.core.log import snap_sizes
from stockade.core.log.effective_records import EffectiveRecords
from stockade.core.log.game_timeline import Timeline, build_timeline
from stockade.core.log.records import LogRecords
from stockade.core.log.store import GameRecords, LogStore
from stockade.core.model import events as ev

TYPE_CHECKING = False  # typing costs ~2 ms to import; mypy reads this the same way

if TYPE_CHECKING:
    from stockade.core.log import snap_write

Parts = tuple[LogStore, Timeline, Projection]


def parts_from_store(store: LogStore, undo: bool = True) -> Parts:
    """The parts of the game ``store`` holds: folded from the snapshot cache when
    the bytes it read (``store.log_data``) match one, else whole. ``undo`` False: a
    fold keeps no undo entry (for a read that takes none back; one that does is made
    then, as for the entries a snapshot covered)."""
    records = store.records
    timeline = store.take_timeline()
    if timeline is None:
        # the groups and the effective places hold seqs, the records their lines: a
        # record is held once, by the store, however many entries the game writes
        timeline = build_timeline(records, records)
    fold = Projection(_effective(timeline, records), fold=False)
    fold.snapshots = not timeline.amends
    wanted = fold.snapshots and len(fold.effective) >= snap_sizes.MIN_EVENTS
    path, snapshot = store.path, store.take_snapshot()
    found = None
    if snapshot is not None and wanted:
        from stockade.core.log import snapcache  # a long game's

        found = snapcache.restore(snapshot, fold.seqs)
    if found is not None or path is None:
        store.take_log_data(wanted=False)  # not kept: nothing is read from the cache
    try:
        # the bytes are passed on, never held here: the fold lets them go before it
        # folds (a long log's bytes are as large as its records)
        if found is not None:
            fold.restore(found)  # the log was read past its prefix: nothing to verify twice
        elif path is None or not fold.from_snapshot(
            path,
            store.take_log_data(wanted),
            store.content,
            lambda: lines_of(store, timeline),
        ):
            fold.fold_all(tail=undo)
    finally:
        if store.content is not None:
            store.content.settle()  # hashed now: the bytes read are not kept
    return store, timeline, fold


def _effective(timeline: Timeline, records: GameRecords) -> EffectiveRecords[ev.Record]:
    """The effective history of ``timeline``: a long log's places hold the seqs of
    their lines (each read when asked for), an amended entry's the event standing in
    its place; a log held whole, its records."""
    lines = timeline.lines
    if lines is None:
        return EffectiveRecords(timeline.effective_of(records))
    if not timeline.amends:
        return EffectiveRecords(timeline.effective_seq_array(), lines)
    items: list[ev.Record | int] = list(timeline.effective_seqs())
    if timeline.amends:
        for n, seq in enumerate(items):
            amendment = timeline.amendment_of(seq) if seq in timeline.amends else 0
            if amendment:
                items[n] = timeline.replacements[amendment]
    return EffectiveRecords(items, lines)


def lines_of(store: LogStore, timeline: Timeline) -> snap_write.Lines | None:
    """How many lines the log holds as ``store`` read and wrote it, and their timeline
    (a snapshot keeps them, to read past those lines); None when not known."""
    from stockade.core.log import snap_write

    rows = snap_write.timeline_columns(timeline)
    if rows is None or store.holding:
        return None
    records = store.records
    index = records.line_index() if isinstance(records, LogRecords) else None
    return len(records), rows, index


def open_parts(path: Path, read_only: bool = False, undo: bool = True) -> Parts:
    """The parts of the game in the log at ``path`` (``undo``: see
    ``parts_from_store``). Raises JournalError if it cannot be read or is not a game."""
    with gc_paused():
        return parts_from_store(LogStore.open(Path(path), read_only), undo)
