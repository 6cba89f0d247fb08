"""The projection: the effective history folded into a state, and back.

It owns the effective list, the state, the conflicts, each entry's time (``when``) and
names (``core.model.names``), and the undo journal: while an event folds, the setattr hooks
of ``core.model.tracked_unit`` record (into the state's ``ChangeTracker``, passed the event's
entry explicitly) the pre-image of every attribute its rules set; taking the
event back restores them (O(what it changed)). ``rollback`` / ``append`` /
``replace_tail`` move the history; ``state_at`` builds a read-only view at an entry;
``check`` tries events without keeping them. An ``Observer`` (``core.book.consequences``)
passed to rollback / append sees what a change does. No file, no timeline: the writer
(``core.book.writer``) says which events are effective; the log store (``core.log.store``) reads
and writes the file and passes the snapshot cache's bytes in.
"""

from __future__ import annotations

import _thread  # threading's RLock itself, without importing threading (~2 M instructions)
import contextlib
import gc
import itertools
import operator
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from stockade.core import rules
from stockade.core.log import derived, snap_sizes
from stockade.core.log.effective_records import EffectiveRecords
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal
from stockade.core.model.names import MENTIONS, NameBook
from stockade.core.model.seq_tables import SeqTable
from stockade.core.model.shared_table import LinesAt, SharedTable, UnitsAt
from stockade.core.model.state import GameState, Side
from stockade.core.model.tracked_unit import (
    DIRTY_LIMIT,
    UNIT_FIELDS,
    Unit,
    clone_unit,
    copy_obj,
)
from stockade.core.rules.partial import part_that_holds

if TYPE_CHECKING:  # a write's observer; a fold for a read has none
    from stockade.core.book.consequences import Observer
    from stockade.core.log import snap_write, snapcache

# An undo entry, one per effective event (``undo`` runs parallel to ``effective``), a
# tuple: how many units, casualty lines and sides the event added; the Scroungings it
# added (a tuple of keys, the last of ``GameState.scrounged``; else None); then flat
# (object, attribute, old value) triples: the pre-images of every attribute the event's
# rules set on a Unit, Side or GameState. Taking the event back restores them newest
# first and trims what was added: O(what the event changed), not O(game).
_ADDED_UNITS, _ADDED_CAS, _SCR_ADDED, _ADDED_SIDES, _OPS = range(5)
_OPAQUE = -1  # in _ADDED_UNITS: the event changed something its entry cannot take back
_ADDED_UNITS_OF = operator.itemgetter(_ADDED_UNITS)


