"""Game set-up and the turn clock: game, unit, phase, status, No Quarter by SSR, end."""

from __future__ import annotations

from stockade.core.model.errors import InputRefusal, require, require_input
from stockade.core.model.events import (
    PHASES,
    GameCreated,
    GameEnded,
    NoQuarterInvoked,
    PhaseSet,
    StatusChanged,
    UnitEntered,
)
from stockade.core.model.state import GameState, Side
from stockade.core.model.tracked_unit import ACTIVE, PRISONER, UNARMED, Unit
from stockade.core.model.units import (
    KINDS,
    TRAITS,
    canonical_nationality,
    parse_counter,
    vehicle_name,
)
from stockade.core.rules.casualties import book_casualty
from stockade.core.rules.counters import new_counter
from stockade.core.rules.lookup import (
    clock,
    describe,
    raise_reason,
    require_new_handle,
    side_of,
    unit,
)
from stockade.core.rules.melee import start_melee
from stockade.core.rules.movement import move_refusal

_NO_TRAITS: frozenset[str] = frozenset()  # what a unit without traits shares


def check_game(state: GameState, ev: GameCreated) -> None:
    require_input(not state.sides, "this game is already set up")
    require_input(len(ev.sides) == 2, "a game has exactly two sides")
    names = [s.name for s in ev.sides]
    require_input(names[0].lower() != names[1].lower(), "the two sides need different names")
    for spec in ev.sides:
        require_input(bool(spec.name.strip()), "a side needs a name")
        canonical_nationality(spec.nationality)
        require_input(1 <= spec.elr <= 6, f"ELR {spec.elr} of {spec.name} is not 1-6")


def apply_game(state: GameState, ev: GameCreated) -> None:
    state.scenario = ev.scenario
    for spec in ev.sides:
        state.add_side(Side(spec.name, canonical_nationality(spec.nationality), spec.elr))
    state.cvp_overrides = dict(ev.cvp)
    state.attacker = ev.first_attacker or ev.sides[0].name
    if ev.strict:
        state.strict = True
    state.turn, state.phase = 1, PHASES[0]


def check_unit(state: GameState, ev: UnitEntered) -> None:
    require_new_handle(state, ev.handle)
    side_of(state, ev.side)
    require_input(ev.unit_kind in KINDS, f"unknown unit kind '{ev.unit_kind}'")
    if ev.unit_kind == "vehicle":
        vehicle_name(ev.counter)  # a vehicle is entered by its name
    elif ev.unit_kind == "leader":
        counter = parse_counter(ev.counter)
        require_input(
            counter.is_leader_form, f"a leader's counter reads like 9-2, not {ev.counter}"
        )
    else:
        parse_counter(ev.counter)
    for trait in ev.traits:
        require_input(trait in TRAITS, f"unknown trait '{trait}'", "traits: " + ", ".join(TRAITS))


def apply_unit(state: GameState, ev: UnitEntered) -> None:
    u = new_counter(
        state,
        ev.handle,
        side_of(state, ev.side),
        ev.unit_kind,
        ev.counter,
        ev.seq,
        traits=frozenset(ev.traits) if ev.traits else _NO_TRAITS,  # one shared empty set
        location=ev.location,
        broken=ev.broken,
        placed_clock=clock(state) if ev.location else "",
    )
    if ev.cvp is not None:
        u.cvp = ev.cvp
        u.origins[0].cvp = ev.cvp


def check_phase(state: GameState, ev: PhaseSet) -> None:
    require_input(not state.ended, "the game has ended")
    side_of(state, ev.attacker)
    require_input(ev.turn >= 1, "Game Turns start at 1")


def apply_phase(state: GameState, ev: PhaseSet) -> None:
    # Only what changes is set (each set is a recorded hook call; most phases keep the
    # turn, and half keep the ATTACKER): an equal value left in place reads the same.
    attacker = side_of(state, ev.attacker)
    if state.turn != ev.turn:
        state.turn = ev.turn
    if state.attacker != attacker:
        state.attacker = attacker
    if state.phase != ev.phase:
        state.phase = ev.phase


