"""Taking prisoners: RtPh/Disrupted/HOB surrender, No Quarter, CC capture, Mopping Up,
simultaneous mutual capture and recapture of unarmed units (A20.2-A20.3, A20.54)."""

from __future__ import annotations

from stockade.core.errors import Refusal, require
from stockade.core.events import Captured, MutualCapture, Recaptured, Surrendered, SurrenderRejected
from stockade.core.rules.common import (
    apply_merges,
    book_casualty,
    capacity,
    describe,
    eliminate_unit,
    free_unit,
    make_prisoner,
    new_counter,
    raise_reason,
    rearm_counter,
    rearm_unit,
    require_guard,
    require_new_handle,
    require_room,
    require_same_side,
    retire,
    side_of,
    unit,
)
from stockade.core.state import ACTIVE, PRISONER, UNARMED, GameState, Origin, Unit
from stockade.core.units import nationality_flags, normal_cvp

_RTPH_REASONS = ("rtph", "encircled", "disrupted", "hob")


# ----------------------------------------------------------------- who surrenders
def never_surrenders(state: GameState, u: Unit, captor_side: str) -> Refusal | None:
    """Why ``u`` never surrenders via the RtPh method to ``captor_side`` (A20.21, A20.3)."""
    nationality = state.sides[u.side].nationality
    captor_nationality = state.sides[captor_side].nationality
    if nationality_flags(nationality).get("no_rtph"):
        return Refusal("A20.21", f"{nationality} units never surrender via the RtPh")
    if "commissar" in u.traits:
        return Refusal("A20.21", "Commissars never surrender via the RtPh")
    if "fanatic" in u.traits:
        return Refusal("A20.21", "Fanatic units never surrender via the RtPh")
    is_ss = nationality == "SS" or "ss" in u.traits
    if is_ss and captor_nationality == "Russian":
        return Refusal("A20.21", "SS troops facing Russians never surrender via the RtPh")
    if state.sides[captor_side].no_quarter:
        return Refusal(
            "A20.3",
            f"{captor_side} has invoked No Quarter; its enemies never surrender "
            "to it via the RtPh (they Low Crawl or risk Interdiction)",
        )
    return None


def _stack(state: GameState, handles: list[str]) -> list[Unit]:
    require(bool(handles), "input", "name the surrendering units")
    require(len(set(handles)) == len(handles), "input", "a unit is named twice")
    units = [unit(state, h) for h in handles]
    require_same_side(units)
    for u in units:
        require(
            u.status == ACTIVE,
            "input",
            f"{describe(u)} is {u.status}, not an armed unit on the board",
        )
        require(
            not u.berserk, "A20.2", f"{describe(u)} is berserk; berserk units are never captured"
        )
        require(u.is_infantry, "A20.21", f"{describe(u)} is not Infantry; only Infantry surrenders")
    places = {u.location for u in units if u.location}
    require(
        len(places) <= 1,
        "A20.21",
        "a stack surrendering together stands in one Location, not " + ", ".join(sorted(places)),
    )
    return units


def _fits(state: GameState, guard: Unit, incoming: list[Unit], merges) -> bool:
    load = state.prisoner_load(guard.handle) + sum(u.us for u in incoming) - len(merges)
    return load <= capacity(guard)


def _check_surrendering_stack(
    state: GameState, units: list[Unit], guard: Unit, reason: str
) -> None:
    require(guard.side != units[0].side, "input", f"{describe(guard)} is on the same side")
    if reason in ("rtph", "encircled"):
        require(
            state.phase == "RtPh",
            "A20.21",
            f"a broken unit surrenders this way only in the RtPh (now {state.phase})",
        )
    if reason == "mopup":
        require(
            not state.sides[guard.side].no_quarter,
            "A20.3",
            f"{guard.side} has invoked No Quarter and can no longer Mop Up for prisoners "
            "(article, Conclusion)",
        )
        require(state.phase == "PFPh", "A12.153", "Mopping Up happens in the ATTACKER's PFPh")
        require(
            guard.side == state.attacker,
            "A12.153",
            "broken units in a Mopped-Up building surrender to an ATTACKER unit",
        )
    for u in units:
        if reason == "disrupted":
            require(u.disrupted or u.broken, "A19.12", f"{describe(u)} is not Disrupted")
        elif reason != "hob":
            require(u.broken, "A20.21", f"{describe(u)} is not broken; only broken units surrender")
        if reason == "mopup":
            continue  # A12.153: even units that never surrender via the RtPh
        why = never_surrenders(state, u, guard.side)
        if why is not None:
            if reason == "hob":
                raise Refusal(
                    "A15.5", f"{why.text}; on a HOB surrender result it goes berserk instead"
                )
            raise why
    require_guard(guard, phase_rtph=reason != "mopup")
    if reason != "mopup":
        require(
            not guard.broken,
            "A20.21",
            f"{describe(guard)} is broken; a surrender needs a Good Order captor",
        )
        require(
            guard.is_infantry,
            "A20.21",
            f"{describe(guard)} is not Infantry/Cavalry and cannot take a surrender",
        )


