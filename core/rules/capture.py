"""Taking prisoners: RtPh/Disrupted/HOB surrender, No Quarter, CC capture, Mopping Up,
simultaneous mutual capture and recapture of unarmed units (A20.2-A20.3, A20.54)."""

from __future__ import annotations

from collections.abc import Sequence

from stockade.core.model.errors import InputRefusal, Refusal, RuleRefusal, require, require_input
from stockade.core.model.events import (
    Captured,
    Merge,
    MutualCapture,
    Recaptured,
    Surrendered,
    SurrenderRejected,
)
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import ACTIVE, PRISONER, UNARMED, Origin, Unit
from stockade.core.model.units import nationality_flags, normal_cvp
from stockade.core.rules.common import (
    apply_merges,
    armed_units_of,
    book_casualty,
    capacity,
    describe,
    eliminate_unit,
    free_unit,
    guard_refusal,
    make_prisoner,
    new_counter,
    raise_reason,
    rearm_counter,
    rearm_unit,
    require_guard,
    require_new_handle,
    require_on_board,
    require_room,
    require_same_side,
    retire,
    side_of,
    start_melee,
    unit,
    void_captures,
)
from stockade.core.rules.escape import split_rearm

_RTPH_REASONS = ("rtph", "encircled", "disrupted", "hob")


# ----------------------------------------------------------------- who surrenders
def never_surrenders(state: GameState, u: Unit, captor_side: str) -> Refusal | None:
    """Why ``u`` never surrenders via the RtPh method to ``captor_side`` (A20.21, A20.3)."""
    nationality = state.sides[u.side].nationality
    captor_nationality = state.sides[captor_side].nationality
    if nationality_flags(nationality).get("no_rtph"):
        return RuleRefusal("A20.21", f"{nationality} units never surrender via the RtPh")
    if "commissar" in u.traits:
        return RuleRefusal("A20.21", "Commissars never surrender via the RtPh")
    if "fanatic" in u.traits:
        return RuleRefusal("A20.21", "Fanatic units never surrender via the RtPh")
    is_ss = nationality == "SS" or "ss" in u.traits
    if is_ss and captor_nationality == "Russian":
        return RuleRefusal("A20.21", "SS troops facing Russians never surrender via the RtPh")
    if state.sides[captor_side].no_quarter:
        return RuleRefusal(
            "A20.3",
            f"{captor_side} has invoked No Quarter; its enemies never surrender "
            "to it via the RtPh (they Low Crawl or risk Interdiction)",
        )
    return None


def _stack(state: GameState, handles: list[str], rule: str) -> list[Unit]:
    """The surrendering stack; a unit that is no armed unit on the board is refused
    citing ``rule`` (A20.21 for a surrender, A20.3 for a rejection)."""
    require_input(bool(handles), "name the surrendering units")
    require_input(len(set(handles)) == len(handles), "a unit is named twice")
    units = [unit(state, h) for h in handles]
    require_same_side(units)
    for u in units:  # each sentence is made only for its refusal (the fold checks them all)
        if u.status != ACTIVE:
            require_on_board(u)
            raise RuleRefusal(
                rule,
                f"{describe(u)} is {u.status}, not an armed unit on the board: only a "
                "broken armed unit surrenders",
            )
        if u.berserk:
            raise RuleRefusal(
                "A20.2", f"{describe(u)} is berserk; berserk units are never captured"
            )
        if not u.is_infantry:
            raise RuleRefusal("A20.21", f"{describe(u)} is not Infantry; only Infantry surrenders")
    places = {u.location for u in units if u.location}
    require(
        len(places) <= 1,
        "A20.21",
        "a stack surrendering together stands in one Location, not " + ", ".join(sorted(places)),
    )
    return units


def _fits(state: GameState, guard: Unit, incoming: list[Unit], merges: Sequence[Merge]) -> bool:
    load = state.prisoner_load(guard.handle) + sum(u.us for u in incoming) - len(merges)
    return load <= capacity(guard)


