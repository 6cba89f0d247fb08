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


def firer_in(phase: ev.Phase, attacker: str, defender: str) -> str:
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


def forced_massacres(
    state: GameState, places: Places, firer: str, spent: set[str]
) -> list[ev.Record]:
    """What A20.4 makes ``firer``'s berserk units do at the start of its fire phase, as
    ``state`` stands (``places``: ``berserk_with_prisoners``): each one with prisoners
    in its Location eliminates them (not those
    in Melee: they are in the act of escape). Units and prisoners in ``spent`` (dealt
    with earlier in the same clock move) are left out, and those dealt with here are
    added to it.

    Several berserk units in one Location eliminate the same prisoners: the first
    records the Massacre, and each other one loses its berserk status with it."""
    out: list[ev.Record] = []
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
        first, *others = sorted(berserk, key=lambda u: (u.created, len(u.handle), u.handle))
        out.append(ev.Massacred(units=victims, by=first.handle))
        out += [ev.StatusChanged(handle=u.handle, berserk=False) for u in others]
        spent.update(victims)
        spent.update(u.handle for u in berserk)
    return out
