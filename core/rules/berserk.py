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


def _prisoners_with(state: GameState, u: Unit, spent: set[str]) -> list[str]:
    """The enemy prisoners in ``u``'s Location (those it guards, wherever the book has
    them), not in Melee: a prisoner in Melee is in the act of escape (A20.4)."""
    return [
        p.handle
        for p in state.units.values()
        if p.status == PRISONER
        and p.side != u.side
        and not p.melee
        and p.handle not in spent
        and (p.guard == u.handle or (bool(u.location) and p.location == u.location))
    ]


def forced_massacres(state: GameState, firer: str, spent: set[str]) -> list[ev.Record]:
    """What A20.4 makes ``firer``'s berserk units do at the start of its fire phase, as
    ``state`` stands: each one with prisoners in its Location eliminates them. Units
    and prisoners in ``spent`` (already dealt with earlier in the same clock move) are
    left out, and the ones dealt with here are added to it.

    Several berserk units in one Location eliminate the same prisoners: the first
    records the Massacre, and each other one loses its berserk status with it."""
    out: list[ev.Record] = []
    done: dict[str, str] = {}  # Location -> the unit that massacred there
    for u in state.units.values():
        if (
            u.side != firer
            or u.status != ACTIVE
            or not u.armed
            or not u.berserk
            or not u.is_infantry
            or u.handle in spent
            or not fit_to_massacre(state, u)  # not in Melee, not broken (A20.4)
        ):
            continue
        victims = _prisoners_with(state, u, spent)
        if victims:
            out.append(ev.Massacred(units=victims, by=u.handle))
            spent.update(victims)
            spent.add(u.handle)
            if u.location:
                done[u.location] = u.handle
        elif u.location in done:  # the prisoners it was with are already gone
            out.append(ev.StatusChanged(handle=u.handle, berserk=False))
            spent.add(u.handle)
    return out
