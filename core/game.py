"""A game: its log, its effective history and the state folded from it.

This is the core's front door for the CLI and the TUI. Every change goes through
``submit`` (or ``undo``/``redo``/``strike``/``unstrike``), which checks the rules,
writes the records durably, and only then changes the state.
"""

from __future__ import annotations

import bisect
import datetime as _dt
from dataclasses import dataclass
from pathlib import Path

import msgspec

from core import events as ev
from core import rules
from core.errors import Refusal
from core.history import Timeline, build_timeline
from core.journal import Journal, JournalError
from core.logfile import LoadedLog, LogProblem, load, set_aside
from core.state import GameState

SNAPSHOT_EVERY = 256
PROGRAM = "stockade 0.1.0"


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
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


class Game:
    def __init__(self, records: list[ev.Record], journal: Journal | None = None,
                 path: Path | None = None, warnings: list[str] | None = None,
                 problem: LogProblem | None = None):
        self.path = Path(path) if path else None
        self.journal = journal
        self.records: list[ev.Record] = list(records)
        self.warnings: list[str] = list(warnings or [])
        self.problem = problem
        self.timeline: Timeline = build_timeline(self.records)
        self.effective: list[ev.Record] = self.timeline.effective()
        self._seqs = [r.seq for r in self.effective]
        self.conflicts: dict[int, Refusal] = {}
        self.when: dict[int, tuple[int, str, str]] = {}  # seq -> (turn, phase, attacker)
        self._snaps: dict[int, tuple[GameState, dict[int, Refusal]]] = {0: (GameState(), {})}
        self.state = GameState()
        self._refold(0)

    # ------------------------------------------------------------------ opening
    @classmethod
    def create(cls, path: Path, scenario: str, sides: list[ev.SideSpec],
               cvp: dict[str, int] | None = None, first_attacker: str = "") -> "Game":
        header = ev.GameCreated(seq=1, grp=1, at=_now(), scenario=scenario, sides=sides,
                                program=PROGRAM, cvp=cvp or {}, first_attacker=first_attacker)
        rules.step(GameState(), header)  # refuse a bad header before creating a file
        journal = Journal.create(Path(path), ev.encode(header))
        return cls([header], journal=journal, path=path)

    @classmethod
    def in_memory(cls, scenario: str, sides: list[ev.SideSpec], **kw) -> "Game":
        header = ev.GameCreated(seq=1, grp=1, scenario=scenario, sides=sides,
                                program=PROGRAM, **kw)
        rules.step(GameState(), header)
        return cls([header])

    @classmethod
    def open(cls, path: Path, read_only: bool = False) -> "Game":
        """Open a log. Raises JournalError if it cannot be read or is not a game.

        The write lock is taken BEFORE the file is read, so no other writer can append
        between reading and writing. ``read_only=True`` never modifies the file.
        """
        path = Path(path)
        journal = Journal.open(path, want_write=not read_only)
        try:
            loaded: LoadedLog = load(path)
        except BaseException:
            journal.close()
            raise
        if loaded.problem and not loaded.records:
            journal.close()
            raise JournalError(f"{path}: {loaded.problem}")
        warnings = list(loaded.warnings)
        if loaded.problem:
            journal.close()
            warnings.append(f"{loaded.problem}; opened read-only, nothing after it is "
                            f"shown (stockade repair {path.name} writes a repaired copy)")
            return cls(loaded.records, None, path, warnings, loaded.problem)
        if journal.read_only and journal.why_read_only and not read_only:
            warnings.append(journal.why_read_only)
        if loaded.torn_tail is not None and not journal.read_only:
            side = set_aside(path, loaded.torn_tail)
            journal.truncate_torn_tail(loaded.good_bytes)
            warnings.append(f"the damaged bytes were saved to {side.name}")
        elif loaded.torn_tail is not None:
            note = ("the damaged bytes stay in the file (opened read-only); opening the "
                    "game for writing saves them to a side file")
            if warnings:
                warnings[-1] = f"{warnings[-1]}; {note}"
            else:
                warnings.append(note)
        return cls(loaded.records, journal, path, warnings)

    def close(self) -> None:
        if self.journal:
            self.journal.close()

    @property
    def read_only(self) -> bool:
        return self.journal is not None and self.journal.read_only or self.problem is not None

    # --------------------------------------------------------------------- fold
    def _refold(self, position: int) -> None:
        """Recompute the state from the nearest snapshot at or before ``position``."""
        for index in [i for i in self._snaps if i > position]:
            del self._snaps[index]
        start = max(self._snaps)
        snap_state, snap_conflicts = self._snaps[start]
        self.state = snap_state.clone()
        self.conflicts = dict(snap_conflicts)
        for applied, event in enumerate(self.effective[start:], start + 1):
            self._fold_one(event, applied)

    def _fold_one(self, event: ev.Record, applied: int) -> None:
        """Fold one effective event; ``applied`` counts effective events so far."""
        state = self.state
        self.when[event.seq] = (state.turn, state.phase, state.attacker)
        try:
            rules.step(state, event)
        except Refusal as refusal:
            # A later event that no longer holds is kept, flagged and skipped until
            # the player resolves it (docs/history.md).
            self.conflicts[event.seq] = refusal
        if applied % SNAPSHOT_EVERY == 0 and applied not in self._snaps:
            self._snaps[applied] = (state.clone(), dict(self.conflicts))

    # ------------------------------------------------------------------- writing
    def check(self, events: list[ev.Record]) -> None:
        """Raise the Refusal the rules give for ``events``, without writing anything."""
        if self.problem:
            raise Refusal("log", f"this log is read-only: {self.problem}")
        if len(events) == 1:
            rules.check(self.state, events[0])
            return
        scratch = self.state.clone()
        for event in events:
            rules.step(scratch, event)

    def submit(self, events: list[ev.Record]) -> list[ev.Record]:
        """Check, write durably, then apply one player action. Returns the records."""
        if not events:
            return []
        self.check(events)
        first = len(self.records) + 1
        at = _now()
        stamped = [_stamp(e, first + i, first, at) for i, e in enumerate(events)]
        self._write(stamped)
        for record in stamped:
            self.records.append(record)
            self.timeline.add(record)
            self.effective.append(record)
            self._seqs.append(record.seq)
            self._fold_one(record, len(self.effective))
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
            return f". The log could not be re-read ({exc}); nothing more is written " \
                   "until it is (Game.recover / reopen the game)"
        if len(self.records) > held:
            return (". The log was re-read: the entry had reached the file after all and "
                    "is kept; check the history")
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
        keep = len(self.effective)
        while keep and self.effective[keep - 1].grp == target:
            keep -= 1
        del self.effective[keep:]
        del self._seqs[keep:]
        self._refold(keep)
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
        stamped = [_stamp(ev.Undo(target=g), first + i, first + i, at)
                   for i, g in enumerate(targets)]
        self._write(stamped)
        for record in stamped:
            self.records.append(record)
            self.timeline.add(record)
        keep = len(self.effective)
        while keep and self.effective[keep - 1].grp > anchor.grp:
            keep -= 1
        del self.effective[keep:]
        del self._seqs[keep:]
        self._refold(keep)
        return targets

    def redo(self) -> int:
        target = self.timeline.redoable()
        if target is None:
            raise Refusal("redo", "nothing to redo")
        self._control(ev.Redo(target=target))
        for record in self.timeline.groups[target]:
            if record.seq not in self.timeline.struck:
                self.effective.append(record)
                self._seqs.append(record.seq)
                self._fold_one(record, len(self.effective))
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
        records = [r for r in self.effective if r.seq != seq]
        scratch = Game.__new__(Game)
        scratch.effective, scratch._seqs = records, [r.seq for r in records]
        scratch.when, scratch.conflicts = {}, {}
        position = bisect.bisect_left(self._seqs, seq)
        start = max(i for i in self._snaps if i <= position)
        scratch._snaps = {start: self._snaps[start]}
        scratch._refold(start)
        return sorted((s, r) for s, r in scratch.conflicts.items() if s not in self.conflicts)

    def _rebuild_effective(self, seq: int) -> None:
        self.effective = self.timeline.effective()
        self._seqs = [r.seq for r in self.effective]
        self._refold(bisect.bisect_left(self._seqs, seq))

    # -------------------------------------------------------------------- replay
    def state_at(self, seq: int) -> GameState:
        """The state after every effective event up to and including ``seq``."""
        position = bisect.bisect_right(self._seqs, seq)
        start = max(i for i in self._snaps if i <= position)
        scratch = Game.__new__(Game)
        scratch.effective, scratch._seqs = self.effective[:position], self._seqs[:position]
        scratch.when, scratch.conflicts = {}, {}
        scratch._snaps = {start: self._snaps[start]}
        scratch._refold(start)
        return scratch.state

    def history(self) -> list[HistoryEntry]:
        tl = self.timeline
        out = []
        for record in self.records:
            turn, phase, attacker = self.when.get(record.seq, (0, "", ""))
            status, reason = "ok", ""
            if ev.is_control(record):
                status = "control"
            elif record.grp in tl.abandoned:
                status = "abandoned"
            elif record.grp in tl.undone:
                status = "undone"
            elif record.seq in tl.struck:
                status = "struck"
                reason = getattr(self.records[tl.struck[record.seq] - 1], "reason", "")
            elif record.seq in self.conflicts:
                status, reason = "conflict", str(self.conflicts[record.seq])
            out.append(HistoryEntry(record.seq, record.grp, record, status, reason,
                                    turn, phase, attacker))
        return out

    def can_undo(self) -> bool:
        return self.timeline.undoable() is not None

    def can_redo(self) -> bool:
        return self.timeline.redoable() is not None


def _stamp(event: ev.Record, seq: int, grp: int, at: str) -> ev.Record:
    return msgspec.structs.replace(event, seq=seq, grp=grp, at=at, v=ev.SCHEMA_VERSION)
