"""The rulebook: for every domain event, the check that may refuse it and the change
it makes. ``step`` is the only way an event reaches the state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal
from stockade.core.model.state import GameState
from stockade.core.rules import (
    cc_capture,
    escape,
    guards,
    losses,
    melee,
    rearming,
    recapture,
    scrounging,
    setup,
    surrender,
    victory,
    withdrawal,
)

# Each entry pairs a record type with the check and apply written for exactly that type,
# so the event parameter is ``Any``: a Callable over ``ev.Record`` would refuse them
# (parameters are contravariant), and ``step`` only ever passes a record to the pair
# registered under its own type.
Check = Callable[[GameState, Any], None]
Apply = Callable[[GameState, Any], None]

RULEBOOK: dict[type[ev.Record], tuple[Check, Apply]] = {
    ev.GameCreated: (setup.check_game, setup.apply_game),
    ev.UnitEntered: (setup.check_unit, setup.apply_unit),
    ev.PhaseSet: (setup.check_phase, setup.apply_phase),
    ev.StatusChanged: (setup.check_status, setup.apply_status),
    ev.NoQuarterInvoked: (setup.check_nq, setup.apply_nq),
    ev.GameEnded: (setup.check_end, setup.apply_end),
    ev.Surrendered: (surrender.check_surrender, surrender.apply_surrender),
    ev.SurrenderRejected: (surrender.check_reject, surrender.apply_reject),
    ev.Captured: (cc_capture.check_capture, cc_capture.apply_capture),
    ev.MutualCapture: (cc_capture.check_mutual, cc_capture.apply_mutual),
    ev.Recaptured: (recapture.check_recapture, recapture.apply_recapture),
    ev.Transferred: (guards.check_transfer, guards.apply_transfer),
    ev.Exchanged: (guards.check_exchange, guards.apply_exchange),
    ev.PrisonerSplit: (guards.check_split, guards.apply_split),
    ev.Deployed: (guards.check_deploy, guards.apply_deploy),
    ev.Abandoned: (guards.check_abandon, guards.apply_abandon),
    ev.EscortedOff: (guards.check_escort, guards.apply_escort),
    ev.Eliminated: (losses.check_eliminate, losses.apply_eliminate),
    ev.CasualtyReduced: (losses.check_reduce, losses.apply_reduce),
    ev.Massacred: (losses.check_massacre, losses.apply_massacre),
    ev.EscapeAttempted: (escape.check_escape, escape.apply_escape),
    ev.EscapedBy: (withdrawal.check_escaped_by, withdrawal.apply_escaped_by),
    ev.Rearmed: (rearming.check_rearm, rearming.apply_rearm),
    ev.Scrounged: (scrounging.check_scrounge, scrounging.apply_scrounge),
    ev.VictorySet: (victory.check_vc, victory.apply_vc),
    ev.Exited: (victory.check_exit, victory.apply_exit),
    ev.LocationControlled: (victory.check_control, victory.apply_control),
}

# What may still be entered once the game has ended: the end itself, and what the
# verdict is judged on that is not a move on the board (the card, who holds what).
_AFTER_END = (ev.GameEnded, ev.VictorySet, ev.LocationControlled)

_ENDED_OK = (ev.GameEnded, ev.PhaseSet)


def check(state: GameState, event: ev.Record) -> None:
    """Raise a Refusal naming the rule if ``event`` may not happen in ``state``."""
    entry = RULEBOOK.get(type(event))
    if entry is None:
        raise InputRefusal(f"'{type(event).__name__}' is not a game event")
    if state.ended and not isinstance(event, _AFTER_END):
        raise InputRefusal("the game has ended; nothing more can happen in it")
    if not state.sides and not isinstance(event, ev.GameCreated):
        raise InputRefusal("the log does not start with a game header")
    entry[0](state, event)


# The events that can take a unit out of a fight (eliminate, capture, free, escort...),
# after which ``step`` looks for Melees left with no one to fight; a StatusChanged does
# too when its unit is in Melee and moves or is taken off it.
LOSSES = frozenset(
    {
        ev.Eliminated,
        ev.CasualtyReduced,
        ev.Surrendered,
        ev.SurrenderRejected,
        ev.Captured,
        ev.Recaptured,
        ev.EscapeAttempted,
        ev.EscapedBy,
        ev.Massacred,
        ev.EscortedOff,
    }
)


def step(state: GameState, event: ev.Record) -> None:
    """Check ``event`` and, if allowed, apply it to ``state`` in place; then end every
    Melee the event left with no one to fight (``melee.settle_melee``)."""
    # ``check``, written out: one rulebook lookup and one call fewer per folded event
    kind = type(event)
    entry = RULEBOOK.get(kind)
    if entry is None or state.ended or not state.sides:
        check(state, event)  # its refusals, in its words (or the header / the end)
        entry = RULEBOOK[kind]
    else:
        entry[0](state, event)
    left = ""
    if kind is ev.StatusChanged and isinstance(event, ev.StatusChanged):
        mover = state.units[event.handle]
        if mover.melee and (event.location is not None or event.melee is False):
            left = mover.location  # the Melee it leaves (by a move: its Withdrawal)
    if not left and kind not in LOSSES:  # most events: nothing more to look at
        entry[1](state, event)
        state.last_seq = event.seq
        return
    moved = state.tracker.moved  # units whose status or Location the event sets
    before = len(moved)
    entry[1](state, event)
    places = {left} if left else set()
    if len(moved) < before:  # the tracker's lists were trimmed: look everywhere
        places |= {u.location for u in state.units.values() if u.melee}
    for u in moved[before:]:
        if not melee.fights(u):  # out of the fight: eliminated, captured, freed...
            places.add(u.location)
            if u.captured_at:
                places.add(u.captured_at)
    if places:
        melee.settle_melee(state, places, event.seq)
    state.last_seq = event.seq
