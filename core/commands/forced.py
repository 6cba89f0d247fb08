"""What the rules make happen when the clock passes a phase, recorded in the entry that
moved it: today A20.4's berserk Massacre (``core.rules.berserk``).

A clock move (``next``, ``skip``, ``turn``, ``phase``, or an entry that moves the clock
to its own phase) that enters the start of a fire phase in which a berserk unit stands
with prisoners records that Massacre with itself: the clock stops at that fire phase,
the Massacre follows, then the clock goes on to where it was going. One entry, one
undo; the reply says it (``said``).
"""

from __future__ import annotations

from stockade.core.commands.clock import phase_after
from stockade.core.model import events as ev
from stockade.core.model.state import GameState
from stockade.core.rules.berserk import (
    RULE,
    WHY,
    berserk_with_prisoners,
    firer_in,
    forced_massacres,
)

# A Player Turn gives each side a fire phase (its PFPh and AFPh, or the DFPh), so the
# clock's first two Player Turns ahead hold every fire phase a berserk unit can have.
_LOOKAHEAD = 2 * len(ev.PHASES)


def _same(a: ev.PhaseSet, b: ev.PhaseSet) -> bool:
    return (a.turn, a.attacker, a.phase) == (b.turn, b.attacker, b.phase)


def _order(at: ev.PhaseSet, first_attacker: str) -> tuple[int, int]:
    """Where ``at`` stands in the game: its Player Turn's place, then its phase's."""
    player_turn = 2 * (at.turn - 1) + (0 if at.attacker == first_attacker else 1)
    return player_turn, ev.PHASES.index(at.phase)


def entered(
    state: GameState, start: ev.PhaseSet, to: ev.PhaseSet, first_attacker: str
) -> list[ev.PhaseSet]:
    """The phases a move of the clock from ``start`` to ``to`` enters, in order: all of
    them up to ``to`` included, but at most two Player Turns' worth, then ``to``; none
    when ``to`` is not ahead of ``start`` (a correction back, or the same phase)."""
    if _order(to, first_attacker) <= _order(start, first_attacker):
        return []
    out: list[ev.PhaseSet] = []
    at = start
    while len(out) < _LOOKAHEAD:
        at = phase_after(state, at, first_attacker)
        out.append(at)
        if _same(at, to):
            return out
    return [*out, to]


def with_forced(
    state: GameState, events: list[ev.Record], first_attacker: str
) -> tuple[list[ev.Record], list[int]]:
    """``events`` with what the rules force at each fire phase their clock moves enter
    (A20.4), and the indexes of the records added (for the reply)."""
    if state.ended or not any(isinstance(e, ev.PhaseSet) for e in events):
        return events, []
    places = berserk_with_prisoners(state)
    if not places:
        return events, []
    out: list[ev.Record] = []
    added: list[int] = []
    # a Massacre the entry itself records (typed in the RPh, it moves the clock to the
    # PFPh) is the one the rule asks for: it is not recorded twice
    spent = {h for e in events if isinstance(e, ev.Massacred) for h in (e.by, *e.units)}
    # the clock as it stands (a state's phase is one of PHASES: a PhaseSet set it)
    at = ev.PhaseSet(
        turn=state.turn, attacker=state.attacker, phase=ev.PHASES[ev.PHASES.index(state.phase)]
    )
    for event in events:
        if not isinstance(event, ev.PhaseSet):
            out.append(event)
            continue
        stopped = False  # whether ``event`` itself is out already (it is a stop)
        for step in entered(state, at, event, first_attacker):
            firer = firer_in(step.phase, step.attacker, state.enemy_of(step.attacker))
            forced = forced_massacres(state, places, firer, spent) if firer else []
            if not forced:
                continue
            if _same(step, event):
                out.append(event)
                stopped = True
            else:
                added.append(len(out))
                out.append(step)
            added += range(len(out), len(out) + len(forced))
            out += forced
        if not stopped:
            out.append(event)
        at = event
    return out, added


def said(record: ev.Record, at: ev.PhaseSet) -> str:
    """The reply's line for a record the clock move made: what happened and why."""
    if isinstance(record, ev.Massacred):
        return (
            f"implied: {record.by} massacres {' '.join(record.units)} at the start of the "
            f"{at.attacker} {at.phase} ({RULE}: {WHY})"
        )
    if isinstance(record, ev.StatusChanged):
        return (
            f"implied: {record.handle} no longer berserk: it was with the prisoners "
            f"massacred at the start of the {at.attacker} {at.phase} ({RULE})"
        )
    return ""
