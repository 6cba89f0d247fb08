"""The board facts each A20 entry needs: one table, read by the check that refuses an
entry without them and by the entry that implies them (``core.commands.implied``).

The board is the truth for board facts (who is broken, where a unit stands); the book
is the truth for A20. An entry whose rule needs a board fact says that fact is so: a
RtPh surrender says its units are broken (A20.21), a CC capture says the attackers
stand in the defenders' Location (A20.22). Each row names the fact, the units it is
about (by their role in the entry), the rule and why; each row's rule check
(``core.rules.surrender``, ``cc_capture``, ...) refuses the entry without the fact, and
``needed`` says what an entry may imply (tests/rules/test_board_facts.py holds the two
to each other). What the book holds (a prisoner, a unit in Melee, No Quarter, capacity) is
never a board fact: the entry's own rule check refuses it.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Any

import msgspec

from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal, RuleRefusal
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import ACTIVE, PRISONER, UNARMED, Unit


class Fact(Enum):
    BROKEN = "broken"
    GOOD_ORDER = "Good Order"
    WITH = "with"  # stands in the Location of the other units the row names
    MELEE = "in Melee"  # in Melee with the unit ``Wanted.other`` names


# Which units of an entry a row is about: its role in the entry.
Role = Callable[[GameState, Any], list[str]]


def _units(state: GameState, e: Any) -> list[str]:
    return list(e.units) + ([e.split] if getattr(e, "split", None) else [])


def _guard(state: GameState, e: Any) -> list[str]:
    return [e.guard]


def _to_guard(state: GameState, e: Any) -> list[str]:
    return [e.to_guard]


def _handle(state: GameState, e: Any) -> list[str]:
    return [e.handle]


def _takeover(state: GameState, e: Any) -> list[str]:
    return [e.takeover] if e.takeover and e.takeover in state.units else []


def _dead_guard(state: GameState, e: Any) -> list[str]:
    return [e.handle]


def _guard_of_units(state: GameState, e: Any) -> list[str]:
    first = state.units.get(e.units[0]) if e.units else None
    return [first.guard] if first is not None and first.guard else []


def _always(state: GameState, e: Any) -> bool:
    return True


def _rtph_surrender(state: GameState, e: ev.Surrendered) -> bool:
    return e.reason in ("rtph", "encircled", "mopup")


def _captor_in_good_order(state: GameState, e: ev.Surrendered) -> bool:
    return e.reason != "mopup"


def _rejected_as_broken(state: GameState, e: ev.SurrenderRejected) -> bool:
    units = [state.units.get(h) for h in e.units]
    return not all(u is not None and u.disrupted for u in units)


def _entering(state: GameState, e: ev.Recaptured) -> bool:
    """A recapture in the MPh: the unit entered the unarmed units' Location now."""
    return state.phase == "MPh"


def _in_cc(state: GameState, e: ev.Recaptured) -> bool:
    """A recapture by CC (CCPh): the ATTACKER's unit advanced into the Location in its
    APh, before this phase; in the CCPh itself no unit moves."""
    return state.phase != "MPh"


def _outside_melee(state: GameState, e: ev.EscapeAttempted) -> bool:
    prisoners = [state.units.get(h) for h in e.units]
    guard = state.units.get(_guard_of_units(state, e)[0]) if _guard_of_units(state, e) else None
    if guard is None or any(p is None or p.status != PRISONER for p in prisoners):
        return False
    return not guard.melee and not any(p is not None and p.melee for p in prisoners)


class Need(msgspec.Struct, frozen=True):
    """One board fact an entry needs: ``fact`` of the units in ``role`` (for
    ``Fact.WITH``: standing with the units in ``with_role``), when ``when`` holds."""

    fact: Fact
    role: Role
    rule: str
    why: str
    when: Callable[[GameState, Any], bool] = _always
    with_role: Role | None = None
    # Fact.WITH: who moved into the other's Location. None: the units of the side
    # whose Player Turn it is (only the ATTACKER moves in its MPh and advances in its
    # APh); else the units of ``role``.
    mover: Role | None = None
    # A Melee with an armed enemy unit in the same Location would make the entry legal
    # as well as ``fact``: the two are alternatives, and the players say which is so.
    or_melee: bool = False


CC_WHY = "a broken unit may not attack in CC (A11.16)"

