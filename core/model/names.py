"""How an entry named its units when it was recorded.

A history sentence must read the same forever: "German 2-4-7 (g2) entered in M6"
stays so after g2 rearms as a 2-3-6. So while an event folds, the fold keeps, for each
unit the event mentions, its side, counter(s) and Location as they were just before
the event (for a unit the event brings into play: just after it). ``core.book.describe``
words the entry from these, never from the state as it is now.

Names are kept per entry as a tuple of ``(handle, "German 2-4-7", "M6")``; an unchanged
name is the very same tuple as the last entry's (one object per unit and name, not one
per entry).
"""

from __future__ import annotations

import operator
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar, overload

from stockade.core.model import events as ev
from stockade.core.model.seq_tables import SeqTable
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import Unit

Name = tuple[str, str, str]  # handle, "side counter(s)", Location
D = TypeVar("D")

# The fields of each kind of event that hold unit handles its sentence names.
MENTIONS: dict[type, tuple[str, ...]] = {
    ev.UnitEntered: ("handle",),
    ev.StatusChanged: ("handle",),
    ev.Surrendered: ("units", "guard"),
    ev.SurrenderRejected: ("units",),
    ev.Captured: ("guard", "units", "split"),
    ev.MutualCapture: ("units",),
    ev.Recaptured: ("guard", "units"),
    ev.Transferred: ("units", "to_guard"),
    ev.PrisonerSplit: ("handle",),
    ev.Deployed: ("handle",),
    ev.Abandoned: ("units",),
    ev.EscortedOff: ("guard",),
    ev.Eliminated: ("handle", "takeover"),
    ev.CasualtyReduced: ("handle",),
    ev.Massacred: ("by", "units"),
    ev.EscapeAttempted: ("units",),
    ev.EscapedBy: ("units",),
    ev.Rearmed: ("handle", "enemy"),
    ev.Scrounged: ("handle",),
    ev.Exited: ("units",),
}


# The kinds whose sentence names one unit, by one handle field: its getter (in C).
_ONE: dict[type, Callable[[Any], Any]] = {
    kind: operator.attrgetter(fields[0]) for kind, fields in MENTIONS.items() if len(fields) == 1
}


def mentioned(record: ev.Record) -> list[str]:
    out: list[str] = []
    for field in MENTIONS.get(type(record), ()):
        value = getattr(record, field)
        if isinstance(value, str):
            if value:
                out.append(value)
        elif value:
            out.extend(value)
    return out


def label(u: Unit) -> str:
    """ "side counter": interned, as many units share one (a name is kept per entry)."""
    origins = u.origins
    if len(origins) == 1:  # most counters: no " + ".join over a generator
        return sys.intern(f"{u.side} {origins[0].counter}")
    counters = " + ".join(o.counter for o in origins) if origins else u.counter
    return f"{u.side} {counters}"


def _one_name(h: str, u: Unit) -> Name:
    """``u``'s name now, as it keeps it (``Unit._named``): the one made last while its
    side, counter and origins stand, with its Location as it stands."""
    try:
        one = u._named
    except AttributeError:  # never named (made from a snapshot's row, or a copy)
        one = None
    if one is None:
        one = (h, label(u), u.location)
    elif one[2] != u.location:
        one = (h, one[1], u.location)
    else:
        return one
    object.__setattr__(u, "_named", one)  # no hook: a cache, never recorded or undone
    return one


