"""Undo and redo as appended records: which groups of the log are in effect.

Nothing is ever deleted from a log. An ``Undo`` takes the latest group in effect out,
a ``Redo`` puts back the group most recently undone, and any new input forgets what
could have been redone -- the usual editor rules, derived here from the records alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from stockade.core.camp.errors import CampError
from stockade.core.camp.events import Record, Redo, Undo

HEADER_GROUP = 1  # the header and the set-up rolls made with it: never undone


@dataclass
class Timeline:
    groups: dict[int, list[Record]] = field(default_factory=lambda: {HEADER_GROUP: []})
    active: list[int] = field(default_factory=lambda: [HEADER_GROUP])
    undone: list[int] = field(default_factory=list)  # the redo stack, last on top

    def add(self, record: Record) -> None:
        """Take one record (not the header) in log order; refuse an impossible one."""
        if isinstance(record, Undo):
            if record.target != self.undo_target():
                raise CampError(
                    f"undo of group {record.target}, but the latest is {self.undo_target()}"
                )
            self.undone.append(self.active.pop())
        elif isinstance(record, Redo):
            if record.target != self.redo_target():
                raise CampError(
                    f"redo of group {record.target}, but the next is {self.redo_target()}"
                )
            self.active.append(self.undone.pop())
        elif record.grp in self.groups:
            if record.grp != self.active[-1]:
                raise CampError(f"group {record.grp} is not the latest group in effect")
            self.groups[record.grp].append(record)
        else:
            if record.grp != record.seq:
                raise CampError(f"a new group must start at its own seq, not {record.grp}")
            self.groups[record.grp] = [record]
            self.active.append(record.grp)
            self.undone.clear()

    def undo_target(self) -> int | None:
        return self.active[-1] if self.active[-1] != HEADER_GROUP else None

    def redo_target(self) -> int | None:
        return self.undone[-1] if self.undone else None

    def events(self) -> list[Record]:
        """The game events in effect, in log order."""
        return [r for g in self.active for r in self.groups[g]]

    def count(self) -> int:
        return sum(len(self.groups[g]) for g in self.active)
