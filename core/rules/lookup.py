"""Reading what an entry names: its units, sides and Guard, the phase clock, and
the simple checks on them every rule makes first."""

from __future__ import annotations

import sys

from stockade.core.model.errors import InputRefusal, Refusal, require_input
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import Unit


def unit(state: GameState, handle: str) -> Unit:
    found = state.units.get(handle)
    if found is None:
        raise InputRefusal(
            f"no unit '{handle}' in this game",
            "add it first, or check the handle in the side panels",
        )
    return found


def guard_of(state: GameState, p: Unit) -> Unit:
    """The Guard holding prisoner ``p``: make_prisoner always names one (A20.5)."""
    if p.guard is None:  # not a prisoner: a caller's mistake, not a player's
        raise KeyError(f"{p.handle} has no Guard")
    return state.units[p.guard]


def describe(u: Unit) -> str:
    return f"{u.side} {u.counter} ({u.handle})"


def side_of(state: GameState, name: str) -> str:
    if name in state.sides:  # as written (the two names differ even ignoring case)
        return name
    for side in state.sides:
        if side.lower() == name.lower():
            return side
    raise InputRefusal(f"no side '{name}' in this game", "sides: " + ", ".join(state.sides))


def require_new_handle(state: GameState, handle: str) -> None:
    require_input(bool(handle), "a new counter needs a handle")
    if handle in state.units:
        raise InputRefusal(f"handle '{handle}' is already in use")


def require_on_board(u: Unit) -> None:
    require_input(u.on_board, f"{describe(u)} is no longer on the board ({u.status})")


def require_same_side(units: list[Unit]) -> None:
    sides = {u.side for u in units}
    require_input(
        len(sides) <= 1,
        "these units belong to different sides: " + ", ".join(sorted(sides)),
    )


def raise_reason(reason: Refusal | None, hint: str = "") -> None:
    """Raise the refusal a ``*_refusal`` check returned (a typed value, never a string
    to split), with ``hint`` when the caller knows a better way out."""
    if reason is not None:
        raise reason.with_hint(hint)


def clock(state: GameState) -> str:
    """The phase now, as "turn/ATTACKER/phase": what "during that phase" compares.
    Interned: units keep it (placed, lost, in Melee...), one string a phase."""
    return sys.intern(f"{state.turn}/{state.attacker}/{state.phase}")
