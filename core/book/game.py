"""A game: the core's front door for the CLI and the TUI.

It composes parts that each have one job: the log store (``core.log.store``: the file and
its journal), the timeline (``core.log.game_timeline``: which records count after undo, redo and
strikes, and how each entry stands), the projection (``core.book.projection``: the fold,
the undo journal, views at an entry) and the writer (``core.book.writer``: the write
protocol that moves the three together, and re-reads the file after a failed write).
Every change goes through ``submit``, ``undo``, ``redo``, ``undo_to``, ``strike`` or
``unstrike``: the rules are checked, the records written durably, only then the state
changes, and a ``Change`` (``core.book.change``) says what it did. The previews say the
same and write nothing. ``Game`` keeps no state of its own: it asks its parts.
"""

from __future__ import annotations

import contextlib
import dataclasses
from pathlib import Path

from stockade.core import rules
from stockade.core.book import writer as _writer
from stockade.core.book.change import Change
from stockade.core.book.names_replay import NamesThen, When
from stockade.core.book.projection import Projection
from stockade.core.book.writer import Writer, within_bounds
from stockade.core.log import game_timeline as _history
from stockade.core.log.game_log import LogProblem
from stockade.core.log.game_timeline import HistoryEntry, Timeline
from stockade.core.log.journal import Journal
from stockade.core.log.store import LogStore
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal
from stockade.core.model.names import NameBook
from stockade.core.model.state import GameState

PROGRAM = "stockade 0.1.0"
__all__ = ["Game", "HistoryEntry", "PROGRAM"]


