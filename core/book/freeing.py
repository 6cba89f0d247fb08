"""Which prisoners a change set free, or passed to another Guard, because of what
befell their Guard, and why.

Read from the change's unit differences (a prisoner whose Guard is gone and who is no
longer a prisoner) and the game after it: the Guard's fate says which rule (or which of
Stockade's rulings, docs/rulings.md) freed it. Prisoners freed by their own act (an
escape, an abandonment, a withdrawal) are the entry itself, not a consequence of it.
"""

from __future__ import annotations

from collections.abc import Sequence

from stockade.core.book.change import Freed, Handed, UnitChange
from stockade.core.model import events as ev
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import ACTIVE, ELIMINATED, GONE, PRISONER, Unit
from stockade.core.rules.simultaneous_cc import exchange_why, was_exchanged

# the entries in which the prisoners act themselves (or their Guard leaves them, by
# Infiltration), that name them rearming (A20.221's mutual wipe-out), or that massacre
# them: their own sentence says what became of them
_OWN_ACTS = (ev.EscapeAttempted, ev.EscapedBy, ev.Abandoned, ev.MutualCapture, ev.Massacred)


def freed_by(
    units: Sequence[UnitChange], state: GameState, records: Sequence[ev.Record]
) -> list[Freed]:
    """The prisoners freed by what befell their Guard in ``records`` (the change's)."""
    was_prisoner = {c.handle for c in units if c.field == "status" and c.before == PRISONER}
    named: set[str] = set()
    for record in records:
        if isinstance(record, _OWN_ACTS):
            named.update(record.units)
    out = []
    for c in units:
        if c.field != "guard" or not c.before or c.after or c.handle not in was_prisoner:
            continue
        unit, guard = state.units.get(c.handle), state.units.get(c.before)
        # GONE: left play as it was made part of another counter (A20.221 stands a
        # split squad whole again), not freed; ELIMINATED: killed (by fire, a
        # Massacre) as a prisoner, which its entry says: a dead unit never goes free
        if unit is None or guard is None or unit.status in (PRISONER, GONE, ELIMINATED):
            continue
        if c.handle in named or c.before in named:
            continue
        out.append(_why(unit, guard, records))
    return out


def _how(unit: Unit) -> str:
    if unit.unarmed_how == "escaped":
        return "escaped" if unit.status == ACTIVE else "escaped (unarmed)"
    if unit.armed:
        return "given back, armed"
    return f"unarmed ({unit.unarmed_how})" if unit.unarmed_how else "unarmed"


def _why(unit: Unit, guard: Unit, records: Sequence[ev.Record]) -> Freed:
    h, g, how = unit.handle, guard.handle, _how(unit)
    if was_exchanged(unit):  # A20.221: not given back, but a Green/Conscript unit now
        return Freed(
            h,
            g,
            f"exchanged for {unit.counter} (Green/Conscript), armed",
            exchange_why(unit.location),
            "A20.221",
        )
    if unit.armed and not unit.unarmed_how:  # A20.221 gave its capture back
        return Freed(h, g, how, f"its capture by {g} this CCPh is void", "A20.221")
    if guard.status == PRISONER:
        return Freed(h, g, how, f"its Guard {g} is now a prisoner", "A20.5", "Captured Guard")
    if guard.status == ELIMINATED:
        return Freed(
            h,
            g,
            how,
            f"its Guard {g} was eliminated and none took over",
            "A20.5",
            "Guard eliminated",
        )
    if guard.status == GONE or any(isinstance(r, ev.Captured) and r.split == g for r in records):
        return Freed(
            h,
            g,
            how,
            f"its Guard {g} was split by a capture; its free HS has no room",
            "A20.5",
            "Captured Guard",
        )
    return Freed(h, g, how, f"its Guard {g} is too small to guard it now", "A20.5")


def handed_by(
    units: Sequence[UnitChange], state: GameState, records: Sequence[ev.Record]
) -> list[Handed]:
    """The prisoners ``records`` passed from one Guard to another without naming them
    (a transfer names its own): who holds each now, and why."""
    named = {h for r in records if isinstance(r, ev.Transferred) for h in r.units}
    out = []
    for c in units:
        if c.field != "guard" or not c.before or not c.after or c.handle in named:
            continue
        unit = state.units.get(c.handle)
        if unit is None or unit.status != PRISONER:
            continue
        why, rule = _passed_on(c.handle, c.before, c.after, state, records)
        out.append(Handed(c.handle, c.before, c.after, why, rule))
    return out


def _passed_on(
    handle: str, was: str, now: str, state: GameState, records: Sequence[ev.Record]
) -> tuple[str, str]:
    for r in records:
        if isinstance(r, ev.Captured) and r.split == was:
            return f"its Guard {was} was split by a capture; its free HS keeps it", "A20.5"
        if isinstance(r, ev.Deployed) and r.handle == was:
            how = (
                ""
                if handle in r.assign
                else "; a prisoner not sent to the second HS stays with the first"
            )
            return f"its Guard {was} deployed into {'+'.join(r.into)}{how}", "A20.5"
    guard = state.units.get(was)
    if guard is not None and guard.status == ELIMINATED:
        return f"its Guard {was} was eliminated; {now} took over", "A20.5"
    if guard is not None and guard.split_from == now:
        return f"{now} stands whole again and guards what its HS held", "A20.221"
    return f"its Guard {was} passed it to {now}", "A20.5"
