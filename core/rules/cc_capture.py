"""Capture in Close Combat (A20.22), by an armed or a free unarmed unit (A20.551), and
simultaneous mutual capture (A20.221).

Separate from surrender (``core.rules.surrender``): a CC capture is the captor's attack,
so its refusals are those of a CC attacker, and it may split a squad or void captures
when a side is wiped out of the Location.
"""

from __future__ import annotations

from stockade.core.model.errors import InputRefusal, Refusal, RuleRefusal, require, require_input
from stockade.core.model.events import Captured, MutualCapture
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import ACTIVE, PRISONER, UNARMED, Origin, Unit
from stockade.core.model.units import normal_cvp
from stockade.core.rules.counters import (
    apply_merges,
    free_as_excess,
    free_unit,
    half_squad_counter,
    make_prisoner,
    new_counter,
    rearm_counter,
    rearm_unit,
    retire,
)
from stockade.core.rules.guarding import (
    capacity,
    guard_refusal,
    holds,
    require_guard,
    require_room,
)
from stockade.core.rules.lookup import (
    describe,
    raise_reason,
    require_new_handle,
    require_on_board,
    unit,
)
from stockade.core.rules.melee import armed_units_of, start_melee
from stockade.core.rules.rearming import size_words
from stockade.core.rules.simultaneous_cc import (
    Outcome,
    capture_back,
    capture_back_outcome,
    captured_this_ccph,
    to_exchange,
    void_captures,
    where_taken,
)


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


def capture_attacker_refusal(guard: Unit, state: GameState | None = None) -> Refusal | None:
    """Why ``guard`` cannot attempt a CC capture at all, whatever it attacks, or None:
    what ``check_capture`` asks of the captor before it looks at the defenders. A free
    unarmed unit may (it is rearmed by the capture, A20.551); an SMC is never unarmed.
    Given ``state``, a unit captured in this CCPh may too: its own attack of that
    simultaneous CC is still made (A20.221)."""
    if state is not None and captured_this_ccph(state, guard):
        if guard.captured_broken:
            return cc_attacker_refusal(Unit(**{**guard.__dict__, "broken": True}))
        return None
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

    Only armed Personnel guard (A20.5): a captor that none of the units it takes would
    rearm stays unarmed and cannot guard them, so its capture is refused (Stockade's
    ruling, Unarmed captor; docs/rulings.md)."""
    require(
        not guard.is_smc,
        "A20.551",
        "escaped SMC are always armed",
    )
    armed = [t for t in taken if t.armed and not t.rearm_spent]
    enemy = next((t for t in armed if t.us >= guard.us), None)
    if enemy is None:
        smaller = next((t for t in armed), None)
        why = size_words(guard, smaller) if smaller else "none of them is an armed enemy"
        raise RuleRefusal(
            "A20.551",
            f"{describe(guard)} is not rearmed by this capture ({why}); an unarmed unit "
            "cannot guard prisoners (A20.5; Stockade's ruling, Unarmed captor)",
            "a capture it cannot hold is no capture: record the CC as their elimination, "
            f"e.g. eliminate {taken[0].handle} by cc"
            if taken
            else "",
        )
    require(
        not ev.rearm_split,
        "A20.551",
        f"{describe(enemy)} rearms {describe(guard)} whole; a rearm splits nothing",
    )
    rearm_counter(state, guard, ev.rearm_as)
    return enemy


def check_capture(state: GameState, ev: Captured) -> None:
    guard = unit(state, ev.guard)
    require(
        state.phase == "CCPh", "A20.22", f"capture in CC happens in the CCPh (now {state.phase})"
    )
    if captured_this_ccph(state, guard):
        check_capture_back(state, guard, ev)
        return
    unarmed = guard.status == UNARMED
    if not unarmed:
        require_guard(guard)
        require_input(not ev.rearm_as, f"{describe(guard)} is armed; it is not rearmed")
    require_cc_attacker(guard)
    handles = list(ev.units) + ([ev.split] if ev.split else [])
    require_input(bool(handles), "name the captured units")
    require_input(len(set(handles)) == len(handles), "a unit is named twice")
    for u in (unit(state, h) for h in handles):
        require(u.side != guard.side, "A20.22", f"{describe(u)} is on the captor's side")
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
    require_input(len(set(ev.freed)) == len(ev.freed), "a unit is freed twice")
    require_input(set(ev.freed) <= set(ev.units), "only units captured whole can be freed")
    for handle in ev.freed:
        require(
            state.units[handle].status == ACTIVE,
            "A20.5",
            f"{describe(state.units[handle])} is a prisoner already; only a captured unit "
            "the Guard cannot hold goes free",
        )
    taken = [state.units[h] for h in ev.units if h not in ev.freed]
    if unarmed:
        _unarmed_captor(state, guard, taken, ev)
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
    require_room(
        state,
        guard,
        fresh,
        ev.merges,
        new_hs=(ev.hs_captured,) if ev.split else (),
        excess_hint=_free_hint(state, guard, fresh, ev),
    )
    for handle in ev.freed:
        # A20.5: the Guard guards all those it can handle; only the rest go free
        back = state.units[handle]
        require(
            not holds(state, guard, [*fresh, back], len(ev.merges)),
            "A20.5",
            f"{describe(back)} fits under {describe(guard)}; a Guard guards all those units "
            "it can handle, and only the excess over its capacity goes free",
        )


def _free_hint(state: GameState, guard: Unit, fresh: list[Unit], ev: Captured) -> str:
    """What a capture over the Guard's capacity can say instead: A20.22 takes every
    defender, and the Guard guards what it can handle (A20.5), so the rest are named as
    freed. The excess suggested is taken from the end of the list, each unit put back
    when it fits (a freed unit must not fit, A20.5); the choice is the captor's."""
    room = capacity(guard) - state.prisoner_load(guard.handle) + len(ev.merges)
    load = sum(u.us for u in fresh)
    excess: list[Unit] = []
    for u in reversed(fresh):
        if load <= room:
            break
        if u.handle in ev.units and u.status == ACTIVE:
            excess.append(u)
            load -= u.us
    for u in list(reversed(excess)):
        if load + u.us <= room:
            excess.remove(u)
            load += u.us
    if not excess or load > room:
        return "capture fewer with this unit: name only those it takes"
    named = " ".join(u.handle for u in reversed(excess))
    return (
        "all defenders are captured (A20.22) and the Guard guards what it can handle "
        f"(A20.5): free the excess as Unarmed, e.g. add 'free {named}' (the captor's choice)"
    )


