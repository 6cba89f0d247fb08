"""Withdrawal and Infiltration from a Melee with the Guard (A20.55, A11.2, A11.22):
the prisoners leave it escaped, or the Guard leaves them behind."""

from __future__ import annotations

from stockade.core.model.errors import Refusal, RuleRefusal, require, require_input
from stockade.core.model.events import EscapedBy
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import Unit
from stockade.core.rules.counters import (
    free_unit,
)
from stockade.core.rules.escape import will_escape_refusal
from stockade.core.rules.guards import named_prisoners
from stockade.core.rules.lookup import (
    clock,
    describe,
    raise_reason,
    unit,
)


def check_escaped_by(state: GameState, ev: EscapedBy) -> None:
    require(
        state.phase == "CCPh",
        "A11.2",
        f"Withdrawal and Infiltration happen in the CCPh (now {state.phase})",
    )
    if ev.route == "guard-infiltrated":
        require_input(len(ev.units) == 1, "name the one Guard that infiltrated away")
        guard = unit(state, ev.units[0])
        require_input(
            bool(state.prisoners_of(guard.handle)),
            f"{describe(guard)} guards no prisoners",
        )
        require(guard.melee, "A11.22", f"{describe(guard)} is not in Melee")
        return
    prisoners, guard = named_prisoners(state, ev.units, "A20.55")
    for p in prisoners:
        raise_reason(will_escape_refusal(state, p, ev.own_borders))
    require(
        guard.melee or all(p.melee for p in prisoners),
        "A20.55",
        "prisoners withdraw or infiltrate only from a Melee with their Guard",
    )
    if ev.route == "withdrawal":
        raise_reason(withdrawal_refusal(state, guard, prisoners))


def melee_began(guard: Unit, prisoners: list[Unit]) -> str:
    """The phase the Melee with ``guard`` began in: the Guard's, else its prisoners'."""
    if guard.melee:
        return guard.melee_clock
    return min((p.melee_clock for p in prisoners if p.melee), default="")


def withdrawal_refusal(state: GameState, guard: Unit, prisoners: list[Unit]) -> Refusal | None:
    """A20.55: "Once Melee exists with a Guard, prisoners may attempt Withdrawal from
    Melee (11.2) in a subsequent CCPh": not in the CCPh the Melee began in (the phase
    kept when it began, from the log: docs/rulings.md)."""
    began = melee_began(guard, prisoners)
    if began and began == clock(state):
        return RuleRefusal(
            "A20.55",
            f"the Melee with {describe(guard)} began in this CCPh; its prisoners may attempt "
            "Withdrawal (A11.2) only in a subsequent CCPh",
        )
    return None


def apply_escaped_by(state: GameState, ev: EscapedBy) -> None:
    if ev.route == "guard-infiltrated":
        guard = state.units[ev.units[0]]
        for p in state.prisoners_of(guard.handle):
            free_unit(state, p, "escaped")  # left behind: escaped, not abandoned (Example 16)
            p.note = f"escaped: its Guard {guard.handle} infiltrated away"
        guard.melee = False
        return
    for handle in ev.units:
        p = state.units[handle]
        free_unit(state, p, "escaped")
        p.note = f"escaped by {ev.route}"
