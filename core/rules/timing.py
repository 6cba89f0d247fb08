"""When in the Player Turn each A20 event happens: the phases the rules allow it in.

This is what lets the clock follow the entries: a RtPh surrender typed during the MPh
belongs to the RtPh of this same Player Turn, so the entry moves the clock there.
Each window is the one the event's check (``core.rules.capture``, ``guards``,
``escape``, ``losses``) enforces, with the same rule cited; the check stays the
authority, this only says where in the current Player Turn the event fits.
"""

from __future__ import annotations

import msgspec

from stockade.core.model import events as ev
from stockade.core.model.state import GameState

# The phases in which fire attacks are made: Prep Fire, Defensive First Fire in the
# MPh, Defensive Fire, Advancing Fire, and Interdiction of routing units in the RtPh.
# None in the RPh, APh or CCPh (CC is not fire).
FIRE_PHASES: tuple[ev.Phase, ...] = ("PFPh", "MPh", "DFPh", "AFPh", "RtPh")


class Window(msgspec.Struct, frozen=True):
    """The phases of the current Player Turn in which an event may be recorded."""

    phases: tuple[ev.Phase, ...]
    rule: str


def window(state: GameState, event: ev.Record) -> Window | None:
    """The phases ``event`` may be recorded in during this Player Turn (the ATTACKER as it
    is now), or None when the rules tie it to no phase (a status, a move, an entry).

    An empty window means not in this Player Turn at all (a transfer by the DEFENDER)."""
    attacker = state.attacker
    if isinstance(event, ev.Surrendered):
        if event.reason in ("rtph", "encircled"):
            return Window(("RtPh",), "A20.21")
        if event.reason == "mopup":
            guard = state.units.get(event.guard)
            own = guard is not None and guard.side == attacker
            return Window(("PFPh",) if own else (), "A12.153")
        return None  # Disrupted, HOB: whenever it happens
    if isinstance(event, ev.SurrenderRejected):
        units = [state.units.get(h) for h in event.units]
        if units and all(u is not None and u.disrupted for u in units):
            return None
        return Window(("RtPh",), "A20.3")
    if isinstance(event, ev.Captured):
        return Window(("CCPh",), "A20.22")
    if isinstance(event, ev.MutualCapture):
        return Window(("CCPh",), "A20.221")
    if isinstance(event, ev.Recaptured):
        guard = state.units.get(event.guard)
        moving = guard is not None and guard.side == attacker
        return Window(("MPh", "CCPh") if moving else ("CCPh",), "A20.54")
    if isinstance(event, (ev.Transferred, ev.Abandoned)):
        return _guard_window(
            state, _guard_of_prisoners(state, event.units), ("RPh", "APh"), "A20.5"
        )
    if isinstance(event, ev.EscortedOff):
        return _guard_window(state, event.guard, ("MPh", "APh"), "A20.53")
    if isinstance(event, ev.Massacred):
        by = state.units.get(event.by)
        own = by is not None and by.side == attacker
        return Window(("PFPh", "AFPh") if own else ("DFPh",), "A20.4")
    if isinstance(event, ev.GameEnded):
        # a scenario ends with its last Player Turn (``end now``: sudden death, where
        # the clock is: End in core/commands/verbs_setup.py)
        return Window(("CCPh",), "the scenario ends after the CCPh")
    if isinstance(event, ev.Eliminated):
        if event.cause == "cc":
            return Window(("CCPh",), "A11")
        if event.cause in ("fire-own", "fire-enemy"):
            return Window(FIRE_PHASES, "A7")
        return None
    if isinstance(event, ev.EscapeAttempted):
        return Window(("CCPh",), "A20.55")
    if isinstance(event, ev.EscapedBy):
        return Window(("CCPh",), "A11.2")
    if isinstance(event, ev.Scrounged):
        u = state.units.get(event.handle)
        own = u is not None and u.side == attacker
        return Window(("MPh",) if own else (), "A20.552")
    return None


def _guard_of_prisoners(state: GameState, handles: tuple[str, ...] | list[str]) -> str:
    first = state.units.get(handles[0]) if handles else None
    return first.guard if first is not None and first.guard else ""


def _guard_window(
    state: GameState, guard_handle: str, phases: tuple[ev.Phase, ...], rule: str
) -> Window:
    guard = state.units.get(guard_handle)
    own = guard is not None and guard.side == state.attacker
    return Window(phases if own else (), rule)


class Waiting(msgspec.Struct, frozen=True):
    """Something A20 had waiting in a phase, in words built from the book's units:
    ``g1 may surrender`` with its rule, ``A20.21`` (what a reply names when the clock
    passes the phase by)."""

    phase: ev.Phase
    what: str
    rule: str

    def __str__(self) -> str:
        return f"{self.phase}, where {self.what} ({self.rule})"


class ClockMove(msgspec.Struct, frozen=True):
    """The later phase of this Player Turn an entry belongs to, and the rule that says so."""

    phase: ev.Phase
    rule: str
    # what A20 had waiting in the phases between now and ``phase``
    # (``core.reads.may.waiting_in``, filled in by ``core.commands.clock``): the reply
    # names it, as the clock passed it by
    skipped: tuple[Waiting, ...] = ()


def phase_to_move_to(state: GameState, events: list[ev.Record]) -> ClockMove | None:
    """The later phase of this Player Turn that ``events`` belong to, when it is not the
    phase now: the first one at or after now that every event's window holds.

    None when the phase now will do, when no event is tied to a phase, or when no later
    phase of this Player Turn fits (the check then refuses, naming the rule: the clock
    never crosses into another Player Turn by itself)."""
    windows = [w for w in (window(state, e) for e in events) if w is not None]
    if not windows or state.ended:
        return None
    now = ev.PHASES.index(state.phase)
    for phase in ev.PHASES[now:]:
        if all(phase in w.phases for w in windows):
            if phase == state.phase:
                return None
            return ClockMove(phase, "/".join(dict.fromkeys(w.rule for w in windows)))
    return None


def judged_in(state: GameState, events: list[ev.Record]) -> GameState:
    """The state ``events`` are checked against when entered now: ``state`` itself, or,
    when the clock would follow them into a later phase of this Player Turn
    (``phase_to_move_to``, what the typed command does), a view of it in that phase.

    The view shares every unit and side with ``state``: it is for a check (which only
    reads), never to fold into. A pick list judges each candidate in it, so that it
    agrees with the command that moves the clock and then records the entry."""
    move = phase_to_move_to(state, events)
    return state if move is None else phase_view(state, move.phase)


def phase_view(state: GameState, phase: ev.Phase) -> GameState:
    """A view of ``state`` with the clock at ``phase`` of this same Player Turn, for a
    check or a read (never to fold into): it shares every unit and side with ``state``."""
    view = object.__new__(type(state))
    view.__dict__.update(state.__dict__)
    view.__dict__["phase"] = phase  # not a recorded set: nothing folds here
    # the live state's own tracker: a view without one would make its own and tie the
    # shared units to it, and the live state's undo would lose their changes
    object.__setattr__(view, "_tracker", state.tracker)
    return view
