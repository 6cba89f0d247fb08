"""A20.221: CC is simultaneous. A unit captured in this CCPh still made its own attack,
so its capture is recorded too (``capture_back``); a side wholly eliminated/captured
made no captures there that phase (``void_captures``); and sides that captured each
other wholly are exchanged for Green/Conscript units, in Melee (``exchange_all``)."""

from __future__ import annotations

from enum import StrEnum

from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import ACTIVE, GONE, PRISONER, UNARMED, Unit
from stockade.core.rules.counters import (
    free_unit,
    make_prisoner,
    rearm_counter,
    rearm_unit,
    retire,
)
from stockade.core.rules.guarding import accept_refusal
from stockade.core.rules.lookup import clock
from stockade.core.rules.melee import armed_units_of, start_melee


def captured_this_ccph(state: GameState, u: Unit) -> bool:
    """Was ``u`` taken by a CC capture in this very CCPh? Its own CC attack of that phase
    was simultaneous with the one that took it, so it is still made (A20.221)."""
    return (
        state.phase == "CCPh"
        and u.status in (PRISONER, UNARMED)
        and bool(u.captured_clock)
        and u.captured_clock == clock(state)
    )


def where_taken(u: Unit) -> str:
    return u.captured_at or u.location


class Outcome(StrEnum):
    """What a capture back by a unit captured this CCPh comes to (A20.221)."""

    STANDS = "stands"  # the captor's side still has units fighting there
    INEFFECTUAL = "ineffectual"  # the captor's side was wholly captured: nothing changes
    EACH_OTHER = "each other"  # both sides wholly captured: Green/Conscript, in Melee


def capture_back_outcome(state: GameState, captor: Unit, taken: list[Unit]) -> Outcome:
    """How A20.221 settles ``captor``'s capture of ``taken``, ``captor`` having been
    captured itself in this CCPh (``captured_this_ccph``)."""
    location = where_taken(captor)
    own_left = armed_units_of(state, captor.side, location)
    names = {t.handle for t in taken}
    other_left = [
        u
        for side in {t.side for t in taken}
        for u in armed_units_of(state, side, location)
        if u.handle not in names
    ]
    if own_left:
        return Outcome.STANDS
    return Outcome.INEFFECTUAL if other_left else Outcome.EACH_OTHER


def to_exchange(state: GameState, location: str, taken: list[Unit]) -> list[Unit]:
    """A20.221, second sentence: "all remaining unarmed prisoners" in ``location`` once
    all opposing units there captured each other: the prisoners held there, those taken
    there this CCPh, and ``taken`` (about to be)."""
    out = [
        u
        for u in state.units.values()
        if (u.status == PRISONER and u.location == location)
        or (captured_this_ccph(state, u) and where_taken(u) == location)
    ]
    return out + [t for t in taken if t not in out]


def capture_back(state: GameState, captor: Unit, taken: list[Unit], seq: int) -> None:
    """A20.221: ``captor``, itself captured in CC in this CCPh, captured ``taken`` in the
    same simultaneous CC. If its side still has units fighting there, the capture stands
    (and, the captor being a prisoner, a friendly unit there takes the Guard position,
    A20.5, else the captives go free); if its side was wholly captured, the capture is
    ineffectual and nothing changes; if that leaves no unit of either side fighting
    there, all opposing units captured each other (``exchange_all``)."""
    outcome = capture_back_outcome(state, captor, taken)
    if outcome == Outcome.INEFFECTUAL:
        return
    location = where_taken(captor)
    for t in taken:
        make_prisoner(state, t, captor, seq, "CC capture")
    if outcome == Outcome.EACH_OTHER:
        exchange_all(state, location, seq)
        return
    # the capture stands: every side wholly captured now makes no captures this CCPh
    for side in {t.side for t in taken}:
        if not armed_units_of(state, side, location):
            void_captures(
                state, side, location, seq, f"{side} was wholly eliminated/captured in {location}"
            )
    if captor.status == ACTIVE:  # given back, armed: it guards what it took
        return
    takers = [
        u for u in armed_units_of(state, captor.side, location) if accept_refusal(u, captor) is None
    ]
    for t in taken:
        if takers:
            t.guard = takers[0].handle
        else:
            free_unit(state, t, "escaped")
            t.note = f"freed: its captor {captor.handle} is itself a prisoner"


def exchange_all(state: GameState, location: str, seq: int) -> None:
    """A20.221, second sentence: all opposing non-prisoner units in ``location`` captured
    each other in their simultaneous CC, so every remaining unarmed prisoner there is
    exchanged for a Green/Conscript unit of its size (A20.551, from the nationality
    table), and newly armed units of both sides left there remain in Melee."""
    units = to_exchange(state, location, [])
    for u in units:
        counter = rearm_counter(state, u)
        rearm_unit(state, u, counter, seq)
        u.location = location
        u.captured_clock = ""
        u.lost_clock, u.lost_in_cc = "", False
        u.broken = u.pinned = False
        u.note = (
            f"A20.221: {exchange_why(location)}; "
            "exchanged for its Green/Conscript counter (A20.551)"
        )
    both = len({u.side for u in units}) > 1
    for u in units:
        u.melee = False
        if both:  # "they all remain in Melee"
            start_melee(state, u)
            u.note += "; both sides remain in Melee"


def exchange_why(location: str) -> str:
    """Why ``exchange_all`` exchanged the units in ``location`` (the start of their note)."""
    return f"all units in {location} captured each other in simultaneous CC"


def was_exchanged(u: Unit) -> bool:
    """Did ``exchange_all`` exchange ``u`` for its Green/Conscript counter (A20.221)?"""
    return u.note.startswith(f"A20.221: {exchange_why(u.location)}")


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