def _check_surrendering_stack(
    state: GameState, units: list[Unit], guard: Unit, reason: str
) -> None:
    if guard.side == units[0].side:
        raise InputRefusal(f"{describe(guard)} is on the same side")
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
            # Disrupted is recorded on the board state: the claim is checked, not trusted
            # (Encircled and HOB are not tracked: the entry records them as a claim).
            require(
                u.disrupted,
                "A20.21",
                f"{describe(u)} is not recorded as Disrupted",
                f"if it is, record it first: disrupt {u.handle}",
            )
        elif reason != "hob" and not u.broken:  # (the sentence only for the refusal)
            raise RuleRefusal("A20.21", f"{describe(u)} is not broken; only broken units surrender")
        if reason == "mopup":
            continue  # A12.153: even units that never surrender via the RtPh
        why = never_surrenders(state, u, guard.side)
        if why is not None:
            if reason == "hob":
                raise RuleRefusal(
                    "A15.5", f"{why.text}; on a HOB surrender result it goes berserk instead"
                )
            raise why
    require_guard(guard, phase_rtph=reason != "mopup")
    if reason != "mopup":
        if guard.broken:
            raise RuleRefusal(
                "A20.21", f"{describe(guard)} is broken; a surrender needs a Good Order captor"
            )
        if not guard.is_infantry:
            raise RuleRefusal(
                "A20.21",
                f"{describe(guard)} is not Infantry/Cavalry and cannot take a surrender",
            )


def left_out_of_stack(
    state: GameState, units: list[Unit], captor_side: str, reason: str
) -> list[Unit]:
    """Broken units of the stack's Location that the entry leaves out, though they
    would surrender to ``captor_side`` with it (A20.21: "A stack of broken units in a
    Location surrenders simultaneously and must be accepted or rejected as a stack")."""
    location = units[0].location if units else ""
    if state.phase != "RtPh" or reason not in ("rtph", "encircled", "disrupted") or not location:
        return []
    named = {u.handle for u in units}
    return [
        o
        for o in state.active_at(location)
        if o.location == location
        and o.side == units[0].side
        and o.handle not in named
        and o.status == ACTIVE
        and o.broken
        and o.is_infantry
        and not o.berserk
        and never_surrenders(state, o, captor_side) is None
    ]


def require_whole_stack(
    state: GameState, units: list[Unit], captor_side: str, reason: str, others_why: str
) -> None:
    left = left_out_of_stack(state, units, captor_side, reason)
    if left and not others_why.strip():
        names = " ".join(o.handle for o in left)
        raise RuleRefusal(
            "A20.21",
            f"{names} {'is' if len(left) == 1 else 'are'} broken in {units[0].location} too: "
            "a stack surrenders, and is accepted or rejected, as a stack",
            f"name them too, or say why they are not surrendering: "
            f'because "{left[0].handle} has a legal rout path"',
        )


def check_surrender(state: GameState, ev: Surrendered) -> None:
    units = _stack(state, ev.units, "A20.21")
    guard = unit(state, ev.guard)
    _check_surrendering_stack(state, units, guard, ev.reason)
    require_input(set(ev.freed) <= set(ev.units), "only surrendering units can be freed")
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
    require_whole_stack(state, units, guard.side, ev.reason, ev.others_why)


def apply_surrender(state: GameState, ev: Surrendered) -> None:
    guard = state.units[ev.guard]
    for handle in ev.units:
        u = state.units[handle]
        u.surrendered_to = guard.side
        if handle in ev.freed:
            for held in state.prisoners_of(u.handle):  # as in make_prisoner
                free_unit(state, held, "escaped")
                held.note = f"freed: its Guard {u.handle} surrendered"
            _to_unarmed(u)
            free_unit(state, u, "freed")
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
    units = _stack(state, ev.units, "A20.3")
    by_side = side_of(state, ev.by_side)
    require_input(by_side != units[0].side, "a side cannot reject its own units")
    require(
        state.phase == "RtPh" or all(u.disrupted for u in units),
        "A20.3",
        "only a RtPh or Disrupted surrender can be rejected",
    )
    for u in units:
        require(u.broken or u.disrupted, "A20.3", f"{describe(u)} is not surrendering (not broken)")
        # A unit that never surrenders to this side offers no surrender to reject.
        raise_reason(never_surrenders(state, u, by_side))
    require_whole_stack(state, units, by_side, "rtph", ev.others_why)


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
def cc_attacker_refusal(guard: Unit, what: str = "capture") -> Refusal | None:
    """A broken unit may never attack in CC (A11.16; A20.55 EX: "The broken Guard
    cannot attack"), so it cannot attempt a capture (A20.22)."""
    if guard.broken:
        return RuleRefusal(
            "A20.22",
            f"{describe(guard)} is broken and may not attack in CC (A11.16), so it cannot {what}",
        )
    return None


