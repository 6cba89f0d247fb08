"""A20.221: CC is simultaneous, so a side wholly eliminated/captured in it made no
captures there that phase."""

from __future__ import annotations

from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import ACTIVE, GONE, PRISONER, UNARMED, Unit
from stockade.core.rules.counters import retire
from stockade.core.rules.lookup import clock


def void_captures(state: GameState, captor_side: str, location: str, seq: int, why: str) -> None:
    """A20.221: a side wholly eliminated/captured in simultaneous CC made no captures
    there this phase: each unit it took by CC capture this CCPh is given back as it
    was (armed, its counter, traits and broken state), wherever its Guard now is."""
    if state.phase != "CCPh" or not location:
        return
    now = clock(state)
    for u in list(state.units.values()):
        if (
            u.captured_clock == now
            and u.side != captor_side
            and u.status in (PRISONER, UNARMED)
            and (u.captured_at or u.location) == location
        ):
            if u.split_from and _unsplit(state, u, location, seq, why):
                continue
            first = u.origins[0] if u.origins else None
            u.status, u.armed, u.guard = ACTIVE, True, None
            if first is not None and not u.is_smc:
                u.unit_kind, u.counter = first.unit_kind, first.counter
            u.traits, u.broken = u.captured_traits, u.captured_broken
            u.melee = False
            u.location = location
            u.unarmed_how = u.captured_how = u.captured_clock = ""
            u.captured_seq = 0
            u.created = seq
            u.note = f"A20.221: its capture this CCPh is void ({why}); back as it was, armed"


def _unsplit(state: GameState, half: Unit, location: str, seq: int, why: str) -> bool:
    """A20.221 for a one-HS capture: the squad it split stands again as it was, and its
    two HS leave play; True when done. Only while the squad's free HS is still on the
    board: if it was lost since, the captured HS alone is given back (the caller)."""
    squad = state.units.get(half.split_from)
    free = next(
        (
            o
            for o in state.units.values()
            if o.split_from == half.split_from and o is not half and o.created == half.created
        ),
        None,
    )
    if squad is None or squad.status != GONE or free is None or free.status != ACTIVE:
        return False
    for held in state.prisoners_of(free.handle):
        held.guard = squad.handle  # the prisoners the free HS kept are the squad's again
    for part in (half, free):
        retire(part, seq, f"A20.221: {squad.handle} stands whole again")
    squad.status, squad.ended_seq, squad.location = ACTIVE, 0, location
    squad.melee = False
    squad.created = seq
    squad.note = f"A20.221: its capture this CCPh is void ({why}); back as it was, armed"
    return True
