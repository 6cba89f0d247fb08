"""A game: the core's front door for the CLI and the TUI.

It composes three parts, each with one job: the log store (``core.store``: the file,
the journal, opening and recovering), the timeline (``core.history``: which records
count after undo, redo and strikes) and the projection (``core.projection``: the
fold, the undo journal, views at an entry). Every change goes through ``submit``,
``undo``, ``redo``, ``undo_to``, ``strike`` or ``unstrike``: the rules are checked,
the records written durably, only then the state changes, and a ``Change``
(``core.change``) says what it did. The previews say the same and write nothing.
"""

from __future__ import annotations

import datetime as _dt
import functools
import time
from pathlib import Path
from typing import Any

import msgspec

from stockade.core import events as ev
from stockade.core import history as _history
from stockade.core import rules
from stockade.core.bounds import check_records
from stockade.core.change import Change
from stockade.core.consequences import Observer, make_change
from stockade.core.errors import Refusal
from stockade.core.history import HistoryEntry, Timeline, build_timeline
from stockade.core.journal import Journal, JournalError
from stockade.core.logfile import LogProblem
from stockade.core.projection import Projection, gc_paused
from stockade.core.state import GameState
from stockade.core.store import LogStore

PROGRAM = "stockade 0.1.0"
__all__ = ["Game", "HistoryEntry", "PROGRAM"]


def _now() -> str:
    return _iso_second(int(time.time()))


@functools.lru_cache(maxsize=1)
def _iso_second(second: int) -> str:
    """The entry time, made once a second (formatting a datetime cost ~1 µs a write)."""
    return _dt.datetime.fromtimestamp(second, _dt.UTC).isoformat(timespec="seconds")


_RECORD_DECODER = msgspec.json.Decoder(ev.AnyRecord)


def within_bounds(records: list[ev.Record]) -> None:
    """Hold what a command would record to the bounds a log line is held to (issue 13):
    a Refusal naming the field, before any rule sees the values."""
    try:
        check_records(records, _RECORD_DECODER)
    except ValueError as exc:
        raise Refusal("input", f"cannot be recorded: {exc}") from None


