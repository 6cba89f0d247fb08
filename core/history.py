"""The effective history: which domain events count, after undo, redo and strikes.

All records stay in the log. Undo and redo act on command groups (``grp``): undo takes
back the last active group; redo brings back the most recently undone one, until a new
entry is made, after which the undone groups stay in the file as an abandoned branch.
A strike removes one event from the effective history; every later event is checked
again when the state is folded (see ``core.game``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from stockade.core import events as ev
from stockade.core.errors import Refusal


@dataclass
class Timeline:
    active: list[int] = field(default_factory=list)  # active group ids, in order
    undone: set[int] = field(default_factory=set)
    redo_stack: list[int] = field(default_factory=list)
    struck: dict[int, int] = field(default_factory=dict)  # struck seq -> strike seq
    groups: dict[int, list[ev.Record]] = field(default_factory=dict)  # grp -> domain events
    abandoned: set[int] = field(default_factory=set)  # undone groups a new entry left behind

    def add(self, record: ev.Record) -> None:
        """Take one record, in log order, into account."""
        if isinstance(record, ev.Undo):
            self.undo(record.target)
        elif isinstance(record, ev.Redo):
            self.redo(record.target)
        elif isinstance(record, ev.Strike):
            self.struck[record.target] = record.seq
        elif isinstance(record, ev.Unstrike):
            self.struck.pop(record.target, None)
        else:
            group = self.groups.get(record.grp)
            if group is None:
                self.groups[record.grp] = [record]
                self.active.append(record.grp)
                self.abandoned.update(self.redo_stack)
                self.redo_stack.clear()
            else:
                group.append(record)

    def undo(self, target: int) -> None:
        if not self.active or self.active[-1] != target:
            raise Refusal("undo", f"entry group {target} is not the last entry")
        self.active.pop()
        self.undone.add(target)
        self.redo_stack.append(target)

    def redo(self, target: int) -> None:
        if not self.redo_stack or self.redo_stack[-1] != target:
            raise Refusal("redo", f"entry group {target} is not the last undone entry")
        self.redo_stack.pop()
        self.undone.discard(target)
        self.active.append(target)

    # -- questions --------------------------------------------------------------
    def undoable(self) -> int | None:
        """The group an undo would take back (never the game header)."""
        if self.active and self.active[-1] != 1:
            return self.active[-1]
        return None

    def redoable(self) -> int | None:
        return self.redo_stack[-1] if self.redo_stack else None

    def is_effective(self, record: ev.Record) -> bool:
        return record.grp not in self.undone and record.seq not in self.struck

    def effective(self) -> list[ev.Record]:
        out: list[ev.Record] = []
        groups, struck = self.groups, self.struck
        if not struck:
            for grp in self.active:
                out += groups[grp]
            return out
        for grp in self.active:
            out.extend(r for r in groups[grp] if r.seq not in struck)
        return out

    def effective_of(self, records: list[ev.Record]) -> list[ev.Record]:
        """``effective()``, given every record this timeline was built from, in order.

        Faster for a long log: one filtering pass over the records, used when it
        provably gives the same list, i.e. when the kept records' groups never go
        down (each group's records then come together, in group order, as
        ``effective()`` puts them); otherwise ``effective()``."""
        control, undone, struck = _CONTROL_TYPES, self.undone, self.struck
        out = [
            r
            for r in records
            if type(r) not in control and r.grp not in undone and r.seq not in struck
        ]
        grps = [r.grp for r in out]
        if grps != sorted(grps):
            return self.effective()
        return out


# Record types ``Timeline.add`` treats as control records (the others are domain
# events). ``build_timeline`` tests exact types: no record type is subclassed.
_CONTROL_TYPES = frozenset({ev.Undo, ev.Redo, ev.Strike, ev.Unstrike})


def build_timeline(records: list[ev.Record]) -> Timeline:
    """``Timeline.add`` for every record in order, its domain-event branch inlined
    (opening a 100k-entry game spends most of its non-fold time here)."""
    timeline = Timeline()
    groups, active, redo_stack = timeline.groups, timeline.active, timeline.redo_stack
    control = _CONTROL_TYPES
    for record in records:
        if type(record) in control:
            try:
                timeline.add(record)
            except Refusal:
                # A control record that no longer applies (written by a buggy or
                # hand-edited log) is ignored rather than losing the game.
                continue
        else:
            grp = record.grp
            group = groups.get(grp)
            if group is None:
                groups[grp] = [record]
                active.append(grp)
                if redo_stack:
                    timeline.abandoned.update(redo_stack)
                    redo_stack.clear()
            else:
                group.append(record)
    return timeline


# ------------------------------------------------------------ entries, as they stand
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
    rule: str = ""  # a conflict's rule id, as a field (``reason`` is the whole message)


def entry_status(
    record: ev.Record, timeline: Timeline, records: list[ev.Record], conflicts: dict[int, Refusal]
) -> tuple[str, str]:
    """How ``record`` stands in the effective history now, and why."""
    if ev.is_control(record):
        return "control", ""
    if record.grp in timeline.abandoned:
        return "abandoned", ""
    if record.grp in timeline.undone:
        return "undone", ""
    if record.seq in timeline.struck:
        return "struck", getattr(records[timeline.struck[record.seq] - 1], "reason", "")
    if record.seq in conflicts:
        return "conflict", str(conflicts[record.seq])
    return "ok", ""


def entries(
    records: list[ev.Record],
    timeline: Timeline,
    conflicts: dict[int, Refusal],
    when: dict[int, tuple[int, str, str]],
) -> list[HistoryEntry]:
    """Every record as a history entry: its status, and when it happened."""
    out = []
    for record in records:
        turn, phase, attacker = when.get(record.seq, (0, "", ""))
        status, reason = entry_status(record, timeline, records, conflicts)
        rule = conflicts[record.seq].rule if status == "conflict" else ""
        out.append(
            HistoryEntry(
                record.seq, record.grp, record, status, reason, turn, phase, attacker, rule
            )
        )
    return out


# ------------------------------------------------- what undo-to and strike may act on
def undo_to_plan(timeline: Timeline, records: list[ev.Record], seq: int) -> list[int]:
    """The command groups "undo to entry ``seq``" undoes, last first; the Refusal if
    there are none (the replay screen and ``Game.undo_to`` both ask this)."""
    if not 1 <= seq <= len(records):
        raise Refusal("undo", f"there is no entry {seq}")
    anchor = records[seq - 1]
    if ev.is_control(anchor):
        raise Refusal("undo", f"entry {seq} is an undo/redo/strike record; pick an event")
    if anchor.grp in timeline.undone:
        raise Refusal("undo", f"entry {seq} is itself undone")
    targets = [g for g in reversed(timeline.active) if g > anchor.grp]
    if not targets:
        raise Refusal("undo", f"nothing after entry {seq} to undo")
    return targets


def strikable(timeline: Timeline, records: list[ev.Record], seq: int, verb: str) -> ev.Record:
    """Entry ``seq``, if it may be struck (``verb`` "strike") or unstruck; else the
    Refusal saying why not."""
    if not 1 <= seq <= len(records):
        raise Refusal("strike", f"there is no entry {seq}")
    record = records[seq - 1]
    if ev.is_control(record):
        raise Refusal("strike", f"entry {seq} is an undo/redo/strike record, not an event")
    if isinstance(record, ev.GameCreated):
        raise Refusal("strike", "the game header cannot be struck")
    struck = seq in timeline.struck
    if verb == "unstrike" and not struck:
        raise Refusal("unstrike", f"entry {seq} is not struck")
    if verb == "strike" and struck:
        raise Refusal("strike", f"entry {seq} is already struck")
    if verb == "strike" and record.grp in timeline.undone:
        raise Refusal("strike", f"entry {seq} is undone; nothing to strike")
    return record
