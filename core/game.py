"""A game: its log, its effective history and the state folded from it.

This is the core's front door for the CLI and the TUI. Every change goes through
``submit`` (or ``undo``/``redo``/``strike``/``unstrike``), which checks the rules,
writes the records durably, and only then changes the state.
"""

from __future__ import annotations

import bisect
import contextlib
import datetime as _dt
import gc
import threading
from dataclasses import dataclass
from pathlib import Path

import msgspec

from stockade.core import events as ev
from stockade.core import rules, snapcache
from stockade.core import state as _st
from stockade.core.errors import Refusal
from stockade.core.history import Timeline, build_timeline
from stockade.core.journal import Journal, JournalDamaged, JournalError
from stockade.core.logfile import LoadedLog, LogProblem, load, set_aside
from stockade.core.state import GameState, Unit, _clone_unit, _copy_obj

PROGRAM = "stockade 0.1.0"

# An undo entry, one per effective event (``Game._undo`` runs parallel to
# ``Game.effective``), a tuple: how many units, casualty lines and sides the event
# added; the scrounged set as it was before, if the event added to it (else None);
# then flat (object, attribute, old value) triples: the pre-images of every attribute
# the event's rules set on a Unit, Side or GameState (core.state's setattr hooks
# record them). Taking the event back restores them newest first and trims what was
# added: O(what the event changed), not O(game).
_ADDED_UNITS, _ADDED_CAS, _SCR_BEFORE, _ADDED_SIDES, _OPS = range(5)
_OPAQUE = -1  # in _ADDED_UNITS: the event changed something its entry cannot take back


@dataclass
class HistoryEntry:
    seq: int
    grp: int
    record: ev.Record
    status: str  # ok / undone / abandoned / struck / conflict / control
    reason: str = ""
    turn: int = 0
    phase: str = ""
    attacker: str = ""


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


