"""The roster: every unit of both sides, one row each, as a player reads it.

A projection of the state (nothing judged here): handle, counter, kind, Location and
one status word (Good Order / broken / pinned / berserk / Melee / prisoner of X /
unarmed-abandoned / escaped / eliminated / escorted off). Counters exchanged into
another (merged, split, deployed) are left out: they are no longer in play.
"""

from __future__ import annotations

from dataclasses import dataclass

from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import (
    ACTIVE,
    ELIMINATED,
    ESCORTED,
    EXITED,
    GONE,
    PRISONER,
    UNARMED,
    Unit,
)
from stockade.core.model.units import KIND_NAMES
from stockade.core.reads.queries import natural
from stockade.core.reads.views import counter_text


@dataclass(frozen=True)
class RosterRow:
    handle: str
    side: str
    counter: str
    kind: str
    location: str
    status: str

    def matches(self, text: str) -> bool:
        """Every typed word is in the handle, counter, kind, Location, side or status."""
        hay = " ".join(
            (self.handle, self.counter, self.kind, self.location, self.side, self.status)
        ).lower()
        return all(word in hay for word in text.lower().split())


def status_of(u: Unit) -> str:
    if u.status == PRISONER:
        return f"prisoner of {u.guard}"
    if u.status == UNARMED:
        if u.unarmed_how == "escaped":
            return "escaped (unarmed)"
        return f"unarmed-{u.unarmed_how}" if u.unarmed_how else "unarmed"
    if u.status == ELIMINATED:
        return "eliminated"
    if u.status == ESCORTED:
        return "escorted off"
    if u.status == EXITED:
        return "exited off"
    words = [
        w
        for w, on in (
            ("broken", u.broken),
            ("pinned", u.pinned),
            ("berserk", u.berserk),
            ("Disrupted", u.disrupted),
            ("Melee", u.melee),
        )
        if on
    ]
    if u.status == ACTIVE and u.unarmed_how == "" and not words:
        return "Good Order"
    return ", ".join(words) or u.status


def roster_row(u: Unit) -> RosterRow:
    return RosterRow(
        u.handle, u.side, counter_text(u), KIND_NAMES[u.unit_kind], u.location, status_of(u)
    )


def roster(state: GameState, text: str = "") -> list[RosterRow]:
    """Every unit in play, side by side in the order the sides were set up, then by
    handle; only the rows matching ``text`` (see ``RosterRow.matches``)."""
    order = {name: i for i, name in enumerate(state.sides)}
    rows = [roster_row(u) for u in state.units.values() if u.status != GONE]
    rows.sort(key=lambda r: (order.get(r.side, len(order)), natural(r.handle)))
    return [r for r in rows if r.matches(text)] if text else rows
