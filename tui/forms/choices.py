"""What the forms offer to pick from: sides and units, labelled by the core's views.

These only sort units into the lists a player picks from; whether a pick is legal is
always the core's verdict (the form's live check).
"""

from __future__ import annotations

from collections.abc import Callable

from stockade.core.commands.complete import UNIT_FILTERS
from stockade.core.state import GameState
from stockade.core.views import unit_label

FILTERS = UNIT_FILTERS  # the command language's own lists, so both offer the same units


def sides(state: GameState) -> list[tuple[str, str]]:
    return [(f"{name} ({side.nationality})", name) for name, side in state.sides.items()]


def units(which: str, first: str = "") -> Callable[[GameState], list[tuple[str, str]]]:
    """Units matching ``which``; those also matching ``first`` are listed first."""
    keep = FILTERS[which]

    def pick(state: GameState) -> list[tuple[str, str]]:
        found = [u for u in state.units.values() if keep(state, u)]
        if first:
            found.sort(key=lambda u: not FILTERS[first](state, u))
        return [(unit_label(u), u.handle) for u in found]

    return pick


def words(*pairs: tuple[str, str]) -> Callable[[GameState], list[tuple[str, str]]]:
    return lambda state: list(pairs)


def joined(values) -> str:
    if isinstance(values, list):
        return " ".join(values)
    return str(values or "")


def opt(keyword: str, value) -> str:
    """``keyword value`` when there is a value, else nothing."""
    text = joined(value)
    return f"{keyword} {text}" if text else ""
