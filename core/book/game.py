"""A game: the core's front door for the CLI and the TUI.

It is its writer (``core.book.writer``), over parts that each have one job: the log
store (``core.log.store``: the file and its journal), the timeline
(``core.log.game_timeline``: which records count after undo, redo and strikes, and how
each entry stands) and the projection (``core.book.projection``: the fold, the undo
journal, views at an entry); the writer's protocol moves the three together and re-reads
the file after a failed write. Every change goes through ``submit``, ``undo``, ``redo``,
``undo_to``, ``strike`` or ``unstrike``: the rules are checked, the records written
durably, only then the state changes, and a ``Change`` (``core.book.change``) says what
it did. The previews say the same and write nothing. ``Game`` adds no state and no
second path to the writer's: it adds the ways a game is made (``create``,
``in_memory``; ``open`` and ``load`` are the writer's) and what the CLI and the TUI
read (history, entry status, views).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from pathlib import Path

from stockade.core import rules
from stockade.core.book import writer as _writer
from stockade.core.book.change import Change
from stockade.core.book.game_parts import lines_of
from stockade.core.book.writer import Writer, within_bounds
from stockade.core.log import game_timeline as _history
from stockade.core.log.game_log import LogProblem
from stockade.core.log.game_timeline import HistoryEntry
from stockade.core.log.journal import Journal
from stockade.core.log.store import LogStore
from stockade.core.model import events as ev
from stockade.core.model.state import GameState

PROGRAM = "stockade 0.1.0"
__all__ = ["Game", "HistoryEntry", "PROGRAM"]


class Game(Writer):
    """One game, opened (``open``), made (``create``, ``in_memory``) or held in memory
    (``load``). Its writes, previews and recovery are the writer's own methods
    (``core.book.writer.Writer``: ``submit``, ``undo``, ``strike``, ...); what is here
    reads the game for the CLI and the TUI."""

    # what the store and the projection hold, read through the front door
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
    def effective(self) -> Sequence[ev.Record]:
        return self.projection.effective

    # ------------------------------------------------------------------ opening
    @classmethod
    def create(
        cls,
        path: Path,
        scenario: str,
        sides: list[ev.SideSpec],
        cvp: dict[str, int] | None = None,
        first_attacker: str = "",
        strict: bool = False,
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
            strict=strict,
        )
        within_bounds([header])
        rules.step(GameState(), header)  # refuse a bad header before creating a file
        store = LogStore.create(Path(path), header)
        return cls.from_store(store)

    @classmethod
    def in_memory(
        cls,
        scenario: str,
        sides: list[ev.SideSpec],
        cvp: dict[str, int] | None = None,
        first_attacker: str = "",
        strict: bool = False,
    ) -> Game:
        header = ev.GameCreated(
            seq=1,
            grp=1,
            scenario=scenario,
            sides=sides,
            program=PROGRAM,
            cvp=cvp or {},
            first_attacker=first_attacker,
            strict=strict,
        )
        within_bounds([header])
        rules.step(GameState(), header)
        return cls.load([header])

    def close(self) -> None:
        if self.path is not None and self.problem is None:
            store, timeline = self.store, self.timeline
            lines = lambda: lines_of(store, timeline)  # noqa: E731 - made only if written
            self.projection.save_snapshot(self.path, store.content_key(), lines)
        self.store.close()

    def records_of(self, change: Change) -> list[ev.Record]:
        return [self.records[s - 1] for s in change.appended]

    def undo_to_plan(self, seq: int) -> list[int]:
        """The command groups ``undo_to(seq)`` would undo, last first (the decision the
        replay screen's "undo to here" asks for). Raises the Refusal if none."""
        return _history.undo_to_plan(self.timeline, self.records, seq)

    # --------------------------------------------------------- replay, history
    def state_at(self, seq: int) -> GameState:
        """The state after every effective event up to and including ``seq`` (a
        read-only view; ``clone()`` it to change it)."""
        return self.projection.state_at(seq)

    def history(self, *, then: bool = True) -> list[HistoryEntry]:
        """Every record as an entry; one that never folded here has its time from
        ``names_then`` (``then=False``: 0/"", no replay: the TUI's event loop)."""
        return list(self.iter_history(then=then))

    def iter_history(self, *, then: bool = True) -> Iterator[HistoryEntry]:
        """``history``, one entry at a time (a long log's is never held whole): the
        replay is built at the first entry that needs it, as ``history`` builds it."""
        folded = self.when
        for entry in _history.iter_entries(
            self.records, self.timeline, self.conflicts, folded, self.projection.partial
        ):
            if then and entry.seq not in folded and entry.status != "control":
                turn, phase, attacker = self.names_then().when.get(entry.seq, (0, "", ""))
                entry = dataclasses.replace(entry, turn=turn, phase=phase, attacker=attacker)
            yield entry

    @property
    def names_then_ready(self) -> bool:
        """Is ``names_then`` built (asking for it now costs nothing)?"""
        return self.replayed is not None

    def needs_names_then(self) -> bool:
        """Is ``names_then`` unbuilt while some entry never folded here?"""
        when, timeline = self.when, self.timeline
        return not self.names_then_ready and any(
            seq not in when for grp in timeline.groups for seq in timeline.group_seqs(grp)
        )

    def entry_status(self, record: ev.Record) -> tuple[str, str]:
        """How ``record`` stands in the effective history now, and why."""
        return _history.entry_status(record, self.timeline, self.records, self.conflicts)

    def can_undo(self) -> bool:
        return self.timeline.undoable() is not None

    def can_redo(self) -> bool:
        return self.timeline.redoable() is not None
