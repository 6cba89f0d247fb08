"""Handling prisoners: transfer, HS/squad exchange, deploy, abandon, escort off
(A20.5, A20.51, A20.53)."""

from __future__ import annotations

from stockade.core.model.errors import InputRefusal, Refusal, RuleRefusal, require, require_input
from stockade.core.model.events import (
    Abandoned,
    Deployed,
    EscortedOff,
    Exchanged,
    PrisonerSplit,
    Transferred,
)
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import ACTIVE, ESCORTED, PRISONER, Origin, Unit
from stockade.core.model.units import UNARMED_COUNTER, normal_cvp
from stockade.core.rules.casualties import book_casualty
from stockade.core.rules.counters import (
    apply_merges,
    exchange_into_squad,
    free_unit,
    half_squad_counter,
    new_counter,
    retire,
)
from stockade.core.rules.guarding import accept_refusal, capacity, require_room
from stockade.core.rules.lookup import (
    describe,
    guard_of,
    raise_reason,
    require_new_handle,
    require_on_board,
    unit,
)


def named_prisoners(
    state: GameState, handles: list[str], rule: str = "A20.5"
) -> tuple[list[Unit], Unit]:
    """The named prisoners, all above one Guard, and that Guard. A unit that is not a
    prisoner is refused citing ``rule``, the rule of what the entry does with them."""
    require_input(bool(handles), "name the prisoners")
    require_input(len(set(handles)) == len(handles), "a prisoner is named twice")
    units = [unit(state, h) for h in handles]
    for u in units:
        require_on_board(u)
        require(u.status == PRISONER, rule, f"{describe(u)} is not a prisoner ({u.status})")
    guards = {u.guard for u in units}
    require(
        len(guards) == 1,
        rule,
        "these prisoners have different Guards ("
        + ", ".join(sorted(g or "" for g in guards))
        + "); only one unit is their Guard, one Guard at a time",
    )
    return units, guard_of(state, units[0])


def _require_friendly_rph_aph(state: GameState, guard: Unit, what: str) -> None:
    require(
        state.phase in ("RPh", "APh") and state.attacker == guard.side,
        "A20.5",
        f"prisoners may be {what} only in a friendly RPh or APh "
        f"(now {state.attacker}'s {state.phase})",
    )


def _require_not_in_melee(guard: Unit, prisoners: list[Unit], what: str) -> None:
    in_melee = guard.melee or any(p.melee for p in prisoners)
    require(
        not in_melee,
        "A20.5",
        f"prisoners in Melee with their Guard {describe(guard)} cannot be {what}",
    )


# ---------------------------------------------------------------------- transfer
def check_transfer(state: GameState, ev: Transferred) -> None:
    prisoners, guard = named_prisoners(state, ev.units)
    target = unit(state, ev.to_guard)
    require_input(target.handle != guard.handle, f"{describe(target)} already guards them")
    _require_friendly_rph_aph(state, guard, "transferred")
    _require_not_in_melee(guard, prisoners, "transferred")
    raise_reason(accept_refusal(target, guard))
    require_room(
        state,
        target,
        prisoners,
        ev.merges,
        excess_hint="transfer fewer (the rest stay with their Guard), or some to another Guard",
    )


def apply_transfer(state: GameState, ev: Transferred) -> None:
    target = state.units[ev.to_guard]
    for handle in ev.units:
        p = state.units[handle]
        p.guard = target.handle
        p.location = target.location or p.location
    apply_merges(state, ev.merges, target, ev.seq)


# ------------------------------------------------------------ exchange and split
def check_exchange(state: GameState, ev: Exchanged) -> None:
    require(len(ev.parts) == 2, "A20.51", "an exchange takes exactly two prisoner HS")
    prisoners, _guard = named_prisoners(state, ev.parts, "A20.51")
    for p in prisoners:
        require(p.unit_kind == "hs", "A20.51", f"{describe(p)} is not a prisoner HS")
    require_new_handle(state, ev.into)


def apply_exchange(state: GameState, ev: Exchanged) -> None:
    exchange_into_squad(state, ev.parts, ev.into, ev.seq)


def check_split(state: GameState, ev: PrisonerSplit) -> None:
    prisoners, guard = named_prisoners(state, [ev.handle], "A20.51")
    squad = prisoners[0]
    require(squad.unit_kind == "squad", "A20.51", f"{describe(squad)} is not a prisoner squad")
    require_input(len(ev.into) == 2 and ev.into[0] != ev.into[1], "a split needs two new handles")
    for handle in ev.into:
        require_new_handle(state, handle)
    load = state.prisoner_load(guard.handle) + 1  # squad 3 -> two HS 4
    require(
        load <= capacity(guard),
        "A20.51",
        f"{describe(guard)} can guard US# {capacity(guard)}; two HS would make it {load}",
    )


def split_origins(state: GameState, squad: Unit) -> list[list[Origin]]:
    """What each half stands for: the two parts it was made of, or half the squad."""
    if len(squad.origins) == 2:
        return [[squad.origins[0]], [squad.origins[1]]]
    hs_cvp = normal_cvp("hs", "", state.cvp_overrides)
    source = squad.origins[0] if squad.origins else Origin(squad.handle, "squad", squad.counter, 0)
    return [[Origin(source.handle, "hs", f"HS of {source.counter}", hs_cvp)] for _ in range(2)]


