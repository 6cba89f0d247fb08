"""Victory Conditions, Exit VP and Location control: what the game keeps to judge them.

A20 says how prisoners count (A20.1: double at game end; A20.53: escorted off a Friendly
Board Edge, the Guard is not eliminated for Victory Conditions); the scenario card says
what wins. Where the rules are silent Stockade chooses, and docs/rulings.md says so:

* an exited unit earns its side Exit VP: the VP the player gives, else its normal CVP
  (the standard value for Infantry); a vehicle or other unit worth no CVP needs its VP;
* a Guard that exits takes its prisoners with it: they are escorted off (A20.53) and
  booked double at once (A20.1), as ``escort`` books them; the Guard earns its Exit VP;
* Location control is whatever the players set; a Location never set is nobody's.
"""

from __future__ import annotations

import msgspec

from stockade.core.model.book_rows import AppendRows, ControlRows
from stockade.core.model.errors import require_input
from stockade.core.model.events import EscortedOff, Exited, LocationControlled, VictorySet
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import ACTIVE, ESCORTED, EXITED, Unit
from stockade.core.model.victory import Compare, ExitLine, VictoryConditions
from stockade.core.rules.casualties import book_casualty
from stockade.core.rules.guards import check_escort
from stockade.core.rules.lookup import describe, unit


# ------------------------------------------------------------------ conditions
def check_vc(state: GameState, ev: VictorySet) -> None:
    if ev.conditions is not None:
        check_conditions(state, ev.conditions)


def check_conditions(state: GameState, vc: VictoryConditions) -> None:
    """Every side a condition names is one of the game's sides."""
    sides = set(state.sides)

    def known(name: str, where: str) -> None:
        require_input(
            name in sides,
            f"{where} names '{name}', not a side of this game ({', '.join(state.sides)})",
        )

    for clause in vc.clauses:
        known(clause.side, "a Victory Condition")
        for group in clause.any_of:
            for test in group:
                known(test.side, "a Victory Condition's test")
                if isinstance(test, Compare):
                    require_input(
                        (test.number is None) != (not test.other),
                        "a test compares with a number or with a side, not both or neither",
                    )
                    if test.other:
                        known(test.other, "a Victory Condition's test")
    if vc.otherwise and vc.otherwise != "draw":
        known(vc.otherwise, "'otherwise'")


def apply_vc(state: GameState, ev: VictorySet) -> None:
    state.vc = msgspec.structs.replace(state.vc, conditions=ev.conditions)


# ------------------------------------------------------------------------ exit
def exit_vp(u: Unit, given: int | None) -> int:
    """The Exit VP one unit earns: the VP given, else its normal CVP."""
    return u.cvp if given is None else given


def check_exit(state: GameState, ev: Exited) -> None:
    require_input(bool(ev.units), "name the units that exit")
    for handle in ev.units:
        u = unit(state, handle)
        require_input(
            u.status == ACTIVE,
            f"{describe(u)} is {u.status}: only units on the board exit",
        )
        require_input(
            ev.vp is not None or u.cvp > 0,
            f"{describe(u)} is worth no CVP: give its Exit VP ('vp N', from the card)",
        )
        if state.prisoners_of(u.handle):
            # its prisoners leave with it: what escorting them off asks (A20.53)
            check_escort(state, EscortedOff(guard=u.handle))


def apply_exit(state: GameState, ev: Exited) -> None:
    lines: list[ExitLine] = []
    edge = ev.edge or "the exit edge"
    for handle in ev.units:
        u = state.units[handle]
        for p in state.prisoners_of(handle):
            p.status, p.ended_seq = ESCORTED, ev.seq
            book_casualty(
                state, p, ev.seq, 2, "A20.53", f"exited off {edge} with its Guard {handle}"
            )
        vp = exit_vp(u, ev.vp)
        lines.append(
            ExitLine(
                seq=ev.seq,
                unit=handle,
                counter=u.counter,
                side=u.side,
                edge=ev.edge,
                vp=vp,
                rule="VP given" if ev.vp is not None else "its CVP",
                why=f"exited off {edge}",
            )
        )
        u.status, u.ended_seq = EXITED, ev.seq
        u.note = f"exited off {edge} ({vp} Exit VP)"
    _rows(state)[0].add(lines, state.tracker.rec)


# --------------------------------------------------------------------- control
def check_control(state: GameState, ev: LocationControlled) -> None:
    require_input(bool(ev.location.strip()), "name the Location")
    require_input(
        not ev.side or ev.side in state.sides,
        f"no side '{ev.side}' in this game ({', '.join(state.sides)})",
    )


def apply_control(state: GameState, ev: LocationControlled) -> None:
    _rows(state)[1].put(ev.location, ev.side, state.tracker.rec)


def _rows(state: GameState) -> tuple[AppendRows[ExitLine], ControlRows]:
    """The book's exits and control, as rows changed in place (``core.model.book_rows``)."""
    if not state.vc.has_rows():  # a new book's, or read from a snapshot
        state.vc = state.vc.with_rows()
    return state.vc.rows()
