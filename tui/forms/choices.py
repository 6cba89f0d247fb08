"""What the forms offer to pick from: sides and words, and units as the core ranks them.

Unit lists are ``core.reads.queries.Choice`` lists: the legality-aware ones come from the
core's queries (legal first, same Location first, the others with the rule and
reason); the plain ones only sort the command language's own unit filters.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

from stockade.core.commands.picks import UNIT_FILTERS
from stockade.core.model.state import GameState
from stockade.core.reads.queries import Choice, ranked
from stockade.core.reads.views import unit_label

FILTERS = UNIT_FILTERS  # the command language's own lists, so both offer the same units
Picks = Callable[[GameState, dict], list[Choice]]


def sides(state: GameState) -> list[tuple[str, str]]:
    return [(f"{name} ({side.nationality})", name) for name, side in state.sides.items()]


def units(which: str, first: str = "") -> Picks:
    """Units matching ``which`` (those also matching ``first`` listed first)."""
    keep = FILTERS[which]

    def pick(state: GameState, values: dict) -> list[Choice]:
        found = [
            Choice(
                u.handle,
                unit_label(u),
                True,
                "",
                "",
                same_location=bool(first) and FILTERS[first](state, u),
            )
            for u in state.units.values()
            if keep(state, u)
        ]
        return ranked(found)

    return pick


def picks(query: Callable[..., list[Choice]]) -> Picks:
    """A core query as a form's unit list: ``query(state)`` or ``query(state, values)``."""
    if len(inspect.signature(query).parameters) >= 2:
        return query
    return lambda state, values: query(state)


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
