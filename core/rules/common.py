"""Checks and changes shared by several rules: finding units, guarding, capacity."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict, Unpack

from stockade.core.model.errors import InputRefusal, Refusal, RuleRefusal, require, require_input
from stockade.core.model.events import Merge
from stockade.core.model.state import Casualty, GameState
from stockade.core.model.tracked_unit import (
    ACTIVE,
    ELIMINATED,
    GONE,
    PRISONER,
    UNARMED,
    Origin,
    Unit,
)
from stockade.core.model.units import KIND_NAMES, is_hs_size, normal_cvp

FIRE_PHASES_ATTACKER = ("PFPh", "AFPh")
FIRE_PHASES_DEFENDER = ("DFPh",)


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


# ---------------------------------------------------------------------- guarding
def guard_refusal(guard: Unit, *, phase_rtph: bool = False) -> Refusal | None:
    """Why ``guard`` cannot take prisoners, or None (A20.2, A20.21, A20.5)."""
    if not guard.on_board or guard.status != ACTIVE:
        return RuleRefusal("A20.5", f"{describe(guard)} is {guard.status} and cannot guard")
    if guard.unit_kind == "vehicle":
        return RuleRefusal(
            "A20.2", f"{describe(guard)} is vehicular; vehicles never take prisoners"
        )
    if not guard.armed:
        return RuleRefusal(
            "A20.5", f"{describe(guard)} is unarmed; only armed Personnel guard prisoners"
        )
    if guard.berserk:
        return RuleRefusal(
            "A20.2", f"{describe(guard)} is berserk; berserk units take no prisoners"
        )
    if phase_rtph and guard.melee:
        return RuleRefusal(
            "A20.21",
            f"{describe(guard)} is in Melee; a unit in Melee cannot accept a RtPh surrender",
        )
    return None


def require_guard(guard: Unit, *, phase_rtph: bool = False) -> None:
    raise_reason(guard_refusal(guard, phase_rtph=phase_rtph))


def accept_refusal(candidate: Unit, guard: Unit) -> Refusal | None:
    """Why ``candidate`` cannot accept the transfer of ``guard``'s prisoners (A20.5).

    Used for a voluntary transfer and for the involuntary take-over when the Guard is
    eliminated: prisoners pass "in the same manner as a SW" (A4.431), within one
    Location, to a friendly armed Personnel unit that is neither broken nor pinned
    (article, Example 15)."""
    if candidate.handle == guard.handle:
        return RuleRefusal("A20.5", f"{describe(candidate)} already guards them")
    if candidate.side != guard.side:
        return RuleRefusal(
            "A20.5", f"{describe(candidate)} is not friendly to the Guard {describe(guard)}"
        )
    reason = guard_refusal(candidate)
    if reason:
        return reason
    if candidate.broken:
        return RuleRefusal("A20.5", f"{describe(candidate)} is broken and cannot accept prisoners")
    if candidate.pinned:
        return RuleRefusal("A20.5", f"{describe(candidate)} is pinned and cannot accept prisoners")
    if guard.location and candidate.location and guard.location != candidate.location:
        return RuleRefusal(
            "A20.5",
            f"{describe(candidate)} is in {candidate.location}, not in "
            f"{guard.location} with the prisoners",
        )
    return None


def raise_reason(reason: Refusal | None, hint: str = "") -> None:
    """Raise the refusal a ``*_refusal`` check returned (a typed value, never a string
    to split), with ``hint`` when the caller knows a better way out."""
    if reason is not None:
        raise reason.with_hint(hint)


def capacity(guard: Unit) -> int:
    """A Guard holds prisoners up to 5 x its own US# (A20.51)."""
    return 5 * guard.us


