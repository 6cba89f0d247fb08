"""What a command's unit slot may name: the plain filters, as the core's ``Choice`` lists.

The legality-aware lists are the core's queries (``core.reads.queries``); a slot with no
query of its own offers the units its filter keeps (``which``), sorted the same way.
The same filters rank the completer's handles, so the bar and the forms offer alike.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from stockade.core.model.state import ACTIVE, PRISONER, UNARMED, GameState, Unit
from stockade.core.reads.queries import Choice, ranked
from stockade.core.reads.views import unit_label

# What a form has filled in so far, by slot name: handles, words, numbers, flags.
Values = Mapping[str, object]
Picks = Callable[[GameState, Values], list[Choice]]

UNIT_FILTERS: dict[str, Callable[[GameState, Unit], bool]] = {
    "any": lambda s, u: u.on_board,
    "active": lambda s, u: u.status == ACTIVE,
    "broken": lambda s, u: u.status == ACTIVE and (u.broken or u.disrupted),
    "prisoner": lambda s, u: u.status == PRISONER,
    "unarmed": lambda s, u: u.status == UNARMED,
    "captive": lambda s, u: u.status in (PRISONER, UNARMED),
    "captor": lambda s, u: (
        u.status == ACTIVE and u.armed and not u.berserk and u.unit_kind != "vehicle"
    ),
    "guard": lambda s, u: bool(s.prisoners_of(u.handle)),
    "squad": lambda s, u: u.status == ACTIVE and u.unit_kind == "squad",
}


def plain(which: str, first: str = "") -> Picks:
    """Units matching ``which`` (those also matching ``first`` listed first)."""
    keep = UNIT_FILTERS[which]

    def pick(state: GameState, values: Values) -> list[Choice]:
        found = [
            Choice(
                u.handle,
                unit_label(u),
                True,
                "",
                "",
                same_location=bool(first) and UNIT_FILTERS[first](state, u),
            )
            for u in state.units.values()
            if keep(state, u)
        ]
        return ranked(found)

    return pick


def handles_in(values: Values, name: str) -> list[str]:
    """The handles a form holds in slot ``name`` (one or several), as a list."""
    value = values.get(name)
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value]
    return []


def word_in(values: Values, name: str) -> str:
    value = values.get(name)
    return value if isinstance(value, str) else ""


def among(name: str, which: str = "prisoner") -> Picks:
    """The units already picked in slot ``name`` (who of those failed, who died)."""
    keep = plain(which)

    def pick(state: GameState, values: Values) -> list[Choice]:
        ticked = handles_in(values, name)
        return [c for c in keep(state, values) if c.handle in ticked]

    return pick
