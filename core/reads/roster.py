"""The roster: every unit of both sides, one row each, as a player reads it.

A projection of the state (nothing judged here): handle, counter, kind, Location and
its state in the side panels' words (Good Order / broken / pinned / berserk / Melee /
prisoner of X / unarmed, abandoned / eliminated / escorted). Counters exchanged into
another (merged, split, deployed) are left out: they are no longer in play.
"""

from __future__ import annotations

from dataclasses import dataclass

from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import (
    GONE,
    PRISONER,
    Unit,
)
from stockade.core.model.units import KIND_NAMES
from stockade.core.reads.queries import natural
from stockade.core.reads.views import counter_text, status_words


@dataclass(frozen=True)
class RosterRow:
    handle: str
    side: str
    counter: str
    kind: str
    location: str
    status: str

    @property
    def whole(self) -> str:
        """The row in one line, nothing cut: ``gc: German HS (1)-0-6 [was 2-2-8 crew] in
        R6, unarmed, abandoned`` (what a roster too narrow for its columns shows of the
        highlighted row)."""
        where = f" in {self.location}" if self.location else ""
        return f"{self.handle}: {self.side} {self.kind} {self.counter}{where}, {self.status}"

    def matches(self, text: str) -> bool:
        """Every typed word is in the handle, counter, kind, Location, side or status;
        a word with ``@`` is a counter and Location as the board shows them
        (``4-6-7@P4``, either part a prefix, as ``core.commands.handles`` reads them)."""
        hay = " ".join(
            (self.handle, self.counter, self.kind, self.location, self.side, self.status)
        ).lower()
        return all(self._at(word) if "@" in word else word in hay for word in text.lower().split())

    def _at(self, word: str) -> bool:
        counter, _, place = word.partition("@")
        return self.counter.lower().startswith(counter) and self.location.lower().startswith(place)


def status_of(u: Unit) -> str:
    """The unit's state in the words the side panels use (``views.status_words``), and
    "Good Order" when nothing is wrong with it: one word per state everywhere (a freed
    leader, armed again, is Good Order like any other)."""
    if u.status == PRISONER:
        return f"prisoner of {u.guard}"
    return ", ".join(status_words(u)) or "Good Order"


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
