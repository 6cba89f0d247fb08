"""The names and time of entries that never folded in this process, from the log itself.

An entry's sentence names its units as the fold had them when the entry was recorded
(``core.model.names``; ``core.book.describe`` words it). The fold keeps those names for every
entry it folds, so an entry folded in this process (or held in the snapshot cache,
which keeps them for the effective entries it covers) has them. One that never folded
here (undone or struck, in this session or an earlier one, abandoned by a new entry)
has none, and the state as it is now cannot say them: its handles may name other units
since (a handle freed by an undo is given again), and its branch may have deployed,
split, captured or reduced units that today's state never saw.

Every record in a log was written in order by one writer, each domain record folded
onto the effective history as it stood then and each undo, redo, strike and unstrike
applied as it was. So taking the log's records in again, in order, each as the write it
was (``Writer.absorb``: what a window following another writer does), folds every entry
as its writer folded it, and the names and time kept for an entry are those it had
when it last folded. Entries folded in this process already have exactly these (a
session only continues the writes before it), so only the others are read from here.

The replay is made on first use (describing such an entry) and kept by ``Game`` for
its log store; it costs nothing on open, per write or per fold. It stops at the log's
last undo, redo, strike or unstrike: an entry leaves the effective history only by one
of those, so every entry that never folded here last folded before it.
"""

from __future__ import annotations

import threading

from stockade.core.book.projection import gc_paused
from stockade.core.book.writer import Writer
from stockade.core.log.store import LogStore
from stockade.core.model import events as ev
from stockade.core.model.names import Name, NameBook

When = tuple[int, str, str]  # turn, phase, attacker


class NamesThen:
    """Per entry, the names and time it had when it last folded, replayed from a log."""

    __slots__ = ("names", "when")

    def __init__(self, records: list[ev.Record]):
        self.names = NameBook()
        self.when: dict[int, When] = {}
        last = max((r.seq for r in records if ev.is_control(r)), default=0)
        if not records or last == 0:
            return  # no undo, redo or strike: every entry is in effect, and folded
        replay = Writer.load(records[:1])  # the header, folded on its own
        with gc_paused():
            for record in records[1:last]:
                try:
                    replay.absorb(record)
                except ValueError:
                    # A control record the timeline refuses (only a hand-edited or buggy
                    # log has one: a writer checks it first). Opening ignores it
                    # (``history.build_timeline``); so does the replay.
                    if not ev.is_control(record):
                        break  # records out of order: the entries after it keep no names
                    replay.records.append(record)
        self.names, self.when = replay.names, replay.when

    def of(self, seq: int) -> dict[str, Name]:
        return self.names.of(seq)


class ReplayMemo:
    """The replay of one log store's records, built once per store: a re-read log is a
    new store (``Writer.recover``), so a new replay. The TUI builds it in a worker thread
    while the event loop may ask too: the lock makes the second caller wait for the
    first's. It replays a copy of the records, because the event loop may append
    meanwhile (and folds what it adds itself)."""

    __slots__ = ("_built", "_lock")

    def __init__(self) -> None:
        self._built: tuple[LogStore, NamesThen] | None = None
        self._lock = threading.Lock()

    def get(self, store: LogStore) -> NamesThen:
        built = self._built
        if built is not None and built[0] is store:
            return built[1]
        with self._lock:
            built = self._built
            if built is None or built[0] is not store:
                built = self._built = (store, NamesThen(list(store.records)))
            return built[1]

    def ready(self, store: LogStore) -> bool:
        built = self._built
        return built is not None and built[0] is store