class Game:
    def __init__(
        self,
        records: list[ev.Record],
        journal: Journal | None = None,
        path: Path | None = None,
        warnings: list[str] | None = None,
        problem: LogProblem | None = None,
        log_data: bytes | None = None,
    ):
        self.path = Path(path) if path else None
        self.journal = journal
        self.records: list[ev.Record] = list(records)
        self.warnings: list[str] = list(warnings or [])
        self.problem = problem
        self.timeline: Timeline = build_timeline(self.records)
        self.effective: list[ev.Record] = self.timeline.effective_of(self.records)
        self._seqs = [r.seq for r in self.effective]
        self.conflicts: dict[int, Refusal] = {}
        self.when: dict[int, tuple[int, str, str]] = {}  # seq -> (turn, phase, attacker)
        self._lock = threading.RLock()  # state_at runs in a worker thread (TUI replay)
        self._snap_position = 0  # effective events covered by the snapshot on disk
        if log_data is None or not self._from_snapshot(log_data):
            self._fold_all()

    # ------------------------------------------------------------------ opening
    @classmethod
    def create(
        cls,
        path: Path,
        scenario: str,
        sides: list[ev.SideSpec],
        cvp: dict[str, int] | None = None,
        first_attacker: str = "",
    ) -> Game:
        header = ev.GameCreated(
            seq=1,
            grp=1,
            at=_now(),
            scenario=scenario,
            sides=sides,
            program=PROGRAM,
            cvp=cvp or {},
            first_attacker=first_attacker,
        )
        rules.step(GameState(), header)  # refuse a bad header before creating a file
        journal = Journal.create(Path(path), ev.encode(header))
        return cls([header], journal=journal, path=path)

    @classmethod
    def in_memory(cls, scenario: str, sides: list[ev.SideSpec], **kw) -> Game:
        header = ev.GameCreated(seq=1, grp=1, scenario=scenario, sides=sides, program=PROGRAM, **kw)
        rules.step(GameState(), header)
        return cls([header])

    @classmethod
    def open(cls, path: Path, read_only: bool = False) -> Game:
        """Open a log. Raises JournalError if it cannot be read or is not a game.

        The write lock is taken BEFORE the file is read, so no other writer can append
        between reading and writing. ``read_only=True`` never modifies the file.
        """
        with _gc_paused():
            return cls._open(path, read_only)

    @classmethod
    def _open(cls, path: Path, read_only: bool) -> Game:
        path = Path(path)
        journal = Journal.open(path, want_write=not read_only)
        try:
            loaded: LoadedLog = load(path)
        except BaseException:
            journal.close()
            raise
        if loaded.problem and not loaded.records:
            journal.close()
            raise JournalDamaged(f"{path}: {loaded.problem}")
        warnings = list(loaded.warnings)
        if loaded.problem:
            journal.close()
            warnings.append(
                f"{loaded.problem}; opened read-only, nothing after it is "
                f"shown (stockade repair {path.name} writes a repaired copy)"
            )
            return cls(loaded.records, None, path, warnings, loaded.problem)
        if journal.read_only and journal.why_read_only and not read_only:
            warnings.append(journal.why_read_only)
        if loaded.torn_tail is not None and not journal.read_only:
            side = set_aside(path, loaded.torn_tail)
            journal.truncate_torn_tail(loaded.good_bytes)
            warnings.append(f"the damaged bytes were saved to {side.name}")
        elif loaded.torn_tail is not None:
            note = (
                "the damaged bytes stay in the file (opened read-only); opening the "
                "game for writing saves them to a side file"
            )
            if warnings:
                warnings[-1] = f"{warnings[-1]}; {note}"
            else:
                warnings.append(note)
        log_data = None
        if snapcache.ENABLED and len(loaded.records) >= snapcache.MIN_EVENTS:
            try:
                log_data = path.read_bytes()[: loaded.good_bytes or None]
            except OSError:
                log_data = None
        return cls(loaded.records, journal, path, warnings, log_data=log_data)

    def close(self) -> None:
        if self.path is not None and self.problem is None:
            self._save_snapshot()
        if self.journal:
            self.journal.close()

    # ------------------------------------------- snapshot cache (core/snapcache.py)
    def _from_snapshot(self, log_data: bytes) -> bool:
        """Start from the verified snapshot of this log, folding only the events after
        it; False (nothing changed) when there is none. The events it covers have no
        undo journal: reaching into them first completes it (``_complete_journal``)."""
        if self.path is None or len(self.effective) < snapcache.MIN_EVENTS:
            return False
        found = snapcache.read(self.path, log_data, self._seqs)
        if found is None:
            self._fold_all()
            self._save_snapshot(log_data)
            return True
        position, state, conflicts, when = found
        self.state, self.conflicts = state, conflicts
        self.when.update(when)
        self._undo = [None] * position
        self._snap_position = position
        for event in self.effective[position:]:
            self._fold_one(event)
        return True

    def _save_snapshot(self, log_data: bytes | None = None) -> None:
        """Write the snapshot cache if the game is long and has outgrown its snapshot."""
        n = len(self.effective)
        position = n - snapcache.TAIL
        if (
            n < snapcache.MIN_EVENTS
            or position <= 0
            or self.path is None
            or position - self._snap_position < snapcache.REFRESH
            and self._snap_position > 0
        ):
            return
        if snapcache.cache_file(self.path) is None:
            return
        try:
            if log_data is None:
                log_data = self.path.read_bytes()
        except OSError:
            return
        with self._lock:
            state = self.state_at(self._seqs[position - 1])
            if snapcache.write(
                self.path, log_data, self._seqs, position, state, self.conflicts, self.when
            ):
                self._snap_position = position

    def _journal_gap(self, position: int) -> bool:
        """Do the events from ``position`` on include some a snapshot covered (the
        ones without an undo entry: always a prefix of ``_undo``)?"""
        return position < len(self._undo) and self._undo[position] is None

    def _complete_journal(self) -> None:
        """Fold from the start to get the undo journal of the events a snapshot
        covered (once per open game, only when an undo, strike or replay reaches
        into them)."""
        scratch = Game.__new__(Game)
        scratch.effective, scratch._seqs, scratch.when = self.effective, self._seqs, {}
        with _gc_paused():
            scratch._fold_all()
        self.state, self.conflicts, self._undo = scratch.state, scratch.conflicts, scratch._undo
        self.when.update(scratch.when)

    @property
    def read_only(self) -> bool:
        return self.journal is not None and self.journal.read_only or self.problem is not None

    # --------------------------------------------------------------------- fold
    def _fold_all(self) -> None:
        """Fold the whole effective history into a fresh state."""
        self.state = GameState()
        self.conflicts = {}
        self._undo: list[list] = []
        for event in self.effective:
            self._fold_one(event)

    def _fold_one(self, event: ev.Record) -> None:
        """Fold one effective event (already appended to ``effective``), recording its
        undo entry."""
        state = self.state
        self.when[event.seq] = (state.turn, state.phase, state.attacker)
        refusal = self._step_recorded(event, self._undo)
        if refusal is not None:
            # A later event that no longer holds is kept, flagged and skipped until
            # the player resolves it (docs/history.md).
            self.conflicts[event.seq] = refusal

    def _step_recorded(self, event: ev.Record, entries: list) -> Refusal | None:
        """``rules.step`` on the live state, appending the event's undo entry to
        ``entries`` (also when the step raises). Returns the Refusal, if any."""
        state = self.state
        units, cas, scr, sides = state.units, state.casualties, state.scrounged, state.sides
        n_units, n_cas, n_scr, n_sides = len(units), len(cas), len(scr), len(sides)
        scr_before = set(scr) if type(event) is ev.Scrounged else None
        ops: list = []
        _st._rec = ops
        try:
            rules.step(state, event)
        except Refusal as refusal:
            return refusal
        finally:
            _st._rec = None
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
                or (added_scr and scr_before is None)
            ):
                added_units = _OPAQUE  # a rule changed what the entry cannot restore
            entries.append(
                (added_units, added_cas, scr_before if added_scr else None, added_sides, *ops)
            )
        return None

    def _unapply(self, entry: tuple) -> None:
        """Take one event back: restore its pre-images, newest first, trim the rest."""
        state = self.state
        for i in range(len(entry) - 3, _OPS - 1, -3):
            setattr(entry[i], entry[i + 1], entry[i + 2])  # hooks: prisoner index, views
        if entry[_ADDED_CAS]:
            del state.casualties[len(state.casualties) - entry[_ADDED_CAS] :]
        if entry[_SCR_BEFORE] is not None:
            state.scrounged.clear()
            state.scrounged.update(entry[_SCR_BEFORE])
        if entry[_ADDED_UNITS]:
            state.drop_last_units(entry[_ADDED_UNITS])
        for _ in range(entry[_ADDED_SIDES]):
            state.sides.popitem()

    def _rollback(self, position: int) -> None:
        """Take the effective history back to its first ``position`` events."""
        if self._journal_gap(position):
            self._complete_journal()
        if any(e[_ADDED_UNITS] == _OPAQUE for e in self._undo[position:]):
            del self.effective[position:]
            del self._seqs[position:]
            self._fold_all()
            return
        effective, seqs, undo, conflicts = self.effective, self._seqs, self._undo, self.conflicts
        while len(effective) > position:
            record = effective.pop()
            seqs.pop()
            conflicts.pop(record.seq, None)
            self._unapply(undo.pop())

    def _append(self, record: ev.Record) -> None:
        self.effective.append(record)
        self._seqs.append(record.seq)
        self._fold_one(record)

    def _replace_tail(self, position: int, tail: list[ev.Record]) -> None:
        """Take the history back to ``position`` and fold ``tail`` after it."""
        self._rollback(position)
        for record in tail:
            self._append(record)

    # ------------------------------------------------------------------- writing
    def check(self, events: list[ev.Record]) -> None:
        """Raise the Refusal the rules give for ``events``, without writing anything."""
        if self.problem:
            raise Refusal("log", f"this log is read-only: {self.problem}")
        if len(events) == 1:
            rules.check(self.state, events[0])
            return
        # Several events: apply them to the live state while recording, then take them
        # back (O(what they change), where a scratch clone would be O(units)).
        with self._lock:
            entries: list = []
            try:
                for event in events:
                    refusal = self._step_recorded(event, entries)
                    if refusal is not None:
                        raise refusal
            finally:
                if any(e[_ADDED_UNITS] == _OPAQUE for e in entries):
                    self._fold_all()
                else:
                    for entry in reversed(entries):
                        self._unapply(entry)

    def submit(self, events: list[ev.Record]) -> list[ev.Record]:
        """Check, write durably, then apply one player action. Returns the records."""
        if not events:
            return []
        self.check(events)
        first = len(self.records) + 1
        at = _now()
        stamped = [_stamp(e, first + i, first, at) for i, e in enumerate(events)]
        self._write(stamped)
        with self._lock:
            for record in stamped:
                self.records.append(record)
                self.timeline.add(record)
                self._append(record)
        return stamped

    def _write(self, records: list[ev.Record]) -> None:
        if self.read_only:
            why = self.journal.why_read_only if self.journal else str(self.problem)
            raise Refusal("log", f"this game is open read-only ({why})")
        if self.journal is None:
            return  # an in-memory game (tests, previews)
        try:
            self.journal.append_many([ev.encode(r) for r in records])
        except JournalError as exc:
            raise Refusal("log", str(exc) + self._after_write_error()) from None

    # ------------------------------------------------- recovery (docs/durability.md)
    def _after_write_error(self) -> str:
        """A write failed: re-read the file before anything else is written."""
        if self.journal is None or not self.journal.poisoned:
            return ""
        held = len(self.records)
        try:
            self.recover()
        except JournalError as exc:
            return (
                f". The log could not be re-read ({exc}); nothing more is written "
                "until it is (Game.recover / reopen the game)"
            )
        if len(self.records) > held:
            return (
                ". The log was re-read: the entry had reached the file after all and "
                "is kept; check the history"
            )
        return ". The log was re-read; the game goes on from what it holds"

    def recover(self) -> None:
        """Re-read the log from disk and carry on from exactly what it holds.

        Called after a failed write: the journal refuses writes until this succeeds.
        Takes the lock afresh, sets aside any torn tail, and rebuilds this object in
        place (the file is the truth). Raises JournalError if the log cannot be read.
        """
        if self.path is None or self.journal is None:
            return
        self.journal.close()
        try:
            fresh = Game.open(self.path)
        except JournalError as exc:
            self.journal.read_only = True
            self.journal.why_read_only = f"could not re-read the log after an error: {exc}"
            raise
        self.__dict__.update(fresh.__dict__)

    def _control(self, record: ev.Record) -> ev.Record:
        stamped = _stamp(record, len(self.records) + 1, len(self.records) + 1, _now())
        self._write([stamped])
        self.records.append(stamped)
        self.timeline.add(stamped)
        return stamped

    # -------------------------------------------------------------- undo / redo
    def undo(self) -> int:
        target = self.timeline.undoable()
        if target is None:
            raise Refusal("undo", "nothing to undo")
        self._control(ev.Undo(target=target))
        with self._lock:
            keep = len(self.effective)
            while keep and self.effective[keep - 1].grp == target:
                keep -= 1
            self._rollback(keep)
        return target

    def undo_to(self, seq: int) -> list[int]:
        """Undo every entry after entry ``seq`` as one step ("undo to here").

        The undo records are written in one write, so a crash leaves all or none.
        Returns the groups undone, last first; each can still be redone in turn.
        """
        if not 1 <= seq <= len(self.records):
            raise Refusal("undo", f"there is no entry {seq}")
        anchor = self.records[seq - 1]
        if ev.is_control(anchor):
            raise Refusal("undo", f"entry {seq} is an undo/redo/strike record; pick an event")
        if anchor.grp in self.timeline.undone:
            raise Refusal("undo", f"entry {seq} is itself undone")
        targets = [g for g in reversed(self.timeline.active) if g > anchor.grp]
        if not targets:
            raise Refusal("undo", f"nothing after entry {seq} to undo")
        first, at = len(self.records) + 1, _now()
        stamped = [
            _stamp(ev.Undo(target=g), first + i, first + i, at) for i, g in enumerate(targets)
        ]
        self._write(stamped)
        for record in stamped:
            self.records.append(record)
            self.timeline.add(record)
        with self._lock:
            keep = len(self.effective)
            while keep and self.effective[keep - 1].grp > anchor.grp:
                keep -= 1
            self._rollback(keep)
        return targets

    def redo(self) -> int:
        target = self.timeline.redoable()
        if target is None:
            raise Refusal("redo", "nothing to redo")
        self._control(ev.Redo(target=target))
        with self._lock:
            for record in self.timeline.groups[target]:
                if record.seq not in self.timeline.struck:
                    self._append(record)
        return target

    # ------------------------------------------------------------ strike / unstrike
    def _strikable(self, seq: int) -> ev.Record:
        if not 1 <= seq <= len(self.records):
            raise Refusal("strike", f"there is no entry {seq}")
        record = self.records[seq - 1]
        if ev.is_control(record):
            raise Refusal("strike", f"entry {seq} is an undo/redo/strike record, not an event")
        if isinstance(record, ev.GameCreated):
            raise Refusal("strike", "the game header cannot be struck")
        return record

    def strike(self, seq: int, reason: str = "") -> list[int]:
        """Strike entry ``seq``; returns the seqs that newly conflict as a result."""
        record = self._strikable(seq)
        if seq in self.timeline.struck:
            raise Refusal("strike", f"entry {seq} is already struck")
        if record.grp in self.timeline.undone:
            raise Refusal("strike", f"entry {seq} is undone; nothing to strike")
        before = set(self.conflicts)
        self._control(ev.Strike(target=seq, reason=reason))
        self._rebuild_effective(seq)
        return sorted(set(self.conflicts) - before - {seq})

    def unstrike(self, seq: int) -> list[int]:
        self._strikable(seq)
        if seq not in self.timeline.struck:
            raise Refusal("unstrike", f"entry {seq} is not struck")
        before = set(self.conflicts)
        self._control(ev.Unstrike(target=seq))
        self._rebuild_effective(seq)
        return sorted(set(self.conflicts) - before)

    def preview_strike(self, seq: int) -> list[tuple[int, Refusal]]:
        """What would conflict if ``seq`` were struck, without writing anything."""
        self._strikable(seq)
        with self._lock:
            position = bisect.bisect_left(self._seqs, seq)
            if position >= len(self._seqs) or self._seqs[position] != seq:
                return []  # not in the effective history: striking it changes nothing
            before = dict(self.conflicts)
            tail = self.effective[position:]
            when = {r.seq: self.when[r.seq] for r in tail if r.seq in self.when}
            try:
                self._replace_tail(position, tail[1:])
                found = sorted((s, r) for s, r in self.conflicts.items() if s not in before)
            finally:
                self._replace_tail(position, tail)
                self.when.update(when)
                if self.conflicts.keys() == before.keys():
                    self.conflicts = before  # the very same Refusal objects as before
            return found

    def _rebuild_effective(self, seq: int) -> None:
        """``seq`` was struck or unstruck: refold from where it stands (or stood)."""
        with self._lock:
            record = self.records[seq - 1]
            position = bisect.bisect_left(self._seqs, seq)
            present = position < len(self._seqs) and self._seqs[position] == seq
            effective = self.timeline.is_effective(record)
            if present and not effective:  # struck
                self._replace_tail(position, self.effective[position + 1 :])
            elif effective and not present:  # unstruck
                self._replace_tail(position, [record] + self.effective[position:])
            elif present != effective:  # pragma: no cover - cannot happen
                self.effective = self.timeline.effective()
                self._seqs = [r.seq for r in self.effective]
                self._fold_all()

    # -------------------------------------------------------------------- replay
    def state_at(self, seq: int) -> GameState:
        """The state after every effective event up to and including ``seq``.

        O(what the later events changed), not O(game): a view that shares the units
        no later event changed with the live state (a unit the live state changes
        afterwards is first copied into the view, so the view never moves). The view
        is for reading; ``clone()`` it to change it.
        """
        with self._lock:
            position = bisect.bisect_right(self._seqs, seq)
            if position == 0:
                return GameState()
            if self._journal_gap(position):
                self._complete_journal()
            live = self.state
            view = _copy_obj(live)
            vd = view.__dict__  # written directly: no undo hook may record the view
            vd.pop("_prisoner_index", None)
            vd["units"] = units = dict(live.units)
            vd["sides"] = sides = {n: _copy_obj(s) for n, s in live.sides.items()}
            vd["cvp_overrides"] = dict(live.cvp_overrides)
            tail = self._undo[position:]
            if any(e[_ADDED_UNITS] == _OPAQUE for e in tail):
                scratch = Game.__new__(Game)
                scratch.effective, scratch._seqs = self.effective[:position], []
                scratch.when = {}
                scratch._fold_all()
                return scratch.state
            n_cas = len(live.casualties) - sum(e[_ADDED_CAS] for e in tail)
            vd["casualties"] = live.casualties[:n_cas]
            scrounged = next(
                (e[_SCR_BEFORE] for e in tail if e[_SCR_BEFORE] is not None), live.scrounged
            )
            vd["scrounged"] = set(scrounged)
            copies: dict[int, object] = {}
            live_sides = {id(s): n for n, s in live.sides.items()}
            for e in reversed(tail):
                for i in range(len(e) - 3, _OPS - 1, -3):
                    obj, name, old = e[i], e[i + 1], e[i + 2]
                    if obj is live:
                        vd[name] = old
                        continue
                    mine = copies.get(id(obj))
                    if mine is None:
                        if isinstance(obj, Unit):
                            if units.get(obj.handle) is not obj:
                                continue  # not in this state (a scratch or temporary unit)
                            mine = units[obj.handle] = _clone_unit(obj)
                        elif id(obj) in live_sides:
                            mine = sides[live_sides[id(obj)]]
                        else:
                            continue
                        copies[id(obj)] = mine
                    mine.__dict__[name] = old
            for _ in range(sum(e[_ADDED_UNITS] for e in tail)):
                units.popitem()
            for _ in range(sum(e[_ADDED_SIDES] for e in tail)):
                sides.popitem()
            _st.register_view(view)
            return view

    def history(self) -> list[HistoryEntry]:
        out = []
        for record in self.records:
            turn, phase, attacker = self.when.get(record.seq, (0, "", ""))
            status, reason = self.entry_status(record)
            out.append(
                HistoryEntry(record.seq, record.grp, record, status, reason, turn, phase, attacker)
            )
        return out

    def entry_status(self, record: ev.Record) -> tuple[str, str]:
        """How ``record`` stands in the effective history now, and why."""
        tl = self.timeline
        if ev.is_control(record):
            return "control", ""
        if record.grp in tl.abandoned:
            return "abandoned", ""
        if record.grp in tl.undone:
            return "undone", ""
        if record.seq in tl.struck:
            return "struck", getattr(self.records[tl.struck[record.seq] - 1], "reason", "")
        if record.seq in self.conflicts:
            return "conflict", str(self.conflicts[record.seq])
        return "ok", ""

    def can_undo(self) -> bool:
        return self.timeline.undoable() is not None

    def can_redo(self) -> bool:
        return self.timeline.redoable() is not None


@contextlib.contextmanager
def _gc_paused():
    """No cyclic GC while a log is read and folded: it makes hundreds of thousands of
    long-lived objects, and each full collection would walk them all again (opening a
    100k-entry game: ~0.4 s instead of ~0.7 s from a snapshot). Nothing it makes is
    garbage; the collector runs as usual afterwards."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _stamp(event: ev.Record, seq: int, grp: int, at: str) -> ev.Record:
    return msgspec.structs.replace(event, seq=seq, grp=grp, at=at, v=ev.SCHEMA_VERSION)
