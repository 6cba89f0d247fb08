"""The write protocol: every change to an open game, in one place.

A ``Writer`` owns the three parts of an open game: the log store (``core.log.store``:
the file and its journal), the timeline (``core.log.game_timeline``: which records count) and
the projection (``core.book.projection``: the fold). Every write goes the same way: the
rules are checked (``check``), the records stamped and written durably
(``store.write``), only then the timeline and the fold move, and an ``Observer``
(``core.book.consequences``) watching the fold says what it did as a ``Change``. The
previews fold the same way and put everything back, writing nothing. A failed write
re-reads the file (``recover``) before anything else is written; a record another
process appended is taken in with ``absorb``. Building the parts from a log is
``core.book.game_parts``; re-reading the log after a failed write is
``core.book.write_recovery``. ``core.book.game.Game`` is the front door
that serves this to the CLI and the TUI.
"""

from __future__ import annotations

import contextlib
import operator
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Self

from stockade.core.book import names_replay
from stockade.core.book.amending import Amending
from stockade.core.book.change import Change
from stockade.core.book.changed_log import stops_on_a_changed_log
from stockade.core.book.consequences import Observer, finish
from stockade.core.book.game_parts import open_parts, parts_from_store
from stockade.core.book.projection import Projection, gc_paused
from stockade.core.book.stamping import (
    encoded_within_bounds,
    now,
    reason_fits,
    stamp,
    within_bounds,
)
from stockade.core.book.write_recovery import WriteRecovery
from stockade.core.log import game_timeline as _history
from stockade.core.log.game_log import LogProblem
from stockade.core.log.game_timeline import Timeline
from stockade.core.log.journal import Journal
from stockade.core.log.records import LogRecords
from stockade.core.log.store import LogStore
from stockade.core.model import events as ev
from stockade.core.model.errors import HistoryRefusal, LogRefusal, Refusal
from stockade.core.model.names import NameBook
from stockade.core.model.state import GameState

# ``now`` is read through this module (``sample_games.regenerate`` pins ``writer.now``)
__all__ = ["Writer", "now", "within_bounds"]

_SEQ_OF = operator.attrgetter("seq")