def require_capacity(
    state: GameState,
    guard: Unit,
    incoming: list[Unit],
    merges: Sequence[Merge] = (),
    *,
    excess_hint: str,
) -> None:
    """Refuse when the Guard would hold more than 5 x US#, suggesting a fix (A20.51):
    an HS exchange when one makes it fit, else ``excess_hint``, what the entry being checked
    can do with the excess (each verb takes its own words: only a surrender frees)."""
    load = state.prisoner_load(guard.handle) + sum(u.us for u in incoming)
    load -= len(merges)  # each HS pair exchanged for a squad: 2 + 2 -> 3
    cap = capacity(guard)
    if load <= cap:
        return
    held = [p for p in state.prisoners_of(guard.handle)] + list(incoming)
    merged = {h for m in merges for h in m.parts}
    halves = [p for p in held if is_hs_size(p.unit_kind) and p.handle not in merged]
    excess = load - cap
    if len(halves) >= 2 and excess <= len(halves) // 2:
        pairs = [f"{halves[2 * i].handle}+{halves[2 * i + 1].handle}" for i in range(excess)]
        hint = "exchange two HS for a squad: merge " + ", ".join(pairs)
    else:
        hint = excess_hint
    raise RuleRefusal(
        "A20.51",
        f"{describe(guard)} can guard US# {cap}; with these it would hold US# {load}",
        hint,
    )


# ---------------------------------------------------------------- state changes
def make_prisoner(state: GameState, u: Unit, guard: Unit, seq: int, how: str) -> None:
    """A unit becomes an unarmed counter above its Guard (A20.5, A20.51, A20.24).

    A Guard that is itself taken frees its own prisoners: with no friendly unit
    taking them over they are no longer prisoners (A20.5; docs/rulings.md)."""
    for held in state.prisoners_of(u.handle):
        free_unit(state, held, "escaped")
        held.note = f"freed: its Guard {u.handle} was captured"
    if how.startswith("CC capture"):
        # kept so that A20.221 can give it back as it was (void_captures)
        u.captured_clock = clock(state)
        u.captured_traits = u.traits
        u.captured_broken = u.broken
    u.status = PRISONER
    u.armed = False
    u.lost_clock = clock(state)
    u.lost_in_cc = how.startswith("CC capture")
    u.guard = guard.handle
    u.broken = u.pinned = u.berserk = u.disrupted = False
    u.melee = False
    u.captured_at = u.location
    u.location = guard.location or u.location
    u.unarmed_how = ""
    u.abandoned_by = ""
    u.captured_seq = seq
    u.captured_how = how
    if not u.is_smc:
        # A20.51: loses all previous identity; a crew becomes an unarmed HS.
        u.unit_kind = "squad" if u.unit_kind == "squad" else "hs"
        u.counter = "(1)-0-6"
        u.traits = frozenset()  # no longer Fanatic, SS, elite, Cavalry... (A20.51)


def free_unit(state: GameState, u: Unit, how: str, by_side: str = "") -> None:
    """A prisoner becomes a free unarmed unit of its own side (abandoned/escaped/freed).

    An escaped crew is the unarmed HS it became (A20.51): a published ruling answers
    "No" to "is it still worth 2 CVP" once it escapes, so its VP record turns into a
    HS's (docs/rulings.md)."""
    if how == "escaped" and any(o.unit_kind == "crew" for o in u.origins):
        hs_cvp = normal_cvp("hs", "", state.cvp_overrides)
        u.origins = [
            Origin(o.handle, "hs", f"{o.counter} crew, escaped: now a HS", hs_cvp)
            if o.unit_kind == "crew"
            else o
            for o in u.origins
        ]
        u.cvp = sum(o.cvp for o in u.origins)
    u.status = UNARMED
    u.guard = None
    u.melee = False
    u.unarmed_how = how
    u.abandoned_by = by_side if how == "abandoned" else ""
    if u.is_smc:
        # A20.55 / A20.551: escaped (and abandoned) SMC are always armed.
        u.status = ACTIVE
        u.armed = True
        u.counter = u.origins[0].counter if u.origins else u.counter


