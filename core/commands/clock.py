"""The turn clock: next/previous phase and Player Turn, and what A20 allows in each.

A Game Turn is two Player Turns; the first side to move (the game's first ATTACKER)
opens each Game Turn, so the turn number goes up when it becomes the ATTACKER again.
"""

from __future__ import annotations

import msgspec

from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal
from stockade.core.model.state import GameState
from stockade.core.rules.timing import ClockMove, phase_to_move_to

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


def phase_after(state: GameState, at: ev.PhaseSet, first_attacker: str) -> ev.PhaseSet:
    """The phase that follows ``at``: the next of its Player Turn, or after the CCPh the
    next Player Turn's RPh (the other side attacking; a new Game Turn when it is the
    side that attacked first)."""
    index = ev.PHASES.index(at.phase)
    if index + 1 < len(ev.PHASES):
        return ev.PhaseSet(turn=at.turn, attacker=at.attacker, phase=_phase_at(index + 1))
    attacker = state.enemy_of(at.attacker)
    turn = at.turn + (1 if attacker == first_attacker else 0)
    return ev.PhaseSet(turn=turn, attacker=attacker, phase=_phase_at(0))


def next_phase(state: GameState, first_attacker: str) -> ev.PhaseSet:
    phase = _phase_at(ev.PHASES.index(state.phase))
    now = ev.PhaseSet(turn=state.turn, attacker=state.attacker, phase=phase)
    return phase_after(state, now, first_attacker)


def next_player_turn(state: GameState, first_attacker: str) -> ev.PhaseSet:
    last = ev.PhaseSet(turn=state.turn, attacker=state.attacker, phase=_phase_at(-1))
    return phase_after(state, last, first_attacker)


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


def follow_entries(
    state: GameState, events: list[ev.Record]
) -> tuple[list[ev.Record], ClockMove | None]:
    """``events``, led by the move of the clock to the later phase of this Player Turn
    they belong to (a RtPh surrender typed in the MPh), so that one entry, and one undo,
    holds both. The clock never crosses into another Player Turn by itself."""
    move = phase_to_move_to(state, events)
    if move is None:
        return events, None
    # what A20 allows (core.reads.may, with the pickers' queries) is read only when the
    # clock moves: a ``do`` that moves no clock does not load it
    from stockade.core.reads.may import waiting_in

    between = ev.PHASES[ev.PHASES.index(state.phase) + 1 : ev.PHASES.index(move.phase)]
    waiting = (waiting_in(state, phase) for phase in between)
    move = msgspec.structs.replace(move, skipped=tuple(w for w in waiting if w is not None))
    to = ev.PhaseSet(turn=state.turn, attacker=state.attacker, phase=move.phase)
    return [to, *events], move


def describe_move(state_before_phase: str, move: ClockMove) -> str:
    """The reply's line for a clock the entry moved: one line at 80 columns, so that
    the entry's own sentence is not pushed off the app's three-line status. The Game
    Turn and ATTACKER go unsaid: the clock never leaves the Player Turn by itself."""
    line = f"clock: {state_before_phase} -> {move.phase}, where this entry happens ({move.rule})"
    if move.skipped:
        line += f"; passed {'; '.join(map(str, move.skipped))}; prev goes back"
    return line


def next_a20_phase(state: GameState, first_attacker: str) -> ev.PhaseSet:
    """The next phase in which A20 has something waiting (``core.reads.may.waiting_in``:
    what the hints would name there), at
    most the next Player Turn's RPh: a Player Turn where nothing A20 happens costs one
    step, and the reply names the Player Turn it moves into."""
    from stockade.core.reads.may import waiting_in

    index = ev.PHASES.index(state.phase)
    for phase in ev.PHASES[index + 1 :]:
        if waiting_in(state, phase) is not None:
            return ev.PhaseSet(turn=state.turn, attacker=state.attacker, phase=phase)
    return next_player_turn(state, first_attacker)
