"""A Melee's life: who is in it, when it began, and when nothing is left to fight."""

from __future__ import annotations

from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import ACTIVE, PRISONER, UNARMED, Unit
from stockade.core.rules.lookup import clock


def armed_units_of(state: GameState, side: str, location: str) -> list[Unit]:
    """``side``'s units still fighting in ``location``: on the board, not prisoners."""
    return [
        u
        for u in state.active_at(location)
        if u.side == side and u.location == location and u.status == ACTIVE
    ]


def start_melee(state: GameState, u: Unit) -> None:
    """``u`` is in Melee from now on; the phase it began in is kept (A20.55
    "subsequent CCPh"). A unit already in Melee keeps the phase its Melee began in."""
    if not u.melee:
        u.melee = True
        u.melee_clock = clock(state)


def fights(o: Unit) -> bool:
    """Does ``o`` keep a Melee going against the other side: an armed unit on the board,
    or an unarmed one (prisoner or free) that is itself in that Melee (prisoners
    attacking their Guard, unarmed units a recapture failed to take, A20.54, A20.55)?"""
    return o.status == ACTIVE or (o.melee and o.status in (PRISONER, UNARMED))


def melee_over(state: GameState, u: Unit, present: list[Unit]) -> bool:
    """Is ``u``'s Melee over: no unit of the other side left fighting in its Location?"""
    return not any(o.side != u.side and o.location == u.location and fights(o) for o in present)


def settle_melee(state: GameState, places: set[str], seq: int) -> None:
    """The Melee's life cycle: in each Location of ``places`` (where the entry ``seq``
    took a unit out of the fight, moved one, or ended one's Melee), every unit still
    marked in Melee with no unit of the other side left fighting there is out of Melee
    (nothing is left to fight; docs/rulings.md), and ``melee_end_seq`` says which entry
    ended it. A Location unknown to the log ("") is left as it is."""
    at, units = state.free_index(), state.units
    for place in places:
        # most Locations a loss touches hold no Melee: the indexed units tell (a
        # prisoner's Melee is with its Guard, an indexed unit, so it never ends alone)
        handles = at.get(place)
        if not handles or not any(units[h].melee for h in handles):
            continue
        present = state.on_board_at(place)
        for u in present:
            if u.melee and melee_over(state, u, present):
                u.melee = False
                u.melee_end_seq = seq
