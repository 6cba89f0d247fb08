"""A20.4's one Massacre that is no choice: "Any berserk unit in the same Location with
prisoners, whether guarding them or not, will at the start of that fire phase
eliminate those prisoners (thereby losing their berserk status)".

"That fire phase" is the unit's own fire phase (A20.4's previous sentence): the PFPh
and AFPh of its side's Player Turn, the DFPh of the other side's (the phases
``check_massacre`` allows). The clock records it when it enters such a phase
(``core.commands.forced``): the Massacre is part of the entry that moved the clock.
"""

from __future__ import annotations

from stockade.core.model import events as ev
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import ACTIVE, PRISONER, Unit
from stockade.core.rules.losses import fit_to_massacre

RULE = "A20.4"
WHY = "a berserk unit with prisoners in its Location eliminates them at the start of its fire phase"


def firer_in(phase: str, attacker: str, defender: str) -> str:
    """The side whose fire phase ``phase`` is for a Massacre (A20.4, "in their fire
    phase"): the ATTACKER's PFPh and AFPh, the DEFENDER's DFPh; "" in any other."""
    if phase in ("PFPh", "AFPh"):
        return attacker
    return defender if phase == "DFPh" else ""


Places = list[tuple[list[Unit], list[Unit]]]


def berserk_with_prisoners(state: GameState) -> Places:
    """Each Location where a berserk unit stands with prisoners: the units there and
    the prisoners among them (a Guard the book places nowhere is a Location of its
    own). Read from the Guards' index, once a clock move: in a game with no prisoners
    it costs nothing."""
    places: dict[tuple[str, str], tuple[list[Unit], list[Unit]]] = {}
    for guard in state.guards():
        key = (guard.location, "") if guard.location else ("", guard.handle)
        if key not in places:
            places[key] = (state.on_board_at(guard.location) if guard.location else [guard], [])
        places[key][1].extend(state.prisoners_of(guard.handle))
    return [(units, held) for units, held in places.values() if any(u.berserk for u in units)]


def next_fire_phase(state: GameState, side: str) -> tuple[str, ev.Phase]:
    """The ATTACKER and phase of ``side``'s first fire phase after the clock's phase:
    the one at whose start the clock records ``side``'s forced Massacre
    (``core.commands.forced`` records it on entering a phase, so a unit bound to it
    during its own fire phase waits for its next one)."""
    attacker = state.attacker
    phases = ev.PHASES[ev.PHASES.index(state.phase) + 1 :]
    # each Player Turn holds a fire phase of each side: two of them always hold one
    for _ in range(2):
        for phase in phases:
            if firer_in(phase, attacker, state.enemy_of(attacker)) == side:
                return attacker, phase
        attacker, phases = state.enemy_of(attacker), ev.PHASES
    raise AssertionError(f"no fire phase of {side} in two Player Turns")


def bound_to_massacre(
    state: GameState, places: Places, firer: str, spent: set[str]
) -> list[tuple[list[Unit], list[str]]]:
    """Whom A20.4 makes ``firer``'s berserk units eliminate at the start of its fire
    phase, as ``state`` stands (``places``: ``berserk_with_prisoners``): each group of
    berserk units in one Location (the first one records the Massacre) and the
    prisoners there (not those in Melee: they are in the act of escape; not free
    unarmed units: the sentence says "prisoners"). Units and prisoners in ``spent``
    (dealt with earlier in the same clock move) are left out, and those named here are
    added to it. The one check for the clock and for what the player is told."""
    out: list[tuple[list[Unit], list[str]]] = []
    for units, held in places:
        berserk = [
            u
            for u in units
            if u.side == firer
            and u.status == ACTIVE
            and u.armed
            and u.berserk
            and u.is_infantry
            and u.handle not in spent
            and fit_to_massacre(state, u)  # not in Melee, not broken (A20.4)
        ]
        victims = [
            p.handle
            for p in held
            if p.status == PRISONER and p.side != firer and not p.melee and p.handle not in spent
        ]
        if not berserk or not victims:
            continue
        out.append((sorted(berserk, key=lambda u: (u.created, len(u.handle), u.handle)), victims))
        spent.update(victims)
        spent.update(u.handle for u in berserk)
    return out


def forced_massacres(
    state: GameState, places: Places, firer: str, spent: set[str]
) -> list[ev.Record]:
    """What A20.4 makes ``firer``'s berserk units record at the start of its fire
    phase (``bound_to_massacre``, with ``spent`` likewise).

    Several berserk units in one Location eliminate the same prisoners: the first
    records the Massacre, and each other one loses its berserk status with it."""
    out: list[ev.Record] = []
    for (first, *others), victims in bound_to_massacre(state, places, firer, spent):
        out.append(ev.Massacred(units=victims, by=first.handle))
        out += [ev.StatusChanged(handle=u.handle, berserk=False) for u in others]
    return out
