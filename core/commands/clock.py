"""The turn clock: next/previous phase and Player Turn, and what A20 allows in each.

A Game Turn is two Player Turns; the first side to move (the game's first ATTACKER)
opens each Game Turn, so the turn number goes up when it becomes the ATTACKER again.
"""

from __future__ import annotations

from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal
from stockade.core.model.state import GameState

# Said when a phase begins, so the table knows what A20 allows now.
PHASE_HINTS = {
    "RPh": "prisoners may be transferred or abandoned (A20.5)",
    "PFPh": (
        "Mopping Up surrenders (A12.153); SS/Japanese/Partisan/Russian/berserk may Massacre (A20.4)"
    ),
    "MPh": (
        "recapture by entering; escort off; "
        "Scrounging DR at the end of the MPh (A20.54, A20.53, A20.552)"
    ),
    "DFPh": "DEFENDER may Massacre (A20.4)",
    "AFPh": "ATTACKER may Massacre (A20.4)",
    "RtPh": "broken units adjacent to a Known enemy surrender (A20.21)",
    "APh": "prisoners may be transferred or abandoned; escort off (A20.5, A20.53)",
    "CCPh": "CC capture, escape, Withdrawal, Infiltration (A20.22, A20.55)",
}

_PHASE_NAMES = {name.lower(): name for name in ev.PHASES}


def phase_named(word: str) -> ev.Phase:
    """A phase from its abbreviation, any case, ``Ph`` optional.

    ``rtph``, ``CCPh``, ``apH`` and ``cc`` all name a phase."""
    found = _PHASE_NAMES.get(word.lower()) or _PHASE_NAMES.get(word.lower() + "ph")
    if found is None:
        raise InputRefusal(f"'{word}' is not a phase", "one of " + ", ".join(ev.PHASES))
    return found


def _phase_at(index: int) -> ev.Phase:
    return ev.PHASES[index]


def next_phase(state: GameState, first_attacker: str) -> ev.PhaseSet:
    index = ev.PHASES.index(state.phase)
    if index + 1 < len(ev.PHASES):
        return ev.PhaseSet(turn=state.turn, attacker=state.attacker, phase=_phase_at(index + 1))
    return next_player_turn(state, first_attacker)


def next_player_turn(state: GameState, first_attacker: str) -> ev.PhaseSet:
    attacker = state.enemy_of(state.attacker)
    turn = state.turn + (1 if attacker == first_attacker else 0)
    return ev.PhaseSet(turn=turn, attacker=attacker, phase=_phase_at(0))


def previous_phase(state: GameState, first_attacker: str) -> ev.PhaseSet:
    index = ev.PHASES.index(state.phase)
    if index > 0:
        return ev.PhaseSet(turn=state.turn, attacker=state.attacker, phase=_phase_at(index - 1))
    attacker = state.enemy_of(state.attacker)
    turn = state.turn - (1 if state.attacker == first_attacker else 0)
    if turn < 1:
        raise InputRefusal("this is the first phase of the game")
    return ev.PhaseSet(turn=turn, attacker=attacker, phase=_phase_at(-1))


def describe_clock(turn: int, attacker: str, phase: str) -> str:
    hint = PHASE_HINTS.get(phase, "")
    return f"Turn {turn}, {attacker} {phase}" + (f": {hint}" if hint else "")