NEEDS: dict[type[ev.Record], tuple[Need, ...]] = {
    ev.Surrendered: (
        Need(
            Fact.BROKEN,
            _units,
            "A20.21",
            "only a broken unit surrenders in the RtPh",
            _rtph_surrender,
        ),
        Need(
            Fact.GOOD_ORDER,
            _guard,
            "A20.21",
            "a surrender needs a Good Order captor",
            _captor_in_good_order,
        ),
    ),
    ev.SurrenderRejected: (
        Need(
            Fact.BROKEN,
            _units,
            "A20.3",
            "only a broken unit's surrender is rejected",
            _rejected_as_broken,
        ),
    ),
    ev.Captured: (
        Need(Fact.GOOD_ORDER, _guard, "A20.22", CC_WHY),
        Need(
            Fact.WITH,
            _guard,
            "A20.22",
            "CC is fought within one Location, which the ATTACKER entered in its APh",
            with_role=_units,
        ),
    ),
    ev.Recaptured: (
        Need(Fact.GOOD_ORDER, _guard, "A20.54", CC_WHY),
        Need(
            Fact.WITH,
            _guard,
            "A20.54",
            "a recapture in the MPh enters the unarmed units' Location",
            _entering,
            with_role=_units,
        ),
        Need(
            Fact.WITH,
            _guard,
            "A20.54",
            "a recapture by CC is fought within one Location, which the ATTACKER entered "
            "in its APh",
            _in_cc,
            with_role=_units,
        ),
    ),
    ev.Transferred: (
        Need(Fact.GOOD_ORDER, _to_guard, "A20.5", "a broken unit cannot accept prisoners"),
        Need(
            Fact.WITH,
            _to_guard,
            "A20.5",
            "prisoners pass to a unit in their Location",
            with_role=_guard_of_units,
            mover=_to_guard,
        ),
    ),
    ev.EscapeAttempted: (
        Need(
            Fact.BROKEN,
            _guard_of_units,
            "A20.55",
            "outside Melee prisoners attack only a broken Guard",
            _outside_melee,
            or_melee=True,
        ),
    ),
    ev.Eliminated: (
        Need(Fact.GOOD_ORDER, _takeover, "A20.5", "a broken unit cannot accept prisoners"),
        Need(
            Fact.WITH,
            _takeover,
            "A20.5",
            "prisoners pass to a unit in their Location",
            with_role=_dead_guard,
            mover=_takeover,
        ),
    ),
    ev.Deployed: (Need(Fact.GOOD_ORDER, _handle, "A20.5", "only an unbroken Guard squad deploys"),),
}


class Wanted(msgspec.Struct, frozen=True):
    """One board fact an entry needs of one unit, not so in the book."""

    handle: str
    fact: Fact
    location: str  # Fact.WITH: the Location it must stand in
    rule: str
    why: str
    other: str = ""  # Fact.MELEE: the enemy unit it is in Melee with

    @property
    def said(self) -> str:
        """The fact as the reply says it: ``g4 broken``, ``a1 in K5``, ``a1 in Melee
        with g4``."""
        if self.fact is Fact.WITH:
            return f"{self.handle} in {self.location}"
        if self.fact is Fact.MELEE:
            return f"{self.handle} in Melee with {self.other}"
        return f"{self.handle} {self.fact.value}"


def _board_unit(u: Unit | None) -> bool:
    """A unit whose board facts an entry may need: an armed unit on the board, or a
    free unarmed one (for its Location); a prisoner's are its Guard's."""
    return u is not None and u.status in (ACTIVE, UNARMED)


def needed(state: GameState, event: ev.Record) -> list[Wanted]:
    """The board facts ``event`` needs that the book does not hold now, in row order."""
    out: list[Wanted] = []
    for need in NEEDS.get(type(event), ()):
        if not need.when(state, event):
            continue
        if need.fact is Fact.WITH:
            out += _wanted_with(state, event, need)
            continue
        for handle in need.role(state, event):
            u = state.units.get(handle)
            if not _board_unit(u) or u is None or u.status != ACTIVE:
                continue
            if u.broken != (need.fact is Fact.BROKEN):
                out.append(Wanted(handle, need.fact, "", need.rule, need.why))
    return out


def alternatives(state: GameState, event: ev.Record, want: Wanted) -> list[Wanted]:
    """The other board facts that would each make ``event`` legal instead of ``want``:
    for an escape outside Melee (A20.55), the Guard in Melee with each armed enemy unit
    in its Location, where the Guard need not be broken. Empty when ``want`` is the
    only fact that fits."""
    rows = [n for n in NEEDS.get(type(event), ()) if n.or_melee and n.fact is want.fact]
    if not rows or not any(want.handle in n.role(state, event) for n in rows):
        return []
    u = state.units[want.handle]
    if not u.location:
        return []
    return [
        Wanted(u.handle, Fact.MELEE, u.location, rows[0].rule, MELEE_WHY, other=o.handle)
        for o in state.active_at(u.location)
        if o.side != u.side and o.location == u.location and o.status == ACTIVE and o.armed
    ]


MELEE_WHY = "in Melee prisoners attack their Guard, broken or not"


def _wanted_with(state: GameState, event: ev.Record, need: Need) -> list[Wanted]:
    assert need.with_role is not None
    named = dict.fromkeys(need.role(state, event) + need.with_role(state, event))
    units = [state.units[h] for h in named if _board_unit(state.units.get(h))]
    if need.mover is None:
        movers = [u for u in units if u.side == state.attacker]
    else:
        moving = set(need.mover(state, event))
        movers = [u for u in units if u.handle in moving]
    staying = {u.location for u in units if u not in movers and u.location}
    if len(staying) != 1 or not movers:
        return []  # no one Location to stand in: the entry's own check says why
    (there,) = staying
    return [
        Wanted(u.handle, Fact.WITH, there, need.rule, need.why)
        for u in movers
        if u.location != there
    ]


def held_refusal(state: GameState, want: Wanted) -> Refusal | None:
    """Why the book rules ``want`` out, whatever the board shows: a unit in Melee did
    not advance into another Location (A20.54: it "may move no farther"; only a
    Withdrawal leaves a Melee, and it is no advance). The implied fact's own check
    refuses the rest (an unarmed unit never breaks nor enters a Known enemy-occupied
    Location, A20.54)."""
    u = state.units[want.handle]
    if want.fact is Fact.WITH and u.melee and u.location:
        return RuleRefusal(
            "A20.54",
            f"{u.side} {u.counter} ({u.handle}) is in Melee in {u.location} and may move no "
            f"farther: it did not advance into {want.location}",
        )
    return None