def check_surrender(state: GameState, ev: Surrendered) -> None:
    units = _stack(state, ev.units)
    guard = unit(state, ev.guard)
    _check_surrendering_stack(state, units, guard, ev.reason)
    require(set(ev.freed) <= set(ev.units), "input", "only surrendering units can be freed")
    taken = [u for u in units if u.handle not in ev.freed]
    require_room(state, guard, taken, ev.merges)
    for handle in ev.freed:
        # A20.21: only the excess the Guard cannot hold is freed; the stack is otherwise
        # accepted (or rejected) whole.
        back = state.units[handle]
        require(
            not _fits(state, guard, taken + [back], ev.merges),
            "A20.21",
            f"{describe(back)} fits under {describe(guard)}; only the excess over the "
            "Guard's capacity is freed",
        )


def apply_surrender(state: GameState, ev: Surrendered) -> None:
    guard = state.units[ev.guard]
    for handle in ev.units:
        u = state.units[handle]
        u.surrendered_to = guard.side
        if handle in ev.freed:
            for held in state.prisoners_of(u.handle):  # as in make_prisoner
                free_unit(held, "escaped")
                held.note = f"freed: its Guard {u.handle} surrendered"
            _to_unarmed(u)
            free_unit(u, "freed")
            u.note = f"freed as excess when its stack surrendered to {guard.handle}"
        else:
            make_prisoner(state, u, guard, ev.seq, f"surrender ({ev.reason})")
    apply_merges(state, ev.merges, guard, ev.seq)


def _to_unarmed(u: Unit) -> None:
    u.armed = False
    u.broken = u.pinned = u.disrupted = False
    if not u.is_smc:
        u.unit_kind = "squad" if u.unit_kind == "squad" else "hs"
        u.counter = "(1)-0-6"
        u.traits = frozenset()  # A20.51


# ------------------------------------------------------------------- No Quarter
def check_reject(state: GameState, ev: SurrenderRejected) -> None:
    units = _stack(state, ev.units)
    by_side = side_of(state, ev.by_side)
    require(by_side != units[0].side, "input", "a side cannot reject its own units")
    require(
        state.phase == "RtPh" or all(u.disrupted for u in units),
        "A20.3",
        "only a RtPh or Disrupted surrender can be rejected",
    )
    for u in units:
        require(u.broken or u.disrupted, "A20.3", f"{describe(u)} is not surrendering (not broken)")
        # A unit that never surrenders to this side offers no surrender to reject.
        raise_reason(never_surrenders(state, u, by_side))


def apply_reject(state: GameState, ev: SurrenderRejected) -> None:
    by_side = side_of(state, ev.by_side)
    side = state.sides[by_side]
    if not side.no_quarter:
        side.no_quarter, side.no_quarter_seq = True, ev.seq
    for handle in ev.units:
        u = state.units[handle]
        eliminate_unit(state, u, ev.seq)
        book_casualty(
            state,
            u,
            ev.seq,
            1,
            "A20.3",
            "surrender rejected: No Quarter (not counted for Battlefield Integrity)",
        )


# --------------------------------------------------------------------- CC capture
def check_capture(state: GameState, ev: Captured) -> None:
    guard = unit(state, ev.guard)
    require(
        state.phase == "CCPh", "A20.22", f"capture in CC happens in the CCPh (now {state.phase})"
    )
    require_guard(guard)
    handles = list(ev.units) + ([ev.split] if ev.split else [])
    require(bool(handles), "input", "name the captured units")
    require(len(set(handles)) == len(handles), "input", "a unit is named twice")
    for u in (unit(state, h) for h in handles):
        require(u.side != guard.side, "input", f"{describe(u)} is on the captor's side")
        require(
            u.status == ACTIVE,
            "input",
            f"{describe(u)} is {u.status}",
            "an unarmed unit is taken back with recapture",
        )
        require(
            not u.berserk, "A20.2", f"{describe(u)} is berserk; berserk units are never captured"
        )
        require(u.unit_kind != "vehicle", "A20.22", "a manned AFV cannot be captured in CC")
        if u.location and guard.location:
            require(
                u.location == guard.location,
                "A20.22",
                f"{describe(u)} is in {u.location}, not in the CC Location {guard.location}",
            )
    taken = [state.units[h] for h in ev.units]
    if ev.split:
        squad = state.units[ev.split]
        require(
            squad.unit_kind == "squad",
            "A20.22",
            f"{describe(squad)} is not a squad; a one-unit capture of it takes it whole",
        )
        require_new_handle(state, ev.hs_captured)
        require_new_handle(state, ev.hs_free)
        require(ev.hs_captured != ev.hs_free, "input", "the two HS need different handles")
        half = Unit(
            handle=ev.hs_captured,
            side=squad.side,
            unit_kind="hs",
            counter="",
            created=0,
            cvp=0,
            origins=[],
        )
        taken = taken + [half]
    require_room(state, guard, taken, ev.merges, new_hs=(ev.hs_captured,) if ev.split else ())