class Game:
    def __init__(
        self,
        records: list[ev.Record],
        journal: Journal | None = None,
        path: Path | None = None,
        warnings: list[str] | None = None,
        problem: LogProblem | None = None,
        log_data: bytes | None = None,
        *,
        writer: Writer | None = None,
    ):
        """The game holding ``records`` (folded from the snapshot cache when
        ``log_data``, the log's bytes, matches one), or the one ``writer`` holds."""
        self.writer = writer or Writer.load(records, journal, path, warnings, problem, log_data)

    # the parts (the writer replaces them when it re-reads the log after an error)
    @property
    def store(self) -> LogStore:
        return self.writer.store

    @property
    def timeline(self) -> Timeline:
        return self.writer.timeline

    @property
    def projection(self) -> Projection:
        return self.writer.projection

    # what the store and the projection hold, read through the front door
    @property
    def records(self) -> list[ev.Record]:
        return self.store.records

    @property
    def path(self) -> Path | None:
        return self.store.path

    @property
    def journal(self) -> Journal | None:
        return self.store.journal

    @property
    def warnings(self) -> list[str]:
        return self.store.warnings

    @property
    def problem(self) -> LogProblem | None:
        return self.store.problem

    @property
    def read_only(self) -> bool:
        return self.store.read_only

    @property
    def state(self) -> GameState:
        return self.projection.state

    @property
    def effective(self) -> list[ev.Record]:
        return self.projection.effective

    @property
    def conflicts(self) -> dict[int, Refusal]:
        return self.projection.conflicts

    @property
    def when(self) -> dict[int, When]:
        return self.projection.when

    @property
    def names(self) -> NameBook:
        return self.projection.names

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
            at=_writer.now(),
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
    def in_memory(
        cls,
        scenario: str,
        sides: list[ev.SideSpec],
        cvp: dict[str, int] | None = None,
        first_attacker: str = "",
    ) -> Game:
        header = ev.GameCreated(
            seq=1,
            grp=1,
            scenario=scenario,
            sides=sides,
            program=PROGRAM,
            cvp=cvp or {},
            first_attacker=first_attacker,
        )
        within_bounds([header])
        rules.step(GameState(), header)
        return cls([header])

    @classmethod
    def open(cls, path: Path, read_only: bool = False) -> Game:
        """Open a log. Raises JournalError if it cannot be read or is not a game.

        The write lock is taken BEFORE the file is read, so no other writer can append
        between reading and writing. ``read_only=True`` never modifies the file.
        """
        return cls([], writer=Writer.open(path, read_only))

    def close(self) -> None:
        if self.path is not None and self.problem is None:
            self.projection.save_snapshot(self.path)
        self.store.close()

    def recover(self) -> None:
        """Re-read the log from disk and carry on from exactly what it holds (after a
        failed write: the journal refuses writes until this succeeds). Raises
        JournalError if the log cannot be read."""
        self.writer.recover()

    def check_log(self) -> str:
        """'' while the log on disk is still the file this game writes, as it left it;
        else what happened, said once (replaced or deleted: the game stopped writing;
        changed by another program: what it holds now, decided by content, and how
        many accepted entries are gone, if any). For the app to ask between entries."""
        return self.writer.check_log()

    def absorb(self, record: ev.Record) -> None:
        """Take in a record another process appended to the log (``core.book.follow``).
        Raises ValueError for a record that does not come next (the caller re-reads)."""
        self.writer.absorb(record)

    # ------------------------------------------------------------------- writing
    def check(self, events: list[ev.Record]) -> None:
        """Raise the Refusal the rules give for ``events``, without writing anything."""
        self.writer.check(events)

    def submit(self, events: list[ev.Record]) -> Change:
        """Check, write durably, then apply one player action. ``Change.appended``
        are the new records' seqs (``records_of(change)`` the records)."""
        return self.writer.submit(events)

    def one_write(self) -> contextlib.AbstractContextManager[None]:
        """Every change made inside the block is written at its end in one write and
        one fsync, or none is (the game is put back as it was): ``stockade run``."""
        return self.writer.one_write()

    def records_of(self, change: Change) -> list[ev.Record]:
        return [self.records[s - 1] for s in change.appended]

    def undo(self) -> Change:
        """Take back the last entry (its whole command group)."""
        return self.writer.undo()

    def redo(self) -> Change:
        return self.writer.redo()

    def undo_to_plan(self, seq: int) -> list[int]:
        """The command groups ``undo_to(seq)`` would undo, last first (the decision the
        replay screen's "undo to here" asks for). Raises the Refusal if none."""
        return _history.undo_to_plan(self.timeline, self.records, seq)

    def undo_to(self, seq: int) -> Change:
        """Undo every entry after entry ``seq`` as one step ("undo to here"), in one
        write (a crash leaves all of the undo records or none); each undone group can
        still be redone in turn."""
        return self.writer.undo_to(seq)

    def preview_undo_to(self, seq: int) -> Change:
        """What ``undo_to(seq)`` would do, writing nothing."""
        return self.writer.preview_undo_to(seq)

    def strike(self, seq: int, reason: str = "") -> Change:
        """Strike entry ``seq``: later entries are folded again and the ``Change`` says
        which of them now do something else (``later``) or no longer hold."""
        return self.writer.strike(seq, reason)

    def unstrike(self, seq: int) -> Change:
        return self.writer.unstrike(seq)

    def preview_strike(self, seq: int) -> Change:
        """What striking ``seq`` would do, without writing anything."""
        return self.writer.preview_strike(seq)

    def preview_unstrike(self, seq: int) -> Change:
        """What unstriking ``seq`` would do, without writing anything."""
        return self.writer.preview_unstrike(seq)

    def amend(
        self, seq: int, event: ev.Record, reason: str = "", *, preview: bool = False
    ) -> Change:
        """Put ``event`` in the place of entry ``seq`` (one record; one undo takes it
        back); later entries are folded again and the ``Change`` says which of them now
        do something else or no longer hold. ``preview``: the same, writing nothing."""
        if preview:
            return self.writer.preview_amend(seq, event, reason)
        return self.writer.amend(seq, event, reason)

    # --------------------------------------------------------- replay, history
    def state_at(self, seq: int) -> GameState:
        """The state after every effective event up to and including ``seq`` (a
        read-only view; ``clone()`` it to change it)."""
        return self.projection.state_at(seq)

    def history(self, *, then: bool = True) -> list[HistoryEntry]:
        """Every record as an entry; one that never folded here has its time from
        ``names_then`` (``then=False``: 0/"", no replay: the TUI's event loop)."""
        folded = self.when
        entries = _history.entries(
            self.records, self.timeline, self.conflicts, folded, self.projection.partial
        )
        never = [i for i, e in enumerate(entries) if e.seq not in folded and e.status != "control"]
        if then and never:
            when = self.names_then().when
            for i in never:
                turn, phase, attacker = when.get(entries[i].seq, (0, "", ""))
                entries[i] = dataclasses.replace(
                    entries[i], turn=turn, phase=phase, attacker=attacker
                )
        return entries

    def names_then(self) -> NamesThen:
        """The names and time of entries that never folded in this process, replayed
        from the log (``core.book.names_replay``) on first use. Kept while the log read is the
        same: every entry this process did not fold was in its log when it was read
        (``recover`` reads it afresh: a new replay). Safe from any thread:
        one caller builds it, another asking meanwhile waits for that one."""
        return self.writer.names_then()

    @property
    def names_then_ready(self) -> bool:
        """Is ``names_then`` built (asking for it now costs nothing)?"""
        return self.writer.replayed is not None

    def needs_names_then(self) -> bool:
        """Is ``names_then`` unbuilt while some entry never folded here?"""
        when, records = self.when, self.records
        return not self.names_then_ready and any(
            r.seq not in when for r in records if not ev.is_control(r)
        )

    def entry_status(self, record: ev.Record) -> tuple[str, str]:
        """How ``record`` stands in the effective history now, and why."""
        return _history.entry_status(record, self.timeline, self.records, self.conflicts)

    def can_undo(self) -> bool:
        return self.timeline.undoable() is not None

    def can_redo(self) -> bool:
        return self.timeline.redoable() is not None