class NamesBySeq(SeqTable[tuple[Name, ...]]):
    """seq -> the names an entry's units had: an entry naming one unit (most) keeps
    that name alone, the very tuple its unit keeps (a 1-tuple around it cost 56 bytes
    an entry), and gives it out in a 1-tuple when asked for."""

    __slots__ = ()

    def __getitem__(self, seq: int) -> tuple[Name, ...]:
        return _names(super().__getitem__(seq))

    @overload
    def get(self, seq: int, /) -> tuple[Name, ...] | None: ...
    @overload
    def get(self, seq: int, /, default: tuple[Name, ...] | D) -> tuple[Name, ...] | D: ...
    def get(self, seq: int, /, default: object = None) -> object:
        seqs, at = self._seqs, self._next  # (``_at`` written out: a walk's every step)
        if at < len(seqs) and seqs[at] == seq:
            self._next = at + 1
        else:
            at = self._at(seq)
            if at < 0:
                return default
        held: Any = self._values[at]
        return (held,) if held and type(held[0]) is str else held  # ``_names``, written out

    def __setitem__(self, seq: int, names: tuple[Name, ...]) -> None:
        if len(names) == 1:
            self.put_one(seq, names[0])
        else:
            super().__setitem__(seq, names)

    def _kept(self, values: Iterator[tuple[Name, ...]]) -> Iterable[tuple[Name, ...]]:
        bare: Iterable[Any] = (names[0] if len(names) == 1 else names for names in values)
        return bare  # an entry's one name held bare (``_names``)

    def put_one(self, seq: int, name: Name) -> None:
        """The names of entry ``seq``: ``name`` alone."""
        bare: Any = name  # held bare (``_names``)
        super().__setitem__(seq, bare)


_NONE: Any = object()  # (not "()": an entry naming no unit holds the empty tuple)


def _names(held: Any) -> tuple[Name, ...]:
    """An entry's names as held: one name bare (its first item a handle), or a tuple."""
    names: tuple[Name, ...] = (held,) if held and type(held[0]) is str else held
    return names


class NameBook:
    """Per entry, the names its units had; kept by the fold.

    Each unit keeps its last name on itself (``Unit._named``): setting its
    side, counter or origins drops it (``tracked_unit.NAMED_BY``), so the label is
    made again only then, and a move (units move all the time) costs a new tuple, not
    a new label. So an entry costs a slot read, an unchanged name is one shared tuple
    (an entry naming that unit alone holds it bare, ``NamesBySeq``),
    and nothing needs telling when an event or an undo changes a unit. (A table of
    the names by handle cost a unit ~250 bytes: a list, its entry, a dict slot.)
    """

    __slots__ = ("by_seq",)

    def __init__(self) -> None:
        self.by_seq = NamesBySeq()

    def before(self, state: GameState, record: ev.Record) -> list[str] | None:
        """Name the units ``record`` mentions as they stand; returns those not yet in
        play (named by ``after``), or None."""
        one = _ONE.get(type(record))
        units = state.units
        if one is not None and type(value := one(record)) is str:
            # One unit (a status change, an entry, a loss: most events), written out:
            # this runs for most events of every fold.
            u = units.get(value) if value else None
            if u is None:
                self.by_seq[record.seq] = ()
                return [value] if value else None
            self.by_seq.put_one(record.seq, _one_name(value, u))
            return None
        fields = MENTIONS.get(type(record))
        if fields is None:
            return None
        names: list[Name] = []
        missing: list[str] | None = None
        for field in fields:
            value = getattr(record, field)
            if not value:
                continue
            for h in (value,) if type(value) is str else value:
                u = units.get(h)
                if u is None:
                    missing = [*(missing or ()), h]
                    continue
                names.append(_one_name(h, u))
        self.by_seq[record.seq] = tuple(names)
        return missing

    def after(self, state: GameState, record: ev.Record, missing: list[str]) -> None:
        """Name the units ``record`` brought into play, as they stand after it."""
        units = state.units
        extra: list[Name] = []
        for h in missing:
            u = units.get(h)
            if u is not None:
                extra.append(_one_name(h, u))
        if extra:
            had = self.by_seq.get(record.seq, ())
            if not had and len(extra) == 1:  # one unit entered: the name it keeps
                self.by_seq.put_one(record.seq, extra[0])
            else:
                self.by_seq[record.seq] = had + tuple(extra)

    def of(self, seq: int) -> dict[str, Name]:
        return {name[0]: name for name in self.by_seq.get(seq, ())}