def clock(state: GameState) -> str:
    """The phase now, as "turn/ATTACKER/phase": what "during that phase" compares."""
    return f"{state.turn}/{state.attacker}/{state.phase}"


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


def apply_merges(state: GameState, merges: list[Merge], guard: Unit, seq: int) -> None:
    for merge in merges:
        exchange_into_squad(state, merge.parts, merge.into, seq)


def check_merges(
    state: GameState, merges: list[Merge], candidates: set[str], new_hs: tuple[str, ...] = ()
) -> None:
    """Each merge exchanges two distinct prisoner HS/crew for one squad (A20.51).

    ``new_hs`` names HS counters the same event creates (a one-HS CC capture)."""
    used: set[str] = set()
    intos: set[str] = set()
    for merge in merges:
        require(
            len(merge.parts) == 2 and merge.parts[0] != merge.parts[1],
            "A20.51",
            "an exchange takes exactly two different HS",
        )
        for handle in merge.parts:
            require_input(handle in candidates, f"'{handle}' is not among these prisoners")
            require_input(handle not in used, f"'{handle}' is exchanged twice")
            used.add(handle)
            if handle in new_hs:
                continue
            require(
                is_hs_size(unit(state, handle).unit_kind),
                "A20.51",
                f"only HS/crew pairs are exchanged for a squad ('{handle}' is not)",
            )
        require_new_handle(state, merge.into)
        require_input(
            merge.into not in intos and merge.into not in new_hs,
            f"handle '{merge.into}' is already in use",
        )
        intos.add(merge.into)


def require_room(
    state: GameState,
    guard: Unit,
    incoming: list[Unit],
    merges: list[Merge],
    new_hs: tuple[str, ...] = (),
    *,
    excess_hint: str,
) -> None:
    """The incoming prisoners, with the entry's HS exchanges, fit above ``guard``
    (A20.51): the exchanges are legal and the total stays within 5 x US#. ``excess_hint``
    is the hint when they do not: what the entry being checked can do instead."""
    held = {p.handle for p in state.prisoners_of(guard.handle)} | {u.handle for u in incoming}
    check_merges(state, merges, held, new_hs)
    require_capacity(state, guard, incoming, merges, excess_hint=excess_hint)


def exchange_into_squad(state: GameState, parts: list[str], into: str, seq: int) -> Unit:
    a, b = (state.units[h] for h in parts)
    squad = Unit(
        handle=into,
        side=a.side,
        unit_kind="squad",
        counter="(1)-0-6",
        created=seq,
        cvp=normal_cvp("squad", "", state.cvp_overrides),
        origins=a.origins + b.origins,
        status=a.status,
        armed=False,
        location=a.location,
        guard=a.guard,
        captured_seq=max(a.captured_seq, b.captured_seq),
        captured_how=a.captured_how,
        note=f"from {a.handle}+{b.handle}",
    )
    for part in (a, b):
        retire(part, seq, f"exchanged into {into}")
    state.add_unit(squad)
    return squad


def retire(u: Unit, seq: int, note: str) -> None:
    """The counter leaves play by exchange (merged, split, deployed): not a loss."""
    u.status, u.ended_seq, u.note = GONE, seq, note
    u.guard = None
    u.melee = False


class UnitFields(TypedDict, total=False):
    """The Unit fields a new counter may start with besides who and what it is."""

    traits: frozenset[str]
    status: str
    armed: bool
    broken: bool
    pinned: bool
    melee: bool
    location: str
    guard: str | None
    unarmed_how: str
    abandoned_by: str
    captured_seq: int
    captured_how: str
    note: str
    placed_clock: str


