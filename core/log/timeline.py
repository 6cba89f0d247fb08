"""Undo, redo and strike as appended records: which records of a log are in effect.

Shared by the game (``core.log.game_timeline``) and the Lone Warrior camp (``core.camp.history``);
each log format says which of its record types are control records (``Controls``).

Nothing is ever deleted from a log. Records come in command groups: ``grp`` is the
``seq`` of a group's first record. An undo takes the latest group in effect out (never
the header's group); a redo puts back the group most recently undone, until a new
group is made, after which the undone groups stay in the file as an abandoned branch.
A strike takes one record out of the effective history, an unstrike puts it back.
An amendment puts another event in one record's place: it is a command group of its own
(undo and redo act on it like any group) holding no event at its own place; while that
group is in effect, the effective history holds its event where the record stood.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import filterfalse
from typing import Generic, Literal, Protocol, TypeVar, cast

import msgspec

from stockade.core.model.seq_tables import Groups

HEADER_GROUP = 1  # the log's header (and whatever was written with it): never undone

Action = Literal["undo", "redo", "strike", "unstrike", "amend"]
Refused = Literal["undo", "redo", "log"]  # what a timeline refuses: a control, or a group


class Sequenced(Protocol):
    """A log record as the timeline sees it: its line number and its command group."""

    @property
    def seq(self) -> int: ...

    @property
    def grp(self) -> int: ...


class _Targeted(Sequenced, Protocol):
    @property
    def target(self) -> int: ...


class _Amending(_Targeted, Protocol):
    @property
    def event(self) -> Sequenced: ...


R = TypeVar("R", bound=Sequenced)


class Controls(msgspec.Struct, frozen=True):
    """What a log format's control records do, and how its timeline refuses.

    ``actions`` maps each control record type (exactly: control types are never
    subclassed) to what it does; every other record is a domain event. A record that
    cannot apply raises what ``error(verb, text)`` makes, of the format's own exception
    type ``refused`` (``verb``: "undo", "redo", or "log" for a misplaced group).
    ``check_groups`` also refuses a record that joins a group other than the latest in
    effect, or opens a group that does not start at its own seq (a log written one group
    at a time never does either)."""

    actions: Mapping[type, Action]
    error: Callable[[Refused, str], Exception]
    refused: type[Exception]
    check_groups: bool = False


class Timeline(msgspec.Struct, Generic[R]):
    controls: Controls
    # grp -> its domain events: the records themselves, or (with ``lines``) their seqs
    groups: Groups[R | int] = msgspec.field(default_factory=Groups)
    # group ids in effect, in order (an array: no int object held per group)
    active: array[int] = msgspec.field(default_factory=lambda: array("q"))
    undone: set[int] = msgspec.field(default_factory=set)
    redo_stack: list[int] = msgspec.field(default_factory=list)  # undone groups, last on top
    struck: dict[int, int] = msgspec.field(default_factory=dict)  # struck seq -> strike seq
    abandoned: set[int] = msgspec.field(
        default_factory=set
    )  # undone groups a new entry left behind
    # amended seq -> the amendments of it, in log order (the last in effect stands)
    amends: dict[int, list[int]] = msgspec.field(default_factory=dict)
    replacements: dict[int, R] = msgspec.field(default_factory=dict)  # amendment seq -> its event
    # The log's records by line (seq n at index n - 1) when a group holds only the seqs
    # of its events, each read from ``lines`` when asked for (a long log's records are
    # read again from the file, never all held); None: a group holds its records.
    lines: Sequence[R] | None = None

    def add(self, record: R) -> None:
        """Take one record, in log order, into account; refuse one that cannot apply."""
        action = self.controls.actions.get(type(record))
        if action is None:
            self._add_event(record)
            return
        target = cast(_Targeted, record).target
        if action == "undo":
            self.undo(target)
        elif action == "redo":
            self.redo(target)
        elif action == "strike":
            self.strike(target, record.seq)
        elif action == "amend":
            self.amend(cast(_Amending, record))
        else:
            self.unstrike(target)

    def _open_group(self, grp: int) -> None:
        self.active.append(grp)
        if self.redo_stack:
            self.abandoned.update(self.redo_stack)
            self.redo_stack.clear()

    def amend(self, record: _Amending) -> None:
        """Record ``record`` putting its event in the place of entry ``target``: a new
        group of its own. Refused when the event is not one for that place (it must
        carry the seq and group of a domain event before it)."""
        target, event = record.target, record.event
        if not 1 <= target < record.seq or event.seq != target:
            raise self.controls.error("log", f"an amendment of entry {target} that fits no entry")
        if target not in self.group_seqs(event.grp):
            raise self.controls.error("log", f"entry {target} is not an event of group {event.grp}")
        self.groups[record.seq] = []
        self._open_group(record.seq)
        self.amends.setdefault(target, []).append(record.seq)
        self.replacements[record.seq] = cast(R, event)

    def standing(self, record: R) -> R:
        """What stands in ``record``'s place: the event of its last amendment in
        effect, or the record itself."""
        made = self.amends.get(record.seq)
        if made:
            undone = self.undone
            for seq in reversed(made):
                if seq not in undone:
                    return self.replacements[seq]
        return record

    def amendment_of(self, seq: int) -> int:
        """The seq of the amendment in effect of entry ``seq`` (0: none)."""
        for amendment in reversed(self.amends.get(seq, ())):
            if amendment not in self.undone:
                return amendment
        return 0

    def _add_event(self, record: R) -> None:
        grp = record.grp
        groups = self.groups
        if self.controls.check_groups:
            if grp in groups:
                if grp != self.active[-1]:
                    raise self.controls.error(
                        "log", f"group {grp} is not the latest group in effect"
                    )
            elif grp != record.seq:
                raise self.controls.error(
                    "log", f"a new group must start at its own seq, not {grp}"
                )
        if groups.add(grp, record if self.lines is None else record.seq):
            self._open_group(grp)

    def group(self, grp: int) -> list[R]:
        """The domain events of group ``grp`` (none if it has none), in log order."""
        items = self.groups.get(grp, ())
        lines = self.lines
        if lines is None:
            return cast(list[R], list(items))
        return [lines[cast(int, seq) - 1] for seq in items]

    def group_seqs(self, grp: int) -> list[int]:
        """The seqs of group ``grp``'s domain events, without reading one."""
        items = self.groups.get(grp, ())
        if self.lines is None:
            return [cast(R, r).seq for r in items]
        return cast(list[int], list(items))

    def undo(self, target: int) -> None:
        active = self.active
        if not active or active[-1] != target or target == HEADER_GROUP:  # not undoable()
            latest = self.undoable()
            now = f"the latest is {latest}" if latest is not None else "nothing can be undone"
            raise self.controls.error("undo", f"undo of group {target}, but {now}")
        active.pop()
        self.undone.add(target)
        self.redo_stack.append(target)

    def redo(self, target: int) -> None:
        stack = self.redo_stack
        if not stack or stack[-1] != target:  # not redoable()
            latest = self.redoable()
            now = f"the next is {latest}" if latest is not None else "nothing is undone"
            raise self.controls.error("redo", f"redo of group {target}, but {now}")
        stack.pop()
        self.undone.discard(target)
        self.active.append(target)

    def strike(self, target: int, seq: int) -> None:
        """Record ``seq`` striking entry ``target`` (the writer has checked it may)."""
        self.struck[target] = seq

    def unstrike(self, target: int) -> None:
        self.struck.pop(target, None)

    def copy(self) -> Timeline[R]:
        """An independent timeline to try a record on before it is written."""
        return Timeline(
            self.controls,
            self.groups.copy(),
            array("q", self.active),
            set(self.undone),
            list(self.redo_stack),
            dict(self.struck),
            set(self.abandoned),
            {seq: list(made) for seq, made in self.amends.items()},
            dict(self.replacements),
            self.lines,
        )

    # -- questions --------------------------------------------------------------
    def undoable(self) -> int | None:
        """The group an undo would take back (never the header's)."""
        if self.active and self.active[-1] != HEADER_GROUP:
            return self.active[-1]
        return None

    def redoable(self) -> int | None:
        return self.redo_stack[-1] if self.redo_stack else None

    def is_effective(self, record: R) -> bool:
        return record.grp not in self.undone and record.seq not in self.struck

    def effective(self) -> list[R]:
        """The domain events in effect, in group order."""
        lines = self.lines
        if lines is not None:
            return self._amended([lines[seq - 1] for seq in self.effective_seqs()])
        out: list[R] = []
        groups, struck = cast(Groups[R], self.groups), self.struck
        if not struck:
            out = cast(list[R], self.groups.flat(self.active))
        else:
            for grp in self.active:
                out.extend(r for r in groups[grp] if r.seq not in struck)
        return self._amended(out)

    def effective_seqs(self) -> list[int]:
        """The seqs of the domain events in effect, in group order (an amended entry's
        standing event has the seq of the entry it stands for), none of them read."""
        if self.lines is None:
            return [r.seq for r in self.effective()]
        struck = self.struck
        seqs = cast(list[int], self.groups.flat(self.active))
        return list(filterfalse(struck.__contains__, seqs)) if struck else seqs

    def effective_seq_array(self) -> array[int]:
        """``effective_seqs`` as an array: a copy of ``active`` when every group holds
        its own seq alone and none is struck (a long log's usual case: no int object
        made a seq, which a history of any length would hold at once)."""
        if self.lines is not None and not self.struck and not self.groups.parts()[1]:
            return array("q", self.active)
        return array("q", self.effective_seqs())

    def _amended(self, records: list[R]) -> list[R]:
        """``records`` with each amended entry's standing event in its place."""
        if not self.amends:
            return records
        amends, standing = self.amends, self.standing
        return [standing(r) if r.seq in amends else r for r in records]

    def count(self) -> int:
        """How many records ``effective()`` holds."""
        if self.lines is not None:
            return len(self.effective_seqs())
        if not self.struck:
            return sum(map(self.groups.size, self.active))
        return len(self.effective())

    def effective_of(self, records: Iterable[R]) -> list[R]:
        """``effective()``, given every record this timeline was built from, in order.

        Faster for a long log: one filtering pass over the records, used when it
        provably gives the same list, i.e. when the kept records' groups never go
        down (each group's records then come together, in group order, as
        ``effective()`` puts them); otherwise ``effective()``."""
        if self.lines is not None:
            return self.effective()
        control, undone, struck = self.controls.actions, self.undone, self.struck
        out = [
            r
            for r in records
            if type(r) not in control and r.grp not in undone and r.seq not in struck
        ]
        grps = [r.grp for r in out]
        if grps != sorted(grps):
            return self.effective()
        return self._amended(out)