def check_status(state: GameState, ev: StatusChanged) -> None:
    u = unit(state, ev.handle)
    if not u.on_board:  # the sentence is made only for a refusal (a third of all events)
        raise InputRefusal(f"{describe(u)} is no longer on the board")
    if ev.berserk:
        require(u.armed, "A20.2", f"{describe(u)} is unarmed and cannot go berserk")
    if not u.armed and ev.broken:
        require(
            False,
            "A20.54",
            f"{describe(u)} is unarmed and never breaks; a failed MC Casualty-Reduces it",
        )
    if ev.broken is False and u.broken:
        require_rally_allowed(state, u)
    if ev.location is not None and ev.location != u.location and u.status != PRISONER:
        raise_reason(move_refusal(state, u, ev.location))
    if ev.melee and not u.melee and (ev.location or u.location):
        require_melee_foe(state, u, ev.location or u.location)
    if u.status == PRISONER:
        require(
            not ev.pinned,
            "A20.54",
            f"{describe(u)} is a prisoner and is not pinned directly; pin its Guard "
            f"{u.guard} and the prisoners share it",
        )
        require(
            ev.location is None or ev.location == u.location,
            "A20.53",
            f"{describe(u)} moves only with its Guard {u.guard}, as one stack",
        )


def require_melee_foe(state: GameState, u: Unit, where: str) -> None:
    """Melee is CC within one Location (A11): a unit goes into Melee only with an enemy
    unit in the Location it stands in (``where``: after the entry's own move): an armed
    one, a free unarmed one (a failed recapture, A20.54), or its own prisoners."""
    foes = [
        o
        for o in state.on_board_at(where)
        if o.side != u.side
        and o.location == where
        and (o.status in (ACTIVE, UNARMED) or (o.status == PRISONER and o.guard == u.handle))
    ]
    require(
        bool(foes),
        "A11",
        f"Melee is fought within one Location: no enemy unit stands with {describe(u)} in {where}",
        "record the advance into the Location first (move)",
    )


def require_rally_allowed(state: GameState, u: Unit) -> None:
    """A broken Guard may be rallied only "as long as the broken guard is not in melee
    with the prisoner" (published ruling, docs/rulings.md)."""
    held = state.prisoners_of(u.handle)
    in_melee = bool(held) and (u.melee or any(p.melee for p in held))
    require(
        not in_melee,
        "A20.55",
        f"{describe(u)} is a broken Guard in Melee with its prisoners and cannot be "
        "rallied (published ruling)",
    )


def apply_status(state: GameState, ev: StatusChanged) -> None:
    u = state.units[ev.handle]
    # written out, field by field (a third of a campaign's events are status changes)
    if ev.broken is not None:
        u.broken = ev.broken
        u.broken_told = "" if ev.implied else clock(state)
    if ev.pinned is not None:
        u.pinned = ev.pinned
    if ev.berserk is not None:
        u.berserk = ev.berserk
    if ev.melee:
        start_melee(state, u)
    elif ev.melee is False:
        u.melee = False
    if ev.disrupted is not None:
        u.disrupted = ev.disrupted
    if ev.location is not None:
        if u.melee and ev.location != u.location:
            u.melee = False  # a Withdrawal (A11.2): it left the Melee behind
        u.location = ev.location
        u.location_told = "" if ev.implied else clock(state)
        u.placed_clock = clock(state)
    if ev.location is not None or ev.melee is not None:
        held = state.prisoners_of(u.handle)  # a move or Melee does not change who is held
        for p in held:
            if ev.location is not None:
                # Prisoners move with their Guard as one stack (A20.53).
                p.location = ev.location
            if ev.melee:
                start_melee(state, p)
            elif ev.melee is False:
                p.melee = False


def check_nq(state: GameState, ev: NoQuarterInvoked) -> None:
    side_of(state, ev.side)


def apply_nq(state: GameState, ev: NoQuarterInvoked) -> None:
    side = state.sides[side_of(state, ev.side)]
    if not side.no_quarter:
        side.no_quarter, side.no_quarter_seq = True, ev.seq


def check_end(state: GameState, ev: GameEnded) -> None:
    if state.ended:
        raise InputRefusal("the game has already ended")


def apply_end(state: GameState, ev: GameEnded) -> None:
    state.ended = True
    for u in state.units.values():
        if u.status == PRISONER:
            book_casualty(
                state, u, ev.seq, 2, "A20.1", f"prisoner still guarded by {u.guard} at game end"
            )