class Projection:
    def __init__(self, effective: Sequence[ev.Record], fold: bool = True):
        # a long log's places hold the seq of their line, read when asked for
        self.effective: EffectiveRecords[ev.Record] = (
            effective if isinstance(effective, EffectiveRecords) else EffectiveRecords(effective)
        )
        self.seqs = self.effective.seqs()  # each place's seq: moves with ``effective``
        self.state = GameState()
        # what the replay views share while the live state stands still (state_at)
        self._table: SharedTable | None = None
        self.conflicts: dict[int, Refusal] = {}
        # entries that hold in part (``core.rules.partial``): seq -> what was dropped, why
        self.partial: dict[int, str] = {}
        # seq -> (turn, phase, attacker)
        self.when: SeqTable[tuple[int, str, str]] = SeqTable()
        self._when: tuple[int, str, str] = (0, "", "")  # the last one made (shared)
        self.names = NameBook()  # seq -> the names its units had then (core.model.names)
        self.undo: list[Any] = []
        self.lock = _thread.RLock()  # state_at runs in a worker thread (TUI replay)
        self.snap_position = 0  # effective events covered by the snapshot on disk
        # the state ``snap_sizes.TAIL`` events before ``snap_position``, as the snapshot
        # keeps it (``snapcache.BackRows``): where a journal reaching there starts
        self._back: msgspec.Raw | None = None
        self.restored = False  # this state was read from a verified snapshot
        # False once an entry is amended: a snapshot is keyed by the seqs of the prefix
        # it covers, which an amendment (its event takes the entry's seq) leaves alike
        self.snapshots = True
        if fold:
            self.fold_all()

    # ------------------------------------------- snapshot cache (core/log/snapcache.py)
    def from_snapshot(
        self,
        path: Path,
        log_data: bytes | snapcache.ReadAgain | None,
        content: derived.Content | None = None,
        lines: Callable[[], snap_write.Lines | None] | None = None,
    ) -> bool:
        """Start from the verified snapshot of this log, folding only the events after
        it; False (nothing changed) when there is none. The events it covers have no
        undo journal: reaching into them first completes it (``complete_journal``).
        ``content``: the digest the log store is making of the very bytes ``log_data``
        begins with (``derived.Content``), which checks the snapshot's prefix in the
        same pass. ``lines``: how many lines the log holds and their timeline (kept in
        a snapshot written here). The caller passes ``log_data`` without keeping it: a
        fold without a snapshot lets the bytes go once they are hashed, before it folds."""
        if log_data is None or len(self.effective) < snap_sizes.MIN_EVENTS or not self.snapshots:
            return False
        from stockade.core.log import snapcache  # a long game's only

        found = snapcache.read(path, log_data, self.seqs, content)
        if found is None:
            if content is not None and content.size == len(log_data):
                key: tuple[int, str] | None = content.key()  # hashed to the end
            elif isinstance(log_data, bytes):
                key = derived.Content(log_data).key()
            else:  # read again a block at a time: None when no longer what was read
                key = log_data.key()
            del log_data
            if key is None:
                return False
            self.fold_all()
            self.save_snapshot(path, key, lines)
            return True
        self.restore(found)
        return True

    def restore(self, found: snapcache.Restored) -> None:
        """Start from a verified snapshot, folding only the events after it."""
        position, state, conflicts, when, names, partial, back = found
        self.state, self.conflicts, self.partial = state, conflicts, partial
        self._table = None
        # the tables the snapshot's columns were loaded into, taken as they are
        if self.when:
            self.when.update(when)
        else:
            self.when = when
        book = self.names
        if book.by_seq:
            book.by_seq.update(names)
        else:
            book.by_seq = names
        self.undo = [None] * position
        self.snap_position = position
        self._back = back
        self.restored = True
        for event in self.effective.records(position):
            self.fold_one(event)

    def save_snapshot(
        self,
        path: Path,
        content: tuple[int, str] | None,
        lines: Callable[[], snap_write.Lines | None] | None = None,
    ) -> None:
        """Write the snapshot if the game is long and has outgrown its snapshot.
        ``content``: the length and digest of the log's bytes as this process read or
        wrote them (``LogStore.content_key``), never read again for it: another program
        may have changed the file since (None: not known, nothing is written)."""
        position = len(self.effective)
        if (
            not self.snapshots
            or content is None
            or position < snap_sizes.MIN_EVENTS
            or position - self.snap_position < snap_sizes.REFRESH
            and self.snap_position > 0
        ):
            return
        from stockade.core.log import snapcache  # a long game's only

        if not snapcache.enabled():
            return
        from stockade.core.log import snap_write  # a snapshot written: its encoding

        with self.lock:
            if snap_write.write(
                path,
                content,
                self.seqs,
                position,
                self.state,
                self.conflicts,
                self.when,
                self.names.by_seq,
                lines() if lines is not None else None,
                self.partial,
                self._back_rows(position - snap_sizes.TAIL),
            ):
                self.snap_position = position
                self._back = None  # the journal still starts where it did

    def _back_rows(self, position: int) -> msgspec.Raw | None:
        """The state ``position`` effective events in, as ``snapcache.BackRows``: what
        differs from the live state, read from the undo journal of the events after
        it (None when they have none, or one that changed what the journal cannot take
        back: a journal reaching there then folds the game whole)."""
        tail = self.undo[position:]
        if position <= 0 or self.journal_gap(position) or _OPAQUE in map(_ADDED_UNITS_OF, tail):
            return None
        view = self.state_at(self.seqs[position - 1], still=True)  # (under the lock)
        units = view.units
        if not isinstance(units, UnitsAt):
            return None
        changed = units.changed()
        from stockade.core.log import snap_write

        return snap_write.back_rows(position, view, changed)

    def journal_gap(self, position: int) -> bool:
        """Do the events from ``position`` on include some a snapshot covered (the
        ones without an undo entry: always a prefix of ``_undo``)?"""
        return position < len(self.undo) and self.undo[position] is None

    def complete_journal(self, position: int = 0) -> None:
        """Make the undo journal of the events a snapshot covered from ``position``
        on (only when an undo, strike or replay reaches into them): from the state
        the snapshot keeps ``snap_sizes.TAIL`` events back when ``position`` is past
        it, else by folding from the start (once per open game)."""
        back, self._back = self._back, None
        if back is not None and self._journal_from_back(back, position):
            return
        with gc_paused():
            full = Projection(self.effective, fold=False)
            full.fold_all(journal=True)
        self.state, self.conflicts, self.undo = full.state, full.conflicts, full.undo
        self._table = None
        self.partial = full.partial
        self.when.update(full.when)
        self.names.by_seq.update(full.names.by_seq)

    def _journal_from_back(self, raw: msgspec.Raw, position: int) -> bool:
        """Take the live state back to the snapshot's (its events after it have their
        journal), then to the state the snapshot keeps ``TAIL`` events before it
        (``snapcache.BackRows``), and fold the events from there with their journal:
        the state it ends in is the live one. False (the state then to be folded
        again whole) when the rows do not fit or ``position`` is before them."""
        from stockade.core.log import snapcache

        rows = snapcache.read_back(raw)
        at, undo = self.snap_position, self.undo
        if (
            rows is None
            or not 0 < rows.position <= position
            or rows.position > at
            or at > len(undo)
            or self.journal_gap(at)
            or _OPAQUE in map(_ADDED_UNITS_OF, undo[at:])
        ):
            return False
        with self.lock:
            for entry in reversed(undo[at:]):
                self.unapply(entry)
            try:
                self._put_back(rows)
            except (KeyError, ValueError, TypeError, AttributeError):
                return False  # (the caller folds the state again whole)
            for seq in self.seqs[rows.position :]:
                self.conflicts.pop(seq, None)
                self.partial.pop(seq, None)
            del undo[rows.position :]
            self.fold_many(self.effective.records(rows.position))
        return True

    def _put_back(self, rows: snapcache.BackRows) -> None:
        """Set the live state (the snapshot's own) to the one ``rows`` keep."""
        from stockade.core.log import snap_units, snapcache

        state = self.state
        self._table = None
        units = state.units
        extra = len(units) - rows.n_units
        if extra < 0 or rows.n_casualties > len(state.casualties):
            raise ValueError("the rows do not fit the state")
        fields = UNIT_FIELDS
        for handle, row in zip(rows.handles, rows.units, strict=True):
            unit = units[handle]
            for name, value in zip(fields, snap_units.row_values(row), strict=True):
                if getattr(unit, name) != value:
                    setattr(unit, name, value)  # its hooks: indexes, views
        if extra:
            state.drop_last_units(extra)
        d = state.__dict__  # as ``unapply`` sets the state's fields: no hook records
        d.update(zip(snapcache.STATE_SCALARS, rows.scalars, strict=True))
        d["sides"] = {}
        for side in rows.sides:
            state.add_side(side)
        d["cvp_overrides"] = rows.cvp_overrides
        del state.casualties[rows.n_casualties :]
        scr = state.scrounged
        scr.take_back(scr.added_since(rows.n_scrounged))
        d["vc"] = rows.vc
        d.pop("_prisoner_index", None)  # rebuilt on their next use
        d.pop("_location_index", None)

    # --------------------------------------------------------------------- fold
    def fold_all(self, journal: bool = False, tail: bool = True) -> None:
        """Fold the whole effective history into a fresh state. A long game (one a
        snapshot would cover) keeps the undo journal of its last ``snap_sizes.TAIL``
        events only, as an open from its snapshot does: the events an undo usually
        reaches. Reaching further completes it (``complete_journal``); ``journal``:
        keep every event's; ``tail`` False: keep none (a read that takes no entry back;
        an undo or a view reaching back completes it as it would a snapshot's gap)."""
        self.state = GameState()
        self._table = None
        self.conflicts = {}
        self.partial = {}
        self.undo = []
        self._back = None  # its journal starts where this fold's does
        n = len(self.effective)
        cut = 0 if journal or n < snap_sizes.MIN_EVENTS else n - snap_sizes.TAIL
        if not (tail or journal):
            self.fold_many(self.effective.records(), journal=False)
        elif cut > 0:
            self.fold_many(self.effective.records(0, cut), journal=False)
            self.fold_many(self.effective.records(cut))
        else:
            self.fold_many(self.effective.records())

    def fold_one(self, event: ev.Record) -> None:
        """Fold one effective event (already appended to ``effective``), recording its
        undo entry."""
        self.fold_many((event,))

    def fold_many(self, events: Iterable[ev.Record], journal: bool = True) -> None:
        """Fold effective events in turn (already in ``effective``), recording each
        one's undo entry (``journal`` False: None in its place, a gap that
        ``complete_journal`` fills when an undo reaches it). One loop with what it uses
        held in locals: a call and a dozen attribute lookups an event fewer than
        ``fold_one`` per event."""
        state = self.state  # the rules change it in place: never replaced while folding
        when_of, names, undo, conflicts = self.when, self.names, self.undo, self.conflicts
        before, after = names.before, names.after
        step = self.step_recorded if journal else self.step_unjournaled
        when = self._when
        for event in events:
            # one shared tuple while the turn and phase stand (a phase is many entries:
            # a 100k-entry game's ``when`` held 100k equal tuples, ~6 MB)
            if when[0] != state.turn or when[1] != state.phase or when[2] != state.attacker:
                when = self._when = (state.turn, state.phase, state.attacker)
            when_of[event.seq] = when
            missing = before(state, event) if type(event) in MENTIONS else None
            refusal = step(event, undo)
            if refusal is not None:
                refusal = self.hold_in_part(event, undo, refusal)
            if missing:
                after(state, event, missing)
            if not journal:
                undo[-1] = None
            if refusal is not None:
                # A later event that no longer holds is kept, flagged and skipped until
                # the player resolves it (docs/history.md).
                conflicts[event.seq] = refusal

    def step_recorded(self, event: ev.Record, entries: list[Any]) -> Refusal | None:
        """``rules.step`` on the live state, appending the event's undo entry to
        ``entries`` (also when the step raises). Returns the Refusal, if any."""
        ops: list[Any] = []  # this event's entry: the state's setattr hooks record into it
        tracker, before = self._recording(ops)
        try:
            rules.step(self.state, event)
        except Refusal as refusal:
            # Kept in ``conflicts``: without its traceback, which held every frame up
            # to ``Game.open`` alive, and with them the whole log's bytes (20 MB for a
            # 100k-entry game) for as long as the game stays open.
            return refusal.with_traceback(None)
        finally:
            tracker.rec = None
            entries.append(self._entry(*before, ops))
        return None

    def step_unjournaled(self, event: ev.Record, entries: list[Any]) -> Refusal | None:
        """``step_recorded`` for a fold that keeps no undo entry (``fold_many`` puts
        None in its place): an event that holds is stepped without counting what it
        added. A refused event's entry is made as ``step_recorded`` makes it: the part
        of it that holds is folded after it is taken back (``hold_in_part``)."""
        ops: list[Any] = []  # the pre-images, for a refused event's entry
        tracker, before = self._recording(ops)
        try:
            rules.step(self.state, event)
        except BaseException as exc:
            tracker.rec = None
            entries.append(self._entry(*before, ops))
            if isinstance(exc, Refusal):
                return exc.with_traceback(None)  # (as ``step_recorded``: no frames kept)
            raise
        tracker.rec = None
        entries.append(None)
        return None

    def _recording(
        self, ops: list[Any]
    ) -> tuple[Any, tuple[Any, Any, Any, Any, tuple[int, int, int, int]]]:
        """Begin a step: the state's tracker set to record the pre-images into ``ops``.
        The tracker, and what ``_entry`` reads back: the state's units, casualty lines,
        Scroungings and sides, and how many of each there were."""
        state = self.state
        self._table = None  # the live state changes: views made after it share a new copy
        units, cas, scr, sides = state.units, state.casualties, state.scrounged, state.sides
        try:
            tracker = state._tracker or state.tracker  # the slot: no property call
        except AttributeError:  # a state read from the snapshot cache, not yet tracked
            tracker = state.tracker
        tracker.rec = ops
        return tracker, (units, cas, scr, sides, (len(units), len(cas), len(scr), len(sides)))

    def _entry(
        self,
        units: Any,
        cas: Any,
        scr: Any,
        sides: Any,
        counts: tuple[int, int, int, int],
        ops: list[Any],
    ) -> tuple[Any, ...]:
        """The undo entry of a step that began with ``counts`` of the state's
        ``units``, ``cas``, ``scr`` and ``sides`` and recorded the pre-images ``ops``."""
        state = self.state
        n_units, n_cas, n_scr, n_sides = counts
        added_units, added_cas = len(units) - n_units, len(cas) - n_cas
        added_scr, added_sides = len(scr) - n_scr, len(sides) - n_sides
        if (
            state.units is not units
            or state.casualties is not cas
            or state.scrounged is not scr
            or state.sides is not sides
            or added_units < 0
            or added_cas < 0
            or added_sides < 0
            or added_scr < 0
            or len(scr.order) != n_scr + added_scr  # changed but by ``add``
        ):
            added_units = _OPAQUE  # a rule changed what the entry cannot restore
        scr_added = scr.added_since(n_scr) if added_scr > 0 else None
        return (added_units, added_cas, scr_added, added_sides, *ops)

    def hold_in_part(self, event: ev.Record, undo: list[Any], refusal: Refusal) -> Refusal | None:
        """``event`` did not hold (its undo entry is the last of ``undo``): fold the part
        of it that holds instead, if one does (``core.rules.partial``), and keep what
        was dropped in ``partial``; else the refusal, as it was."""
        part = part_that_holds(self.state, event)
        if part is None:
            return refusal
        self.unapply(undo.pop())
        if self.step_recorded(part[0], undo) is not None:  # the check said it would hold
            self.unapply(undo.pop())
            self.step_recorded(event, undo)
            return refusal
        self.partial[event.seq] = part[1]
        return None

    def unapply(self, entry: tuple[Any, ...]) -> None:
        """Take one event back: restore its pre-images, newest first, trim the rest."""
        state = self.state
        self._table = None  # the live state changes: views made after it share a new copy
        for i in range(len(entry) - 3, _OPS - 1, -3):
            obj = entry[i]
            if type(obj) is GameState or type(obj) is Side:
                # their hooks only record a pre-image, and nothing records here: set the
                # value itself (every event sets the state's ``last_seq``)
                obj.__dict__[entry[i + 1]] = entry[i + 2]
            else:
                setattr(obj, entry[i + 1], entry[i + 2])  # a Unit's hooks: indexes, views
        if entry[_ADDED_CAS]:
            del state.casualties[len(state.casualties) - entry[_ADDED_CAS] :]
        if entry[_SCR_ADDED] is not None:
            state.scrounged.take_back(entry[_SCR_ADDED])
        if entry[_ADDED_UNITS]:
            state.drop_last_units(entry[_ADDED_UNITS])
        for _ in range(entry[_ADDED_SIDES]):
            state.sides.popitem()

    def rollback(self, position: int, obs: Observer | None = None) -> None:
        """Take the effective history back to its first ``position`` events."""
        undo = self.undo
        if position < len(undo) and undo[position] is None:  # journal_gap, inline
            self.complete_journal(position)
            undo = self.undo
        entries = undo[position:]
        if obs is not None:
            obs.state = self.state
            if entries:  # (an unstrike of the last entry takes nothing back)
                obs.rolled_back(self.effective[position:], entries, self.conflicts)
        if _OPAQUE in map(_ADDED_UNITS_OF, entries):  # (in C: one entry, most often)
            del self.effective[position:]  # (and its seqs)
            self.fold_all()
            if obs is not None:
                obs.state = self.state
            return
        effective, seqs, undo, conflicts = self.effective, self.seqs, self.undo, self.conflicts
        while len(effective) > position:
            seq = seqs[-1]
            effective.pop()  # (and its seq: a place read from the file is not read again)
            conflicts.pop(seq, None)
            self.partial.pop(seq, None)
            self.unapply(undo.pop())

    def append(self, record: ev.Record, obs: Observer | None = None, named: bool = False) -> None:
        """Fold ``record`` after the effective history. ``named``: it folds on the very
        records it last folded on (a redo: see ``core.book.writer``), so the time and the
        names ``fold_one`` gave its entry then still hold; only its rules run again."""
        self.effective.append(record)  # (and its seq)
        if named:
            refusal = self.step_recorded(record, self.undo)
            if refusal is not None:
                refusal = self.hold_in_part(record, self.undo, refusal)
            if refusal is not None:
                self.conflicts[record.seq] = refusal
        else:
            self.fold_one(record)
        if obs is not None:
            obs.folded(record, self.undo[-1], self.conflicts, self.partial)
        self._keep_window()

    def _keep_window(self) -> None:
        """After a write: a long game keeps the undo journal of its last
        ``snap_sizes.TAIL`` events only, as its open does (``fold_all``), so a game that
        goes on being written (a long ``stockade run``) holds a window of pre-images,
        not one per entry; an undo or a view reaching further completes it
        (``complete_journal``), as it would after an open. The tracker's list of units
        moved is trimmed as its indexes trim it when they read it (a run may never)."""
        undo = self.undo
        at = len(undo) - snap_sizes.TAIL - 1
        if at >= 0 and len(undo) >= snap_sizes.MIN_EVENTS and undo[at] is not None:
            # the entries the snapshot's back rows are folded forward with go: a journal
            # reaching past the window is made whole (a prefix of gaps, as ever)
            self._back = None
            while at >= 0 and undo[at] is not None:
                undo[at] = None
                at -= 1
        tracker = self.state.tracker
        if len(tracker.moved) > DIRTY_LIMIT or len(tracker.dirty) > DIRTY_LIMIT:
            tracker.trim()  # every index of the state rebuilds once, on its next use

    def replace_tail(
        self, position: int, tail: list[ev.Record], obs: Observer | None = None
    ) -> None:
        """Take the history back to ``position`` and fold ``tail`` after it."""
        if position < len(self.effective):  # (an unstrike of the last entry: nothing)
            self.rollback(position, obs)
        for record in tail:
            self.append(record, obs)

    def check(self, events: list[ev.Record]) -> None:
        """Raise the Refusal the rules give for ``events``, without writing anything."""
        if len(events) == 1:
            rules.check(self.state, events[0])
            return
        # Several events: apply them to the live state while recording, then take them
        # back (O(what they change), where a scratch clone would be O(units)).
        with self.lock:
            entries: list[Any] = []
            try:
                for event in events:
                    refusal = self.step_recorded(event, entries)
                    if refusal is not None:
                        raise refusal
            finally:
                if any(e[_ADDED_UNITS] == _OPAQUE for e in entries):
                    self.fold_all()
                else:
                    for entry in reversed(entries):
                        self.unapply(entry)

    # -------------------------------------------------------------------- replay
    def state_at(self, seq: int, still: bool = False) -> GameState:
        """The state after every effective event up to and including ``seq``.

        O(what the later events changed), not O(game): the view reads the unit table
        and casualty lines through one frozen copy of the live ones (a ``SharedTable``,
        ``core.model.shared_table``), made for the first view after the live state
        changed and shared by every view made until it changes again, with its own
        copies of the units the later events changed. The table shares its units with
        the live state: a unit the live state changes afterwards is first copied into
        it, so no view ever moves. The view is for reading (its ``units`` is a
        read-only Mapping, its ``casualties`` a read-only Sequence); ``clone()`` it to
        change it.

        ``still``: the caller reads the view before the live state changes again (and
        holds ``lock``): the view reads the live table itself, not a copy of it, and
        no view to come shares it.
        """
        import bisect  # a replay's: not on a fold's path

        with self.lock:
            position = bisect.bisect_right(self.seqs, seq)
            if position == 0:
                return GameState()
            if self.journal_gap(position):
                self.complete_journal(position)
            tail = self.undo[position:]
            if any(e[_ADDED_UNITS] == _OPAQUE for e in tail):
                return Projection(self.effective[:position]).state
            live = self.state
            if still:
                table = SharedTable(live.units, live.casualties, live.scrounged.copy(), copy=False)
            else:
                table = self._shared_table()
            view: GameState = copy_obj(live)
            view._track(table.tracker)  # the table's: it records nothing, and tells of copies
            vd = view.__dict__  # written directly: no undo hook may record the view
            vd.pop("_prisoner_index", None)
            vd.pop("_location_index", None)
            vd["sides"] = sides = {n: copy_obj(s) for n, s in live.sides.items()}
            vd["cvp_overrides"] = dict(live.cvp_overrides)
            n_cas = len(table.casualties) - sum(e[_ADDED_CAS] for e in tail)
            lines = table.casualties
            vd["casualties"] = lines if n_cas == len(lines) else LinesAt(lines, n_cas)
            scr = live.scrounged
            n_scr = len(scr) - sum(len(e[_SCR_ADDED]) for e in tail if e[_SCR_ADDED] is not None)
            vd["scrounged"] = table.scrounged if n_scr == len(scr) else scr.first(n_scr)
            base = table.units
            own: dict[str, Unit] = {}
            live_sides = {id(s): n for n, s in live.sides.items()}
            # the live book's rows change in place: the view has its own where its later
            # events changed them, else the table's copy
            book = live.vc
            live_rows = book.rows() if book.has_rows() else ()
            mine_rows: dict[int, Any] = {}
            for e in reversed(tail):
                for i in range(len(e) - 3, _OPS - 1, -3):
                    obj, name, old = e[i], e[i + 1], e[i + 2]
                    if obj is live:
                        vd[name] = old
                        continue
                    if type(obj) is Unit:
                        mine = own.get(obj.handle)
                        if mine is None:
                            if base.get(obj.handle) is not obj:
                                continue  # not in this state (a scratch or temporary unit)
                            mine = own[obj.handle] = clone_unit(obj)
                        elif base.get(obj.handle) is not obj:
                            continue
                        object.__setattr__(mine, name, old)  # no hook: a view records nothing
                    elif id(obj) in live_sides:
                        sides[live_sides[id(obj)]].__dict__[name] = old
                    elif any(obj is r for r in live_rows):
                        rows = mine_rows.get(id(obj))
                        if rows is None:
                            rows = mine_rows[id(obj)] = obj.copy()
                        rows.restore(name, old)
            vc = vd["vc"]
            if live_rows and vc.has_rows():  # else: a book from before the rows
                if vc is book and not mine_rows:
                    vd["vc"] = table.book(book)
                else:
                    exits, control = vc.rows()
                    mine_exits, mine_control = mine_rows.get(id(exits)), mine_rows.get(id(control))
                    vd["vc"] = msgspec.structs.replace(
                        vc,
                        exits=exits.copy() if mine_exits is None else mine_exits,
                        control=control.copy() if mine_control is None else mine_control,
                    )
            dropped = sum(e[_ADDED_UNITS] for e in tail)
            gone = frozenset(itertools.islice(reversed(base), dropped)) if dropped else frozenset()
            for h in gone:
                own.pop(h, None)
            vd["units"] = UnitsAt(table, own, gone)
            for _ in range(sum(e[_ADDED_SIDES] for e in tail)):
                sides.popitem()
            return view

    def _shared_table(self) -> SharedTable:
        """The frozen copy of the live unit table and lines the views share: the one
        made before if the live state has not changed since (``step_recorded``,
        ``unapply`` and a new state drop it), else a new one."""
        live = self.state
        table = self._table
        if (
            table is None
            or len(table.units) != len(live.units)
            or len(table.casualties) != len(live.casualties)
        ):
            table = self._table = SharedTable(live.units, live.casualties, live.scrounged.copy())
            live.tracker.register_view(table)
        return table

    # ------------------------------------------------- strike / unstrike / undo-to
    def position_of(self, seq: int) -> tuple[int, bool]:
        """Where entry ``seq`` stands (or would stand) in the effective list."""
        import bisect

        position = bisect.bisect_left(self.seqs, seq)
        return position, position < len(self.seqs) and self.seqs[position] == seq

    def keep_upto_group(self, grp: int) -> int:
        """How many effective events belong to groups up to ``grp``."""
        keep = len(self.effective)
        while keep and self.effective[keep - 1].grp > grp:
            keep -= 1
        return keep

    @contextlib.contextmanager
    def trial(
        self, position: int, tail: list[ev.Record], new_tail: list[ev.Record], obs: Observer
    ) -> Iterator[None]:
        """Fold ``new_tail`` instead of ``tail`` from ``position`` while the block runs
        (a preview), then put everything back as it was."""
        before = dict(self.conflicts)
        partial = dict(self.partial)
        touched = {r.seq for r in tail} | {r.seq for r in new_tail}
        when = {s: self.when[s] for s in touched if s in self.when}
        names = {s: self.names.by_seq[s] for s in touched if s in self.names.by_seq}
        try:
            self.replace_tail(position, new_tail, obs)
            yield
        finally:
            self.replace_tail(position, tail)
            self.when.update(when)
            self.names.by_seq.update(names)
            if self.conflicts.keys() == before.keys():
                self.conflicts = before  # the very same Refusal objects as before
            self.partial = partial


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic GC while a log is read and folded: it makes hundreds of thousands of
    long-lived objects, and each full collection would walk them all again. Nothing it makes is
    garbage; the collector runs as usual afterwards."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