def require_cc_attacker(guard: Unit, what: str = "capture") -> None:
    raise_reason(cc_attacker_refusal(guard, what))


def capture_attacker_refusal(guard: Unit) -> Refusal | None:
    """Why ``guard`` cannot attempt a CC capture at all, whatever it attacks, or None:
    what ``check_capture`` asks of the captor before it looks at the defenders. A free
    unarmed unit may (it is rearmed by the capture, A20.551); an SMC is never unarmed."""
    if guard.status == UNARMED:
        if guard.is_smc:
            return RuleRefusal("A20.551", "escaped SMC are always armed")
        return cc_attacker_refusal(guard)
    return guard_refusal(guard) or cc_attacker_refusal(guard)


def melee_prisoner_refusal(state: GameState, p: Unit, captor: Unit) -> Refusal | None:
    """Why prisoner ``p`` may not be taken by ``captor`` in CC, or None.

    A published ruling: another unit of the Guard's side may capture prisoners "only if
    the prisoners are attacking the guard or are in melee" (docs/rulings.md)."""
    guard = state.units.get(p.guard or "")
    if guard is None or guard.side != captor.side:
        return InputRefusal(f"{describe(p)} is a prisoner of the other side")
    if guard.handle == captor.handle:
        return RuleRefusal("A20.22", f"{describe(p)} is already {captor.handle}'s prisoner")
    if not (p.melee or guard.melee):
        return RuleRefusal(
            "A20.22",
            f"{describe(p)} is a prisoner of {describe(guard)} and is not in Melee; "
            "another unit takes it only by transfer (A20.5, friendly RPh/APh)",
        )
    return None


def _unarmed_captor(state: GameState, guard: Unit, taken: list[Unit], ev: Captured) -> Unit:
    """An unarmed unit attacking in CC may capture (A20.22 "any non-vehicular,
    non-berserk unit"); each armed enemy it captures rearms one unarmed unit of equal
    or smaller size at once (A20.551). The armed enemy that rearms it, returned.

    One rule with ``rearm ... cc`` (``escape.rearm_refusal``): a HS-size enemy rearms an
    unarmed squad as a Green/Conscript HS plus an unarmed HS, so such a capture names
    the two HS (``rearm_split``); the armed HS guards what it took."""
    require(
        not guard.is_smc,
        "A20.551",
        "escaped SMC are always armed",
    )
    armed = [t for t in taken if t.armed and not t.rearm_spent]
    enemy = next((t for t in armed if t.us >= guard.us), None)
    if enemy is not None:
        require(
            not ev.rearm_split,
            "A20.551",
            f"{describe(enemy)} rearms {describe(guard)} whole; it does not split",
        )
        rearm_counter(state, guard, ev.rearm_as)
        return enemy
    enemy = next((t for t in armed if guard.unit_kind == "squad" and t.us == 2), None)
    if enemy is None:
        raise RuleRefusal(
            "A20.551",
            f"none of the units {describe(guard)} captures is an armed enemy of its size or "
            "larger, so it is not rearmed and cannot guard them",
            "record the capture as their elimination, or rearm it first",
        )
    require(
        len(ev.rearm_split) == 2 and ev.rearm_split[0] != ev.rearm_split[1],
        "A20.551",
        f"a HS-size enemy rearms a HS: {guard.handle} becomes a Green/Conscript HS, the "
        "Guard, and an unarmed HS",
        "name the two new HS handles",
    )
    for handle in ev.rearm_split:
        require_new_handle(state, handle)
    rearm_counter(state, _as_hs(guard), ev.rearm_as)
    return enemy


def _as_hs(u: Unit) -> Unit:
    """``u`` as the HS it would split into: what capacity and the rearm table ask."""
    return Unit(**{**u.__dict__, "unit_kind": "hs"})