class Writer(WriteRecovery, Amending):
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
    def when(self) -> dict[int, tuple[int, str, str]]:
        return self.projection.when

    @property
    def names(self) -> NameBook:
        return self.projection.names

    def names_then(self) -> names_replay.NamesThen:
        """The replay (``core.book.names_replay``), built once: a second caller, from another
        thread, waits for the first's. It replays a copy of the records, because the
        event loop may append meanwhile (and folds what it adds itself)."""
        built = self.replayed
        if built is None:
            with self.replay_lock:
                built = self.replayed
                if built is None:
                    held = self.records  # a long log's: its slots, not its records
                    records = held.copy() if isinstance(held, LogRecords) else list(held)
                    with gc_paused():
                        built = names_replay.NamesThen(records)
                    self.replayed = built
        return built

    # ------------------------------------------- following another writer (follow.py)
    def absorb(self, record: ev.Record) -> None:
        """Take in a record another process appended to the log: the same effect on
        this game as the call that wrote it there had on the writer's, nothing written
        (``core.book.follow``: a read-only window following the one that writes). Raises
        ValueError for a record that does not come next (the caller re-reads)."""
        if record.seq != len(self.records) + 1 or isinstance(record, ev.GameCreated):
            raise ValueError(f"entry {record.seq} does not follow entry {len(self.records)}")
        fold = self.projection
        with fold.lock:
            try:
                self.timeline.add(record)
            except Refusal as refusal:
                raise ValueError(f"entry {record.seq}: {refusal}") from None
            # records taken in from bytes this store did not read through its own
            # open or write: what is derived from it is no longer keyed by them
            self.store.content = None
            self.store.records.append(record)
            if isinstance(record, ev.Amend):
                self.named.clear()
                self.refold_from(record.target, self.timeline, "amend", record.target, [])
            elif isinstance(record, ev.Undo | ev.Redo) and self.amended_place(record.target):
                self.named.clear()
                place = self.amended_place(record.target)
                self.refold_from(place, self.timeline, "undo", record.target, [])
            elif isinstance(record, ev.Undo):
                fold.rollback(fold.keep_upto_group(record.target - 1))
            elif isinstance(record, ev.Redo):
                for redone in self.timeline.group(record.target):
                    if redone.seq not in self.timeline.struck:
                        fold.append(redone)
            elif isinstance(record, ev.Strike | ev.Unstrike):
                self.named.clear()
                if 1 <= record.target < record.seq:
                    action = "strike" if isinstance(record, ev.Strike) else "unstrike"
                    self._refold(record.target, action, [record.seq])
            else:
                fold.append(record)

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
        keep = len(store.records)
        store.hold()
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

    def submit(self, events: list[ev.Record]) -> Change:
        """Check, write durably, then apply one player action."""
        if not events:
            return Change(action="submit", conflicts=len(self.conflicts))
        if self.store.problem:
            raise LogRefusal(f"this log is read-only: {self.store.problem}")
        first, at = len(self.records) + 1, now()
        stamped = [stamp(e, first + i, first, at) for i, e in enumerate(events)]
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

    def _roll_back_to(self, keep: int, action: str, target: int, written: list[int]) -> Change:
        fold = self.projection
        with fold.lock:
            tail = fold.effective[keep:]
            obs = Observer(fold.state, tail)
            fold.rollback(keep, obs)
            change = Change(
                action=action,
                target=target,
                appended=written,
                undone=list(map(_SEQ_OF, tail)),
                conflicts=len(fold.conflicts),
            )
            return finish(obs, self, change) if obs.saw else change

    # -------------------------------------------------------------- undo / redo
    @stops_on_a_changed_log
    def undo(self) -> Change:
        tl = self.timeline
        target = tl.undoable()
        if target is None:
            raise HistoryRefusal("undo", "nothing to undo")
        written = self._control(ev.Undo, target)
        tl.undo(target)
        place = self.amended_place(target)
        if place:  # an amendment: the entry reads as it was, the tail folds again
            self.named.clear()
            return self.refold_from(place, tl, "undo", target, [written], amended=[place])
        self.named.add(target)
        effective = self.projection.effective
        keep = len(effective)  # keep_upto_group(target - 1), inline: most often one step
        while keep and effective[keep - 1].grp >= target:
            keep -= 1
        return self._roll_back_to(keep, "undo", target, [written])

    @stops_on_a_changed_log
    def undo_to(self, seq: int) -> Change:
        targets = _history.undo_to_plan(self.timeline, self.records, seq)
        first, at = len(self.records) + 1, now()
        stamped = [
            stamp(ev.Undo(target=g), first + i, first + i, at) for i, g in enumerate(targets)
        ]
        self._append_records(stamped)
        self.named.update(targets)
        keep = self.projection.keep_upto_group(self.records[seq - 1].grp)
        places = [p for p in map(self.amended_place, targets) if p]
        if places:  # amendments taken back: fold again from the first place they mended
            self.named.clear()
            start = min(keep, *(self.projection.position_of(p)[0] for p in places))
            written = [r.seq for r in stamped]
            return self.refold_from(
                seq, self.timeline, "undo_to", seq, written, at=start, amended=places
            )
        return self._roll_back_to(keep, "undo_to", seq, [r.seq for r in stamped])

    def preview_undo_to(self, seq: int) -> Change:
        targets = _history.undo_to_plan(self.timeline, self.records, seq)
        places = [p for p in map(self.amended_place, targets) if p]
        if places:
            trial = self.timeline.copy()
            for grp in targets:
                trial.undo(grp)
            keep = self.projection.keep_upto_group(self.records[seq - 1].grp)
            at = min(keep, *(self.projection.position_of(p)[0] for p in places))
            return self.refold_from(seq, trial, "undo_to", seq, [], True, at, amended=places)
        fold = self.projection
        with fold.lock:
            keep = fold.keep_upto_group(self.records[seq - 1].grp)
            tail = fold.effective[keep:]
            return self._preview(keep, tail, [], "undo_to", seq, undone=[r.seq for r in tail])

    @stops_on_a_changed_log
    def redo(self) -> Change:
        tl = self.timeline
        target = tl.redoable()
        if target is None:
            raise HistoryRefusal("redo", "nothing to redo")
        written = self._control(ev.Redo, target)
        tl.redo(target)
        place = self.amended_place(target)
        if place:
            self.named.clear()
            return self.refold_from(place, tl, "redo", target, [written], amended=[place])
        named = target in self.named
        self.named.discard(target)
        fold = self.projection
        with fold.lock:
            struck = tl.struck
            back = []  # (a loop: a comprehension's frame cost more than one entry's test)
            for r in tl.group(target):
                if r.seq not in struck:
                    back.append(r)
            obs = Observer(fold.state, back)
            for record in back:
                fold.append(record, obs, named)
            change = Change(
                action="redo",
                target=target,
                appended=[written],
                restored=list(map(_SEQ_OF, back)),
                conflicts=len(fold.conflicts),
            )
            return finish(obs, self, change) if obs.saw else change

    # ------------------------------------------------------------ strike / unstrike
    def _strikable(self, seq: int, verb: str = "strike") -> ev.Record:
        return _history.strikable(self.timeline, self.records, seq, verb)

    def struck_together(self, seq: int, verb: str = "strike") -> list[int]:
        """The entries ``strike(seq)`` (``verb`` "unstrike": ``unstrike(seq)``) acts on:
        the player's entry with the board facts it implied, as one undo takes them."""
        return _history.struck_together(self.timeline, self.records, seq, verb)

    @stops_on_a_changed_log
    def strike(self, seq: int, reason: str = "") -> Change:
        self._strikable(seq)
        together = self.struck_together(seq)
        if len(together) > 1:
            return self._together(seq, together, "strike", reason)
        written = self._control(ev.Strike, seq, reason)
        self.timeline.strike(seq, written)
        self.named.clear()  # what an undone group folds on may differ now
        return self._refold(seq, "strike", [written])

    @stops_on_a_changed_log
    def unstrike(self, seq: int) -> Change:
        self._strikable(seq, "unstrike")
        together = self.struck_together(seq, "unstrike")
        if len(together) > 1:
            return self._together(seq, together, "unstrike")
        written = self._control(ev.Unstrike, seq)
        self.timeline.unstrike(seq)
        self.named.clear()
        return self._refold(seq, "unstrike", [written])

    def preview_strike(self, seq: int) -> Change:
        self._strikable(seq)
        together = self.struck_together(seq)
        if len(together) > 1:
            return self._together(seq, together, "strike", preview=True)
        return self._refold(seq, "strike", [], preview=True)

    def preview_unstrike(self, seq: int) -> Change:
        self._strikable(seq, "unstrike")
        together = self.struck_together(seq, "unstrike")
        if len(together) > 1:
            return self._together(seq, together, "unstrike", preview=True)
        return self._refold(seq, "unstrike", [], preview=True)

    def _together(
        self, seq: int, together: list[int], action: str, reason: str = "", preview: bool = False
    ) -> Change:
        """Strike (or unstrike) an entry with the board facts it implied: one record
        each, written in one write (a crash leaves all of them or none), then the tail
        folded again once from the first of them."""
        fold = self.projection
        with fold.lock:
            position = fold.position_of(together[0])[0]
            tail = fold.effective[position:]
            if action == "strike":
                gone = set(together)
                new_tail = [r for r in tail if r.seq not in gone]
                lists = {"struck": together}
            else:
                undone = self.timeline.undone
                back = [self.timeline.standing(self.records[s - 1]) for s in together]
                back = [r for r in back if r.grp not in undone]
                new_tail = sorted([*tail, *back], key=lambda r: (r.grp, r.seq))
                lists = {"restored": [r.seq for r in back]}
            if preview:
                return self._preview(position, tail, new_tail, action, seq, **lists)
            return self._write_together(
                seq, together, action, reason, position, tail, new_tail, lists
            )

    def _write_together(
        self,
        seq: int,
        together: list[int],
        action: str,
        reason: str,
        position: int,
        tail: list[ev.Record],
        new_tail: list[ev.Record],
        lists: dict[str, list[int]],
    ) -> Change:
        fold = self.projection
        first, at = len(self.records) + 1, now()
        controls: list[ev.Record] = [
            ev.Strike(target=s, reason=reason) if action == "strike" else ev.Unstrike(target=s)
            for s in together
        ]
        stamped = [stamp(c, first + i, first + i, at) for i, c in enumerate(controls)]
        if reason:
            within_bounds(stamped)
        self._append_records(stamped)  # the timeline takes each strike as it is added
        self.named.clear()
        obs = Observer(fold.state, tail + new_tail, True)
        fold.replace_tail(position, new_tail, obs)
        change = Change(
            action=action,
            target=seq,
            appended=[r.seq for r in stamped],
            conflicts=len(fold.conflicts),
            **lists,  # type: ignore[arg-type]
        )
        return finish(obs, self, change) if obs.saw else change

    def _refold(self, seq: int, action: str, written: list[int], preview: bool = False) -> Change:
        """Entry ``seq`` leaves (strike) or rejoins (unstrike) the effective history:
        fold the tail from its place again, watching what each later entry does."""
        fold = self.projection
        with fold.lock:
            position, present = fold.position_of(seq)
            tail = fold.effective[position:]
            record = self.timeline.standing(self.records[seq - 1])  # as amended
            if action == "strike" and present:
                how, new_tail = "struck", tail[1:]
            elif action == "unstrike" and not present and record.grp not in self.timeline.undone:
                how, new_tail = "restored", [record, *tail]
            else:  # undone: nothing in the effective history moves
                return Change(
                    action=action,
                    preview=preview,
                    target=seq,
                    appended=written,
                    conflicts=len(self.conflicts),
                )
            if preview:
                return self._preview(position, tail, new_tail, action, seq, **{how: [seq]})
            obs = Observer(fold.state, tail + new_tail, True)
            fold.replace_tail(position, new_tail, obs)
            change = Change(
                action=action,
                target=seq,
                appended=written,
                struck=[seq] if how == "struck" else [],
                restored=[seq] if how == "restored" else [],
                conflicts=len(fold.conflicts),
            )
            return finish(obs, self, change) if obs.saw else change

    def _preview(
        self,
        position: int,
        tail: list[ev.Record],
        new_tail: list[ev.Record],
        action: str,
        seq: int,
        **lists: Any,
    ) -> Change:
        fold = self.projection
        obs = Observer(fold.state, tail + new_tail, True)
        with fold.trial(position, tail, new_tail, obs):
            change = Change(
                action=action, preview=True, target=seq, conflicts=len(fold.conflicts), **lists
            )
            return finish(obs, self, change)