def apply_split(state: GameState, ev: PrisonerSplit) -> None:
    squad = state.units[ev.handle]
    for handle, origins in zip(ev.into, split_origins(state, squad), strict=True):
        half = new_counter(
            state,
            handle,
            squad.side,
            "hs",
            UNARMED_COUNTER,
            ev.seq,
            origins=origins,
            status=PRISONER,
            armed=False,
            guard=squad.guard,
            location=squad.location,
            captured_seq=squad.captured_seq,
            captured_how=squad.captured_how,
        )
        half.cvp = sum(o.cvp for o in origins)
    retire(squad, ev.seq, "split into " + "+".join(ev.into))


# ------------------------------------------------------------------------ deploy
def check_deploy(state: GameState, ev: Deployed) -> None:
    squad = unit(state, ev.handle)
    require(
        squad.status == ACTIVE and squad.armed and squad.unit_kind == "squad",
        "A20.5",
        f"{describe(squad)} is not an armed squad on the board",
    )
    require(
        not squad.broken,
        "A20.5",
        f"{describe(squad)} is broken; only an unbroken Guard squad deploys",
    )
    require_input(len(ev.into) == 2 and ev.into[0] != ev.into[1], "deploying needs two new handles")
    require_input(len(ev.counters) in (0, 2), "give both HS counters, or none")
    for handle in ev.into:
        require_new_handle(state, handle)
    held = state.prisoners_of(squad.handle)
    for prisoner, new_guard in ev.assign.items():
        require_input(
            prisoner in {p.handle for p in held},
            f"{prisoner} is not guarded by {squad.handle}",
        )
        require_input(new_guard in ev.into, f"{new_guard} is not one of the new HS")
    for new_guard in ev.into:
        load = sum(p.us for p in held if ev.assign.get(p.handle, ev.into[0]) == new_guard)
        require(
            load <= 10,
            "A20.51",
            f"the HS {new_guard} can guard US# 10; it would hold US# {load}",
            "assign some prisoners to the other HS: give PRISONER=HS pairs",
        )


def apply_deploy(state: GameState, ev: Deployed) -> None:
    squad = state.units[ev.handle]
    counters = list(ev.counters) or [half_squad_counter(state, squad.side, squad.counter)] * 2
    for handle, counter in zip(ev.into, counters, strict=True):
        half = new_counter(
            state,
            handle,
            squad.side,
            "hs",
            counter,
            ev.seq,
            traits=squad.traits,
            location=squad.location,
            pinned=squad.pinned,
            melee=squad.melee,
        )
        half.melee_clock = squad.melee_clock  # the Melee it stays in began then (A20.55)
    for p in state.prisoners_of(squad.handle):
        p.guard = ev.assign.get(p.handle, ev.into[0])
    retire(squad, ev.seq, "deployed into " + "+".join(ev.into))


# ----------------------------------------------------------------------- abandon
def check_abandon(state: GameState, ev: Abandoned) -> None:
    prisoners, guard = named_prisoners(state, ev.units)
    _require_friendly_rph_aph(state, guard, "abandoned")
    _require_not_in_melee(guard, prisoners, "abandoned")


def apply_abandon(state: GameState, ev: Abandoned) -> None:
    for handle in ev.units:
        p = state.units[handle]
        free_unit(state, p, "abandoned", by_side=guard_of(state, p).side)


# ------------------------------------------------------------------------ escort
def escort_refusal(state: GameState, guard: Unit) -> Refusal | None:
    """Why ``guard`` may not escort its prisoners off now, or None: the check of the
    entry and of the hint that offers it (A20.53)."""
    if guard.status != ACTIVE:
        return RuleRefusal(
            "A20.53",
            f"{describe(guard)} is {guard.status}; only an armed Guard escorts prisoners off",
        )
    if not state.prisoners_of(guard.handle):
        return InputRefusal(f"{describe(guard)} guards no prisoners")
    if state.phase not in ("MPh", "APh") or state.attacker != guard.side:
        return RuleRefusal("A20.53", "prisoners are escorted off during the captor's MPh/APh")
    if guard.melee:
        return RuleRefusal(
            "A20.53", f"{describe(guard)} is in Melee and cannot move off with its prisoners"
        )
    if guard.broken:  # it moves only when it routs, its prisoners with it (A20.53)
        return RuleRefusal(
            "A20.53",
            f"{describe(guard)} is broken: a broken Guard moves only by routing, so it "
            "cannot escort its prisoners off in the MPh/APh (rally it first)",
        )
    return None


def check_escort(state: GameState, ev: EscortedOff) -> None:
    guard = unit(state, ev.guard)
    require_on_board(guard)
    raise_reason(escort_refusal(state, guard))


def apply_escort(state: GameState, ev: EscortedOff) -> None:
    guard = state.units[ev.guard]
    for p in state.prisoners_of(guard.handle):
        p.status, p.ended_seq = ESCORTED, ev.seq
        book_casualty(
            state, p, ev.seq, 2, "A20.53", f"escorted off a Friendly Board Edge by {guard.handle}"
        )
    guard.status, guard.ended_seq = ESCORTED, ev.seq
    guard.note = "escorted prisoners off (not eliminated for VC, A20.53)"