def build(
    controls: Controls,
    records: Iterable[R],
    skip_refused: bool = True,
    lines: Sequence[R] | None = None,
) -> Timeline[R]:
    """A timeline of ``records`` in order: ``Timeline.add`` for each, its domain-event
    branch inlined when groups are not checked (opening a 100k-entry game spends most
    of its non-fold time here). With ``skip_refused`` a control record that no longer
    applies (a buggy or hand-edited log) is ignored rather than losing the game.
    ``lines``: the records by line, read again when asked for (``Timeline.lines``)."""
    timeline: Timeline[R] = Timeline(controls, lines=lines)
    extend(timeline, records, skip_refused)
    return timeline


def extend(timeline: Timeline[R], records: Iterable[R], skip_refused: bool = True) -> None:
    """``build``'s loop: take ``records`` into ``timeline``, in order (a long log is
    taken in a piece at a time, as it is read)."""
    controls = timeline.controls
    actions = controls.actions
    if controls.check_groups:
        for record in records:
            if type(record) in actions:
                _add_control(timeline, record, skip_refused)
            else:
                timeline.add(record)
        return
    add, active, redo_stack = timeline.groups.add, timeline.active, timeline.redo_stack
    by_seq = timeline.lines is not None
    for record in records:
        if type(record) in actions:
            _add_control(timeline, record, skip_refused)
            continue
        grp = record.grp
        if add(grp, record.seq if by_seq else record):
            active.append(grp)
            if redo_stack:
                timeline.abandoned.update(redo_stack)
                redo_stack.clear()


def _add_control(timeline: Timeline[R], record: R, skip_refused: bool) -> None:
    if not skip_refused:
        timeline.add(record)
        return
    try:
        timeline.add(record)
    except timeline.controls.refused:
        return  # a control record that no longer applies: ignored (see ``build``)
