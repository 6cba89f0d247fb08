"""Recapture of free unarmed units by CC or by entering their Location in the MPh (A20.54).

Separate from CC capture (``core.rules.cc_capture``): it takes only free unarmed units,
which are never captured, and in the MPh too; it shares only the CC attacker's check.
"""

from __future__ import annotations

from stockade.core.model.errors import require, require_input
from stockade.core.model.events import Recaptured
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import UNARMED
from stockade.core.rules.cc_capture import require_cc_attacker
from stockade.core.rules.counters import apply_merges, make_prisoner
from stockade.core.rules.guarding import require_guard, require_room
from stockade.core.rules.lookup import describe, unit


def check_recapture(state: GameState, ev: Recaptured) -> None:
    guard = unit(state, ev.guard)
    require(
        state.phase in ("MPh", "CCPh"),
        "A20.54",
        "unarmed units are recaptured by CC, or by entering their Location in the MPh",
    )
    require_guard(guard)
    require_cc_attacker(guard, "recapture")  # both ways in are a CC attack
    require(guard.is_infantry, "A20.54", f"{describe(guard)} is not Infantry/Cavalry")
    if state.phase == "MPh":
        require(
            guard.side == state.attacker,
            "A20.54",
            "in the MPh only a moving unit recaptures, by entering the Location and "
            "attacking in CC at once",
        )
    require_input(bool(ev.units), "name the unarmed units recaptured")
    taken = [unit(state, h) for h in ev.units]
    for u in taken:
        require(u.side != guard.side, "A20.54", f"{describe(u)} is on the captor's side")
        require(u.status == UNARMED, "A20.54", f"{describe(u)} is not a free unarmed unit")
        if u.location and guard.location:
            require(
                u.location == guard.location,
                "A20.54",
                f"{describe(u)} is in {u.location}, not in {guard.location}",
            )
    require_room(
        state,
        guard,
        taken,
        ev.merges,
        excess_hint="recapture fewer with this unit; another unit may recapture the rest",
    )


def apply_recapture(state: GameState, ev: Recaptured) -> None:
    guard = state.units[ev.guard]
    for handle in ev.units:
        make_prisoner(state, state.units[handle], guard, ev.seq, "recapture")
    apply_merges(state, ev.merges, guard, ev.seq)
