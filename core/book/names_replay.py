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
its writer; it costs nothing on open, per write or per fold. It stops at the log's
last undo, redo, strike or unstrike: an entry leaves the effective history only by one
of those, so every entry that never folded here last folded before it.
"""

from __future__ import annotations

from typing import Protocol

from stockade.core.model import events as ev
from stockade.core.model.names import Name, NameBook

When = tuple[int, str, str]  # turn, phase, attacker


class Follower(Protocol):
    """A game holding only the header, that takes records in as their writes
    (``core.book.writer.Writer``: passed in, so this module imports no writer)."""

    @property
    def records(self) -> list[ev.Record]: ...

    @property
    def names(self) -> NameBook: ...

    @property
    def when(self) -> dict[int, When]: ...

    def absorb(self, record: ev.Record) -> None: ...


class NamesThen:
    """Per entry, the names and time it had when it last folded, replayed from a log."""

    __slots__ = ("names", "when")

    def __init__(self, records: list[ev.Record], replay: Follower):
        """Replay ``records`` into ``replay`` (a game holding ``records[0]`` only; the
        caller pauses the cyclic GC around it: ``core.book.projection.gc_paused``)."""
        self.names = NameBook()
        self.when: dict[int, When] = {}
        last = max((r.seq for r in records if ev.is_control(r)), default=0)
        if not records or last == 0:
            return  # no undo, redo or strike: every entry is in effect, and folded
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