def apply_capture(state: GameState, ev: Captured) -> None:
    guard = state.units[ev.guard]
    for handle in ev.units:
        make_prisoner(state, state.units[handle], guard, ev.seq, "CC capture")
    if ev.split:
        squad = state.units[ev.split]
        retire(squad, ev.seq, "split by a CC capture")
        hs_cvp = normal_cvp("hs", "", state.cvp_overrides)
        counter = ev.hs_counter or f"HS of {squad.counter}"
        captured = new_counter(
            state,
            ev.hs_captured,
            squad.side,
            "hs",
            counter,
            ev.seq,
            origins=[Origin(ev.hs_captured, "hs", counter, hs_cvp)],
            location=squad.location,
        )
        make_prisoner(state, captured, guard, ev.seq, "CC capture (one HS)")
        free = new_counter(
            state,
            ev.hs_free,
            squad.side,
            "hs",
            counter,
            ev.seq,
            location=squad.location,
            broken=squad.broken,
            melee=True,
            traits=squad.traits,
        )
        # A Guard squad split by a capture: its free HS keeps what it can (A20.5,
        # A20.51); the rest are no longer prisoners.
        room = capacity(free)
        for held in state.prisoners_of(squad.handle):
            if held.us <= room:
                held.guard, room = free.handle, room - held.us
            else:
                free_unit(held, "escaped")
                held.note = f"freed: its Guard {squad.handle} was split by a capture"
        guard.melee = True
    apply_merges(state, ev.merges, guard, ev.seq)


# ---------------------------------------------------------------- mutual capture
def check_mutual(state: GameState, ev: MutualCapture) -> None:
    require(state.phase == "CCPh", "A20.221", "simultaneous capture happens in the CCPh")
    require(bool(ev.units), "input", "name the units left in the Location")
    for u in (unit(state, h) for h in ev.units):
        require(u.on_board, "input", f"{describe(u)} is {u.status}")
        rearm_counter(state, _as_unarmed_view(u), ev.counters.get(u.handle, ""))


def _as_unarmed_view(u: Unit) -> Unit:
    if u.is_smc or u.unit_kind in ("squad", "hs"):
        return u
    view = Unit(**{**u.__dict__, "unit_kind": "hs"})
    return view


def apply_mutual(state: GameState, ev: MutualCapture) -> None:
    units = [state.units[h] for h in ev.units]
    both_sides = len({u.side for u in units}) > 1
    for u in units:
        if not u.is_smc and u.unit_kind not in ("squad", "hs"):
            u.unit_kind = "hs"
        rearm_unit(state, u, rearm_counter(state, u, ev.counters.get(u.handle, "")), ev.seq)
        u.melee = both_sides
        u.broken = False


# --------------------------------------------------------------------- recapture
def check_recapture(state: GameState, ev: Recaptured) -> None:
    guard = unit(state, ev.guard)
    require(
        state.phase in ("MPh", "CCPh"),
        "A20.54",
        "unarmed units are recaptured by CC, or by entering their Location in the MPh",
    )
    require_guard(guard)
    require(guard.is_infantry, "A20.54", f"{describe(guard)} is not Infantry/Cavalry")
    if state.phase == "MPh":
        require(
            guard.side == state.attacker,
            "A20.54",
            "in the MPh only a moving unit recaptures, by entering the Location and "
            "attacking in CC at once",
        )
    require(bool(ev.units), "input", "name the unarmed units recaptured")
    taken = [unit(state, h) for h in ev.units]
    for u in taken:
        require(u.side != guard.side, "input", f"{describe(u)} is on the captor's side")
        require(u.status == UNARMED, "A20.54", f"{describe(u)} is not a free unarmed unit")
        if u.location and guard.location:
            require(
                u.location == guard.location,
                "A20.54",
                f"{describe(u)} is in {u.location}, not in {guard.location}",
            )
    require_room(state, guard, taken, ev.merges)


def apply_recapture(state: GameState, ev: Recaptured) -> None:
    guard = state.units[ev.guard]
    for handle in ev.units:
        make_prisoner(state, state.units[handle], guard, ev.seq, "recapture")
    apply_merges(state, ev.merges, guard, ev.seq)


__all__ = [name for name in dir() if name.startswith(("check_", "apply_"))] + [
    "never_surrenders",
    "PRISONER",
]
