"""The write protocol: every change to an open game, in one place.

A ``Writer`` owns the three parts of an open game: the log store (``core.log.store``:
the file and its journal), the timeline (``core.log.game_timeline``: which records count) and
the projection (``core.book.projection``: the fold). Every write goes the same way: the
rules are checked (``check``), the records stamped and written durably
(``store.write``), only then the timeline and the fold move, and an ``Observer``
(``core.book.consequences``) watching the fold says what it did as a ``Change``. The
previews fold the same way and put everything back, writing nothing. A failed write
re-reads the file (``recover``) before anything else is written; a record another
process appended is taken in with ``absorb``. Each role has its module, whose
methods ``Writer`` takes: undo and redo (``core.book.undoing``), strike and unstrike
(``core.book.striking``), amendments (``core.book.amending``), following another
writer (``core.book.absorbing``), re-reading the log after a failed write
(``core.book.write_recovery``); building the parts from a log is
``core.book.game_parts``. ``core.book.game.Game`` is the front door that serves this to
the CLI and the TUI.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Self

from stockade.core.book.absorbing import Absorbing
from stockade.core.book.amending import Amending
from stockade.core.book.change import Change
from stockade.core.book.game_parts import open_parts, parts_from_store
from stockade.core.book.game_view import Replayed
from stockade.core.book.projection import Projection, gc_paused
from stockade.core.book.stamping import (
    encoded_within_bounds,
    now,
    reason_fits,
    stamp,
    within_bounds,
)
from stockade.core.book.striking import Striking
from stockade.core.book.undoing import Undoing
from stockade.core.book.write_recovery import WriteRecovery
from stockade.core.log.game_log import LogProblem
from stockade.core.log.game_timeline import Timeline
from stockade.core.log.journal import Journal
from stockade.core.log.records import LogRecords
from stockade.core.log.store import LogStore
from stockade.core.model import events as ev
from stockade.core.model.errors import LogRefusal, Refusal
from stockade.core.model.names import NameBook
from stockade.core.model.seq_tables import SeqTable
from stockade.core.model.state import GameState

if TYPE_CHECKING:  # the replay is built on first use (``names_then``): a read may never ask
    from stockade.core.book import names_replay

# ``now`` is read through this module (``sample_games.regenerate`` pins ``writer.now``)
__all__ = ["Writer", "now", "within_bounds"]


class Writer(WriteRecovery, Amending, Undoing, Striking, Absorbing):
    def __init__(self, store: LogStore, timeline: Timeline, projection: Projection):
        self.store = store
        self.timeline = timeline
        self.projection = projection
        # Groups this writer undid since the last strike or unstrike: redone, they fold
        # on the very records they were folded on before (undo and redo go last in,
        # first out, and a new entry abandons every undone group), so the names their
        # entries were given then (``core.model.names``) still hold and are not made again.
        self.named: set[int] = set()
        # What the records said of entries never folded in this process, replayed on
        # first use (``names_then``); made from the records, so dropped with them (a
        # re-read log is a new replay). The TUI builds it in a worker thread while the
        # event loop may ask too: the lock makes the second caller wait for the first's.
        self.replayed: names_replay.NamesThen | None = None
        self.replay_lock = threading.Lock()

    @classmethod
    def load(
        cls,
        records: Sequence[ev.Record],
        journal: Journal | None = None,
        path: Path | None = None,
        warnings: list[str] | None = None,
        problem: LogProblem | None = None,
        log_data: bytes | None = None,
    ) -> Self:
        """The parts of a game holding ``records`` (in memory when ``path`` is None)."""
        path = Path(path) if path else None
        # a long log's records stay as they are (read again from the file when asked)
        held = records.copy() if isinstance(records, LogRecords) else list(records)
        store = LogStore(held, journal, path, list(warnings or []), problem)
        store.log_data = log_data
        return cls.from_store(store)

    @classmethod
    def from_store(cls, store: LogStore) -> Self:
        """The parts of the game ``store`` holds: folded from the snapshot cache when
        the bytes it read (``store.log_data``) match one, else whole."""
        return cls(*parts_from_store(store))

    @classmethod
    def open(cls, path: Path, read_only: bool = False) -> Self:
        """Open a log. Raises JournalError if it cannot be read or is not a game.

        The write lock is taken BEFORE the file is read, so no other writer can append
        between reading and writing. ``read_only=True`` never modifies the file."""
        return cls(*open_parts(path, read_only))

    # what the change of a write and ``describe.sentence_for`` read: the game as it is now
    @property
    def records(self) -> Sequence[ev.Record]:
        return self.store.records

    @property
    def state(self) -> GameState:
        return self.projection.state

    @property
    def conflicts(self) -> dict[int, Refusal]:
        return self.projection.conflicts

    @property
    def when(self) -> SeqTable[tuple[int, str, str]]:
        return self.projection.when

    @property
    def names(self) -> NameBook:
        return self.projection.names

    def names_then(self) -> Replayed:
        """The replay (``core.book.names_replay``), built once: a second caller, from another
        thread, waits for the first's. It replays a copy of the records, because the
        event loop may append meanwhile (and folds what it adds itself)."""
        built = self.replayed
        if built is None:
            with self.replay_lock:
                built = self.replayed
                if built is None:
                    from stockade.core.book import names_replay

                    held = self.records  # a long log's: its slots, not its records
                    records = held.copy() if isinstance(held, LogRecords) else list(held)
                    with gc_paused():
                        built = names_replay.NamesThen(records)
                    self.replayed = built
        return built

    # ------------------------------------------------------------------- writing
    @contextlib.contextmanager
    def one_write(self) -> Iterator[None]:
        """Every change made inside the block reaches the file at its end as one group
        (staged beside the log meanwhile, ``core.log.staging``), or none does
        (``stockade run``: a script is one group). The
        changes are checked and folded as they are made; a refusal or error inside the
        block, or a failed write at its end, puts the game back to what it held before
        (nothing written) and is raised."""
        store = self.store
        if store.holding:
            raise RuntimeError("one_write blocks do not nest")
        keep, records = len(store.records), store.records
        store.hold()
        if store.records is not records:  # read back from the file now: the lines move
            if self.timeline.lines is records:
                self.timeline.lines = store.records
            self.projection.effective.read_from(records, store.records)
        try:
            yield
        except BaseException:
            store.drop_held()
            self._forget_after(keep)
            raise
        try:
            store.write_held(self._after_write_error)  # a failed write re-reads the file
        except BaseException:
            if self.store is store:  # refused before the file was touched: not re-read
                self._forget_after(keep)
            raise

    def check(self, events: list[ev.Record]) -> None:
        """Raise the Refusal the rules give for ``events``, without writing anything."""
        if self.store.problem:
            raise LogRefusal(f"this log is read-only: {self.store.problem}")
        within_bounds(events)
        self.projection.check(events)

    def _append_records(self, stamped: list[ev.Record]) -> None:
        self.store.write(stamped, self._after_write_error)
        for record in stamped:
            self.store.records.append(record)
            self.timeline.add(record)

    def _control(
        self, kind: type[ev.Undo | ev.Redo | ev.Strike | ev.Unstrike], target: int, reason: str = ""
    ) -> int:
        """Write one undo / redo / strike / unstrike record of ``target`` durably and
        keep it; returns its seq. The caller moves the timeline (it knows which way)."""
        store = self.store
        records = store.records
        n = len(records) + 1
        if reason:  # a strike's reason, typed by the player: held to its bound
            stamped: ev.Record = ev.Strike(seq=n, grp=n, at=now(), target=target, reason=reason)
            if not reason_fits(n, reason):
                within_bounds([stamped])
        else:
            stamped = kind(seq=n, grp=n, at=now(), target=target)
        if store.journal is not None or store.problem is not None:  # else: in memory
            store.write([stamped], self._after_write_error)
        records.append(stamped)
        return n

    def _stamp_controls(self, controls: list[ev.Record]) -> list[ev.Record]:
        """Control records (undo, strike...) stamped to follow the log, each its own
        group, at one instant."""
        first, at = len(self.records) + 1, now()
        return [stamp(c, seq, seq, at) for seq, c in enumerate(controls, first)]

    def submit(self, events: list[ev.Record]) -> Change:
        """Check, write durably, then apply one player action."""
        from stockade.core.book.consequences import Observer, finish  # a change's: not a read's

        if not events:
            return Change(action="submit", conflicts=len(self.conflicts))
        if self.store.problem:
            raise LogRefusal(f"this log is read-only: {self.store.problem}")
        first, at = len(self.records) + 1, now()
        # the first record's seq is its group's id: one int, not two equal ones
        stamped = [stamp(e, first + i if i else first, first, at) for i, e in enumerate(events)]
        lines = encoded_within_bounds(stamped)  # the bytes checked are the bytes written
        self.projection.check(stamped)
        tl = self.timeline
        left = [seq for g in tl.redo_stack for seq in tl.group_seqs(g)]
        if left:
            self.named.clear()  # abandoned: never redone
        self.store.write(stamped, self._after_write_error, lines)
        fold = self.projection
        records = self.store.records
        with fold.lock:
            obs = Observer(fold.state, stamped)
            for record in stamped:
                records.append(record)
                tl.add(record)
                fold.append(record, obs)
            seqs = [r.seq for r in stamped]
            change = Change(
                action="submit",
                target=first,
                appended=seqs,
                added=seqs,
                abandoned=left,
                conflicts=len(fold.conflicts),
            )
            return finish(obs, self, change)