def _stamp(event: ev.Record, seq: int, grp: int, at: str) -> ev.Record:
    return msgspec.structs.replace(event, seq=seq, grp=grp, at=at, v=ev.SCHEMA_VERSION)


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
        path = Path(path) if path else None
        self.store = LogStore(list(records), journal, path, list(warnings or []), problem)
        self.timeline: Timeline = build_timeline(self.store.records)
        fold = Projection(self.timeline.effective_of(self.store.records), fold=False)
        if log_data is None or path is None or not fold.from_snapshot(path, log_data):
            fold.fold_all()
        self.projection = fold

    # what the store and the projection hold, read through the front door
    records = property(lambda self: self.store.records)
    path = property(lambda self: self.store.path)
    journal = property(lambda self: self.store.journal)
    warnings = property(lambda self: self.store.warnings)
    problem = property(lambda self: self.store.problem)
    read_only = property(lambda self: self.store.read_only)
    state = property(lambda self: self.projection.state)
    effective = property(lambda self: self.projection.effective)
    conflicts = property(lambda self: self.projection.conflicts)
    when = property(lambda self: self.projection.when)
    names = property(lambda self: self.projection.names)

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
        within_bounds([header])
        rules.step(GameState(), header)  # refuse a bad header before creating a file
        store = LogStore.create(Path(path), header)
        return cls(store.records, journal=store.journal, path=path)

    @classmethod
    def in_memory(cls, scenario: str, sides: list[ev.SideSpec], **kw: Any) -> Game:
        header = ev.GameCreated(seq=1, grp=1, scenario=scenario, sides=sides, program=PROGRAM, **kw)
        within_bounds([header])
        rules.step(GameState(), header)
        return cls([header])

    @classmethod
    def open(cls, path: Path, read_only: bool = False) -> Game:
        """Open a log. Raises JournalError if it cannot be read or is not a game.

        The write lock is taken BEFORE the file is read, so no other writer can append
        between reading and writing. ``read_only=True`` never modifies the file.
        """
        with gc_paused():
            store, log_data = LogStore.open(Path(path), read_only)
            return cls(
                store.records, store.journal, store.path, store.warnings, store.problem, log_data
            )

    def close(self) -> None:
        if self.path is not None and self.problem is None:
            self.projection.save_snapshot(self.path)
        self.store.close()

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

    def check_log(self) -> str:
        """'' while the log on disk is still the file this game writes; else the
        message, once the game has stopped writing (read-only). For the app to ask
        between entries (issue 13)."""
        return self.store.check_log()

    # ------------------------------------------- following another writer (follow.py)
    def absorb(self, record: ev.Record) -> None:
        """Take in a record another process appended to the log: the same effect on
        this game as the call that wrote it there had on the writer's, nothing written
        (``core.follow``: a read-only window following the one that writes). Raises
        ValueError for a record that does not come next (the caller re-reads)."""
        if record.seq != len(self.records) + 1 or isinstance(record, ev.GameCreated):
            raise ValueError(f"entry {record.seq} does not follow entry {len(self.records)}")
        fold = self.projection
        with fold.lock:
            try:
                self.timeline.add(record)
            except Refusal as refusal:
                raise ValueError(f"entry {record.seq}: {refusal}") from None
            self.records.append(record)
            if isinstance(record, ev.Undo):
                fold.rollback(fold.keep_upto_group(record.target - 1))
            elif isinstance(record, ev.Redo):
                for redone in self.timeline.groups.get(record.target, []):
                    if redone.seq not in self.timeline.struck:
                        fold.append(redone)
            elif isinstance(record, ev.Strike | ev.Unstrike):
                if 1 <= record.target < record.seq:
                    action = "strike" if isinstance(record, ev.Strike) else "unstrike"
                    self._refold(record.target, action, [record.seq])
            else:
                fold.append(record)

    # ------------------------------------------------------------------- writing
    def check(self, events: list[ev.Record]) -> None:
        """Raise the Refusal the rules give for ``events``, without writing anything."""
        if self.problem:
            raise Refusal("log", f"this log is read-only: {self.problem}")
        within_bounds(events)
        self.projection.check(events)

    def _append_records(self, stamped: list[ev.Record]) -> None:
        self.store.write(stamped, self._after_write_error)
        for record in stamped:
            self.records.append(record)
            self.timeline.add(record)

    def _control(self, record: ev.Record) -> ev.Record:
        n = len(self.records) + 1
        stamped = _stamp(record, n, n, _now())
        if not isinstance(record, ev.Undo | ev.Redo):  # those hold only a group seq the
            within_bounds([stamped])  # timeline chose; a strike holds a reason typed in
        self._append_records([stamped])
        return stamped

    def submit(self, events: list[ev.Record]) -> Change:
        """Check, write durably, then apply one player action. ``Change.appended``
        are the new records' seqs (``records_of(change)`` the records)."""
        if not events:
            return Change(action="submit", conflicts=len(self.conflicts))
        self.check(events)
        first, at = len(self.records) + 1, _now()
        stamped = [_stamp(e, first + i, first, at) for i, e in enumerate(events)]
        tl = self.timeline
        left = [r.seq for g in tl.redo_stack for r in tl.groups.get(g, ())]
        self.store.write(stamped, self._after_write_error)
        fold = self.projection
        with fold.lock:
            obs = Observer(fold.state, fold.conflicts, stamped, False)
            for record in stamped:
                self.records.append(record)
                tl.add(record)
                fold.append(record, obs)
            seqs = [r.seq for r in stamped]
            return make_change(
                obs, self, "submit", target=first, appended=seqs, added=seqs, abandoned=left
            )

    def records_of(self, change: Change) -> list[ev.Record]:
        return [self.records[s - 1] for s in change.appended]

    def _roll_back_to(self, keep: int, action: str, target: int, written: list[int]) -> Change:
        fold = self.projection
        with fold.lock:
            tail = fold.effective[keep:]
            obs = Observer(fold.state, fold.conflicts, tail, False)
            fold.rollback(keep, obs)
            undone = [r.seq for r in tail]
            return make_change(obs, self, action, target=target, appended=written, undone=undone)

    # -------------------------------------------------------------- undo / redo
    def undo(self) -> Change:
        """Take back the last entry (its whole command group)."""
        target = self.timeline.undoable()
        if target is None:
            raise Refusal("undo", "nothing to undo")
        written = self._control(ev.Undo(target=target))
        keep = self.projection.keep_upto_group(target - 1)
        return self._roll_back_to(keep, "undo", target, [written.seq])

    def undo_to_plan(self, seq: int) -> list[int]:
        """The command groups ``undo_to(seq)`` would undo, last first (the decision the
        replay screen's "undo to here" asks for). Raises the Refusal if none."""
        return _history.undo_to_plan(self.timeline, self.records, seq)

    def undo_to(self, seq: int) -> Change:
        """Undo every entry after entry ``seq`` as one step ("undo to here"), in one
        write (a crash leaves all of the undo records or none); each undone group can
        still be redone in turn."""
        targets = self.undo_to_plan(seq)
        first, at = len(self.records) + 1, _now()
        stamped = [
            _stamp(ev.Undo(target=g), first + i, first + i, at) for i, g in enumerate(targets)
        ]
        self._append_records(stamped)
        keep = self.projection.keep_upto_group(self.records[seq - 1].grp)
        return self._roll_back_to(keep, "undo_to", seq, [r.seq for r in stamped])

    def preview_undo_to(self, seq: int) -> Change:
        """What ``undo_to(seq)`` would do, writing nothing."""
        self.undo_to_plan(seq)
        fold = self.projection
        with fold.lock:
            keep = fold.keep_upto_group(self.records[seq - 1].grp)
            tail = fold.effective[keep:]
            return self._preview(keep, tail, [], "undo_to", seq, undone=[r.seq for r in tail])

    def redo(self) -> Change:
        target = self.timeline.redoable()
        if target is None:
            raise Refusal("redo", "nothing to redo")
        written = self._control(ev.Redo(target=target))
        fold = self.projection
        with fold.lock:
            back = [r for r in self.timeline.groups[target] if r.seq not in self.timeline.struck]
            obs = Observer(fold.state, fold.conflicts, back, False)
            for record in back:
                fold.append(record, obs)
            restored = [r.seq for r in back]
            return make_change(
                obs, self, "redo", target=target, appended=[written.seq], restored=restored
            )

    # ------------------------------------------------------------ strike / unstrike
    def _strikable(self, seq: int, verb: str = "strike") -> ev.Record:
        return _history.strikable(self.timeline, self.records, seq, verb)

    def strike(self, seq: int, reason: str = "") -> Change:
        """Strike entry ``seq``: later entries are folded again and the ``Change`` says
        which of them now do something else (``later``) or no longer hold."""
        self._strikable(seq)
        written = self._control(ev.Strike(target=seq, reason=reason))
        return self._refold(seq, "strike", [written.seq])

    def unstrike(self, seq: int) -> Change:
        self._strikable(seq, "unstrike")
        written = self._control(ev.Unstrike(target=seq))
        return self._refold(seq, "unstrike", [written.seq])

    def preview_strike(self, seq: int) -> Change:
        """What striking ``seq`` would do, without writing anything."""
        self._strikable(seq)
        return self._refold(seq, "strike", [], preview=True)

    def preview_unstrike(self, seq: int) -> Change:
        """What unstriking ``seq`` would do, without writing anything."""
        self._strikable(seq, "unstrike")
        return self._refold(seq, "unstrike", [], preview=True)

    def _refold(self, seq: int, action: str, written: list[int], preview: bool = False) -> Change:
        """Entry ``seq`` leaves (strike) or rejoins (unstrike) the effective history:
        fold the tail from its place again, watching what each later entry does."""
        fold = self.projection
        with fold.lock:
            position, present = fold.position_of(seq)
            tail = fold.effective[position:]
            record = self.records[seq - 1]
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
            obs = Observer(fold.state, fold.conflicts, tail + new_tail, True)
            fold.replace_tail(position, new_tail, obs)
            return make_change(obs, self, action, target=seq, appended=written, **{how: [seq]})

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
        obs = Observer(fold.state, fold.conflicts, tail + new_tail, True)
        with fold.trial(position, tail, new_tail, obs):
            return make_change(obs, self, action, target=seq, preview=True, **lists)

    # --------------------------------------------------------- replay, history
    def state_at(self, seq: int) -> GameState:
        """The state after every effective event up to and including ``seq`` (a
        read-only view; ``clone()`` it to change it)."""
        return self.projection.state_at(seq)

    def history(self) -> list[HistoryEntry]:
        return _history.entries(self.records, self.timeline, self.conflicts, self.when)

    def entry_status(self, record: ev.Record) -> tuple[str, str]:
        """How ``record`` stands in the effective history now, and why."""
        return _history.entry_status(record, self.timeline, self.records, self.conflicts)

    def can_undo(self) -> bool:
        return self.timeline.undoable() is not None

    def can_redo(self) -> bool:
        return self.timeline.redoable() is not None
