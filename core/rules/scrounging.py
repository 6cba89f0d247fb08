"""Scrounging (A20.552): a DR at the end of the unarmed unit's own MPh, one per hex
per MPh; a wreck arms up to a HS (D10.5)."""

from __future__ import annotations

from stockade.core.model.errors import Refusal, RuleRefusal, require, require_input
from stockade.core.model.events import Scrounged
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import UNARMED, Unit
from stockade.core.rules.counters import (
    rearm_counter,
    rearm_unit,
)
from stockade.core.rules.lookup import (
    describe,
    raise_reason,
    require_new_handle,
    unit,
)
from stockade.core.rules.rearming import split_rearm


# -------------------------------------------------------------------- scrounging
def scrounge_success(roll: int, wreck: bool) -> bool:
    return roll <= 3 if wreck else roll == 2


def scrounge_refusal(state: GameState, u: Unit) -> Refusal | None:
    """Why ``u`` may not roll for Scrounging now, whatever the DR, or None: the check
    of the entry and of the hint that offers it (A20.552)."""
    if u.is_smc:
        return RuleRefusal("A20.552", "escaped SMC are always armed; nothing to scrounge")
    if u.status != UNARMED:
        return RuleRefusal("A20.552", f"{describe(u)} is not a free unarmed unit")
    if state.phase != "MPh" or state.attacker != u.side:
        return RuleRefusal("A20.552", "Scrounging is rolled at the end of the unit's own MPh")
    if not u.location:
        return RuleRefusal(
            "A20.552",
            "one Scrounging DR per hex per MPh: give the unit's Location first (move HANDLE HEX)",
        )
    if (state.turn, state.attacker, u.location) in state.scrounged:
        return RuleRefusal("A20.552", f"{u.location} has already had its Scrounging DR this MPh")
    return None


def check_scrounge(state: GameState, ev: Scrounged) -> None:
    u = unit(state, ev.handle)
    raise_reason(scrounge_refusal(state, u))
    low, high = (1, 6) if ev.wreck else (2, 12)
    require_input(
        low <= ev.roll <= high,
        f"a Scrounging {'dr' if ev.wreck else 'DR'} is {low}-{high}, not {ev.roll}",
    )
    halves = scrounge_splits(u, ev)
    if not halves:
        require_input(not ev.split_into, "only a squad scrounging a wreck is split")
    if scrounge_success(ev.roll, ev.wreck):
        if halves:
            require(
                len(ev.split_into) == 2 and ev.split_into[0] != ev.split_into[1],
                "D10.5",
                f"scrounging a wreck arms only up to a HS: {u.handle} becomes a "
                "Green/Conscript HS and an unarmed HS",
                "name the two new HS handles: split NEW1 NEW2",
            )
            for handle in ev.split_into:
                require_new_handle(state, handle)
            rearm_counter(state, Unit(**{**u.__dict__, "unit_kind": "hs"}), ev.counter)
        else:
            rearm_counter(state, u, ev.counter)


def scrounge_splits(u: Unit, ev: Scrounged) -> bool:
    return ev.wreck and u.unit_kind == "squad" and scrounge_success(ev.roll, ev.wreck)


def apply_scrounge(state: GameState, ev: Scrounged) -> None:
    u = state.units[ev.handle]
    state.scrounged.add((state.turn, state.attacker, u.location))
    if not scrounge_success(ev.roll, ev.wreck):
        return
    if scrounge_splits(u, ev):
        split_rearm(state, u, ev.split_into, ev.counter, ev.seq, "split on scrounging ")
        return
    rearm_unit(state, u, rearm_counter(state, u, ev.counter), ev.seq)
