"""How an entry named its units when it was recorded.

A history sentence must read the same forever: "German 2-4-7 (g2) entered in M6"
stays so after g2 rearms as a 2-3-6. So while an event folds, the fold keeps, for each
unit the event mentions, its side, counter(s) and Location as they were just before
the event (for a unit the event brings into play: just after it). ``core.describe``
words the entry from these, never from the state as it is now.

Names are kept per entry as a tuple of ``(handle, "German 2-4-7", "M6")``; an unchanged
name is the very same tuple as the last entry's (one object per unit and name, not one
per entry).
"""

from __future__ import annotations

from stockade.core import events as ev
from stockade.core.state import GameState, Origin, Unit

Name = tuple[str, str, str]  # handle, "side counter(s)", Location

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
    origins = u.origins
    if len(origins) == 1:  # most counters: no " + ".join over a generator
        return f"{u.side} {origins[0].counter}"
    counters = " + ".join(o.counter for o in origins) if origins else u.counter
    return f"{u.side} {counters}"


class NameBook:
    """Per entry, the names its units had; kept by the fold.

    ``current`` holds, per unit, the last name made and the side, counter and origins
    its label was made from. A name is reused while the unit still has those very
    objects (compared by identity: an event that sets one makes the label again) and
    the same Location (units move all the time: a move costs a new tuple, not a new
    label). So an entry costs a few dict lookups, an unchanged name is one shared
    tuple, and nothing needs telling when an event or an undo changes a unit.
    """

    __slots__ = ("by_seq", "current")

    def __init__(self) -> None:
        self.by_seq: dict[int, tuple[Name, ...]] = {}
        self.current: dict[str, tuple[Name, str, str, list[Origin]]] = {}

    def before(self, state: GameState, record: ev.Record) -> list[str] | None:
        """Name the units ``record`` mentions as they stand; returns those not yet in
        play (named by ``after``), or None."""
        fields = MENTIONS.get(type(record))
        if fields is None:
            return None
        units, name_of = state.units, self._name_of
        if len(fields) == 1 and type(value := getattr(record, fields[0])) is str:
            # one unit (a status change, an entry, a loss: most events): no list
            u = units.get(value) if value else None
            if u is not None:
                self.by_seq[record.seq] = (name_of(value, u),)
                return None
            self.by_seq[record.seq] = ()
            return [value] if value else None
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
                names.append(name_of(h, u))
        self.by_seq[record.seq] = tuple(names)
        return missing

    def _name_of(self, h: str, u: Unit) -> Name:
        """``u``'s name now: the last one made while its side, counter and origins are
        the very same objects, with its Location as it stands."""
        d = u.__dict__
        side, counter, origins, where = d["side"], d["counter"], d["origins"], d["location"]
        current = self.current
        made = current.get(h)
        if made is not None and made[1] is side and made[2] is counter and made[3] is origins:
            name = made[0]
            if name[2] == where:
                return name
            name = (h, name[1], where)
        else:
            name = (h, label(u), where)
        current[h] = (name, side, counter, origins)
        return name

    def after(self, state: GameState, record: ev.Record, missing: list[str]) -> None:
        """Name the units ``record`` brought into play, as they stand after it."""
        units, current = state.units, self.current
        extra: list[Name] = []
        for h in missing:
            u = units.get(h)
            if u is not None:
                name = (h, label(u), u.location)
                current[h] = (name, u.side, u.counter, u.origins)
                extra.append(name)
        if extra:
            self.by_seq[record.seq] = self.by_seq.get(record.seq, ()) + tuple(extra)

    def of(self, seq: int) -> dict[str, Name]:
        return {name[0]: name for name in self.by_seq.get(seq, ())}