def check_capture(state: GameState, ev: Captured) -> None:
    guard = unit(state, ev.guard)
    require(
        state.phase == "CCPh", "A20.22", f"capture in CC happens in the CCPh (now {state.phase})"
    )
    unarmed = guard.status == UNARMED
    if not unarmed:
        require_guard(guard)
        require_input(not ev.rearm_as, f"{describe(guard)} is armed; it is not rearmed")
    require_cc_attacker(guard)
    handles = list(ev.units) + ([ev.split] if ev.split else [])
    require_input(bool(handles), "name the captured units")
    require_input(len(set(handles)) == len(handles), "a unit is named twice")
    for u in (unit(state, h) for h in handles):
        require_input(u.side != guard.side, f"{describe(u)} is on the captor's side")
        if u.status == PRISONER and u.handle in ev.units:
            raise_reason(melee_prisoner_refusal(state, u, guard))
            require(not unarmed, "A20.22", f"{describe(guard)} is unarmed; it cannot guard")
        else:
            require_on_board(u)
            require(
                u.status == ACTIVE,
                "A20.54",
                f"{describe(u)} is {u.status}: a free unarmed unit is recaptured, not captured",
                f"recapture {u.handle} by {guard.handle}",
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
    if unarmed:
        _unarmed_captor(state, guard, taken, ev)
        if ev.rearm_split:
            guard = _as_hs(guard)  # the armed HS it becomes guards them
    else:
        require_input(not ev.rearm_split, f"{describe(guard)} is armed; it does not split")
    if ev.split:
        squad = state.units[ev.split]
        require(
            squad.unit_kind == "squad",
            "A20.22",
            f"{describe(squad)} is not a squad; a one-unit capture of it takes it whole",
        )
        require_new_handle(state, ev.hs_captured)
        require_new_handle(state, ev.hs_free)
        require_input(ev.hs_captured != ev.hs_free, "the two HS need different handles")
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
    fresh = [t for t in taken if t.status != PRISONER or t.guard != guard.handle]
    require_room(state, guard, fresh, ev.merges, new_hs=(ev.hs_captured,) if ev.split else ())


def apply_capture(state: GameState, ev: Captured) -> None:
    guard = state.units[ev.guard]
    if guard.status == UNARMED:  # A20.551: the capture rearms it, in the same entry
        enemy = _unarmed_captor(state, guard, [state.units[h] for h in ev.units], ev)
        enemy.rearm_spent = True
        if ev.rearm_split:
            split_rearm(state, guard, ev.rearm_split, ev.rearm_as, ev.seq, "split on rearming ")
            guard = state.units[ev.rearm_split[0]]
        else:
            rearm_unit(state, guard, rearm_counter(state, guard, ev.rearm_as), ev.seq)
        guard.note = f"rearmed by capturing {enemy.handle} in CC (A20.551)"
    fought = []  # the units this capture takes out of the fight
    for handle in ev.units:
        taken = state.units[handle]
        if taken.status == PRISONER:  # in Melee with its Guard: taken over (ruling)
            taken.guard, taken.melee = guard.handle, False
            continue
        fought.append(taken)
        make_prisoner(state, taken, guard, ev.seq, "CC capture")
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
        captured.split_from = squad.handle
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
            traits=squad.traits,
        )
        free.split_from = squad.handle
        start_melee(state, free)
        # A Guard squad split by a capture: its free HS keeps what it can (A20.5,
        # A20.51); the rest are no longer prisoners.
        room = capacity(free)
        for held in state.prisoners_of(squad.handle):
            if held.us <= room:
                held.guard, room = free.handle, room - held.us
            else:
                free_unit(state, held, "escaped")
                held.note = f"freed: its Guard {squad.handle} was split by a capture"
        start_melee(state, guard)
    apply_merges(state, ev.merges, guard, ev.seq)
    side_wiped_out(state, fought, ev.seq)


def side_wiped_out(state: GameState, lost: list[Unit], seq: int) -> None:
    """A20.221: when the units just eliminated/captured were the last of their side in
    a CC Location, that side's CC captures there this phase are void."""
    for side, location in {(u.side, u.captured_at or u.location) for u in lost}:
        if location and not armed_units_of(state, side, location):
            void_captures(
                state, side, location, seq, f"{side} was wholly eliminated/captured in {location}"
            )


# ---------------------------------------------------------------- mutual capture
def check_mutual(state: GameState, ev: MutualCapture) -> None:
    require(state.phase == "CCPh", "A20.221", "simultaneous capture happens in the CCPh")
    require_input(bool(ev.units), "name the units left in the Location")
    for u in (unit(state, h) for h in ev.units):
        require_input(u.on_board, f"{describe(u)} is {u.status}")
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
        if both_sides:
            start_melee(state, u)
        else:
            u.melee = False
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
        require_input(u.side != guard.side, f"{describe(u)} is on the captor's side")
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