def new_counter(
    state: GameState,
    handle: str,
    side: str,
    unit_kind: str,
    counter: str,
    seq: int,
    origins: list[Origin] | None = None,
    **fields: Unpack[UnitFields],
) -> Unit:
    cvp = normal_cvp(unit_kind, counter, state.cvp_overrides)
    created = Unit(
        handle=handle,
        side=side,
        unit_kind=unit_kind,
        counter=counter,
        created=seq,
        cvp=cvp,
        origins=origins if origins is not None else [Origin(handle, unit_kind, counter, cvp)],
        **fields,
    )
    state.add_unit(created)
    return created


def book_casualty(
    state: GameState,
    u: Unit,
    seq: int,
    multiplier: int,
    rule: str,
    why: str,
    base: int | None = None,
) -> None:
    """Credit the enemy of ``u``'s owner with ``base x multiplier`` CVP, explained."""
    state.casualties.append(
        Casualty(
            seq=seq,
            turn=state.turn,
            credited=state.enemy_of(u.side),
            unit=u.handle,
            counter=_vp_counter(u),
            unit_kind=_vp_kind(u),
            base=u.origin_cvp if base is None else base,
            multiplier=multiplier,
            rule=rule,
            why=why,
        )
    )


def _vp_counter(u: Unit) -> str:
    if u.is_smc and u.status == PRISONER:
        # A20.5: an SMC prisoner keeps its counter, set aside with its captor noted.
        return f"{u.counter} (prisoner, counter set aside)"
    if u.status in (PRISONER, UNARMED) or not u.armed or u.counter == "(1)-0-6":
        names = " + ".join(o.counter for o in u.origins)
        return f"(1)-0-6 [was {names}]" if names else u.counter
    return u.counter


def _vp_kind(u: Unit) -> str:
    kinds = [KIND_NAMES[o.unit_kind] for o in u.origins]
    return " + ".join(kinds) if kinds else KIND_NAMES[u.unit_kind]


def eliminate_unit(state: GameState, u: Unit, seq: int, in_cc: bool = False) -> None:
    """``in_cc``: the log proves it died in CC, so it may rearm by ``cc`` (A20.551)."""
    u.status = ELIMINATED
    u.ended_seq = seq
    u.lost_clock = clock(state)
    u.lost_in_cc = in_cc
    u.guard = None
    u.melee = False


def release_prisoners(state: GameState, guard: Unit, how: str) -> list[Unit]:
    freed = state.prisoners_of(guard.handle)
    for p in freed:
        free_unit(state, p, how)
    return freed


def rearm_counter(state: GameState, u: Unit, given: str = "") -> str:
    """The Green/Conscript counter ``u`` becomes on rearming (A20.551).

    Taken from the nationality table; when the table has no value the player is asked
    (the refusal says how to give it), and the answer is kept in the event.
    """
    from stockade.core.model.units import nationality_flags

    if given:
        return given
    if u.is_smc:
        return u.origins[0].counter if u.origins else u.counter
    nationality = state.sides[u.side].nationality
    key = "rearm_squad" if u.unit_kind == "squad" else "rearm_hs"
    value: str = nationality_flags(nationality).get(key, "")
    if not value:
        size = "squad" if u.unit_kind == "squad" else "HS"
        raise RuleRefusal(
            "A20.551",
            f"the {nationality} Green/Conscript {size} counter is not in the rearm table",
            f"say which counter {u.handle} becomes, e.g. as 4-3-6",
        )
    return value


def rearm_unit(state: GameState, u: Unit, counter: str, seq: int) -> None:
    """Replace an unarmed unit with a Green/Conscript unit of its size (A20.551)."""
    u.status = ACTIVE
    u.armed = True
    u.guard = None
    u.unarmed_how = ""
    u.abandoned_by = ""
    if not u.is_smc:
        u.counter = counter
        u.traits = frozenset()  # a plain Green/Conscript unit of its nationality
        u.cvp = normal_cvp(u.unit_kind, counter, state.cvp_overrides)
        u.origins = [Origin(u.handle, u.unit_kind, counter, u.cvp)]
    u.created = seq