def check_capture_back(state: GameState, captor: Unit, ev: Captured) -> None:
    """A20.221: ``captor`` was itself captured in CC in this CCPh; CC being simultaneous,
    its own capture attack of that phase is recorded too. It attacked as the unit it was
    (not broken, A11.16), against whole units of the other side in that Location; what
    its capture comes to is ``capture_back``'s."""
    where = where_taken(captor)
    require(
        not captor.captured_broken,
        "A20.22",
        f"{describe(captor)} was broken when captured and may not attack in CC (A11.16)",
    )
    require_input(not ev.rearm_as, f"{describe(captor)} was armed; it is not rearmed")
    require(
        not ev.split and not ev.merges and not ev.rearm_split and not ev.freed,
        "A20.221",
        f"{describe(captor)} was captured in this CCPh: Stockade records its capture back "
        "of whole units only (name them), with no HS exchange and none freed",
    )
    require_input(bool(ev.units), "name the captured units")
    require_input(len(set(ev.units)) == len(ev.units), "a unit is named twice")
    taken = [unit(state, h) for h in ev.units]
    for u in taken:
        require(u.side != captor.side, "A20.22", f"{describe(u)} is on the captor's side")
        require_on_board(u)
        require(
            u.status == ACTIVE,
            "A20.221",
            f"{describe(u)} is {u.status}: {describe(captor)}'s simultaneous CC attack "
            "captures only units fighting in its Location",
        )
        require(
            not u.berserk, "A20.2", f"{describe(u)} is berserk; berserk units are never captured"
        )
        require(u.unit_kind != "vehicle", "A20.22", "a manned AFV cannot be captured in CC")
        require(
            not u.location or u.location == where,
            "A20.22",
            f"{describe(u)} is in {u.location}, not in the CC Location {where}",
        )
    if capture_back_outcome(state, captor, taken) == Outcome.EACH_OTHER:
        for u in to_exchange(state, where, taken):
            try:
                rearm_counter(state, u)
            except RuleRefusal as refusal:
                everyone = " ".join(x.handle for x in to_exchange(state, where, taken))
                raise refusal.with_hint(
                    f"record the whole exchange at once, naming the counter: mutual "
                    f"{everyone} {u.handle}=COUNTER"
                ) from None


def apply_capture(state: GameState, ev: Captured) -> None:
    guard = state.units[ev.guard]
    if captured_this_ccph(state, guard):
        capture_back(state, guard, [state.units[h] for h in ev.units], ev.seq)
        return
    if guard.status == UNARMED:  # A20.551: the capture rearms it, in the same entry
        enemy = _unarmed_captor(state, guard, [state.units[h] for h in ev.units], ev)
        enemy.rearm_spent = True
        rearm_unit(state, guard, rearm_counter(state, guard, ev.rearm_as), ev.seq)
        guard.note = f"rearmed by capturing {enemy.handle} in CC (A20.551)"
    fought = []  # the units this capture takes out of the fight
    for handle in ev.units:
        taken = state.units[handle]
        if taken.status == PRISONER:  # in Melee with its Guard: taken over (ruling)
            taken.guard, taken.melee = guard.handle, False
            continue
        fought.append(taken)
        if handle in ev.freed:  # A20.5: more than the Guard can handle
            why = f"freed as excess when {guard.handle} captured it: it can guard no more"
            free_as_excess(state, taken, "was captured", why)
            continue
        make_prisoner(state, taken, guard, ev.seq, "CC capture")
    if ev.split:
        squad = state.units[ev.split]
        retire(squad, ev.seq, "split by a CC capture")
        hs_cvp = normal_cvp("hs", "", state.cvp_overrides)
        counter = half_squad_counter(state, squad.side, squad.counter, ev.hs_counter)
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
