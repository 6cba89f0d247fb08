"""What A20 allows now: each thing a side may (or must) do in this phase, as a typed
fact naming its units, gathered once for the status line's sentences
(``phase_hints``) and for the command bar's ready entries
(``core.commands.offers``).

Every judgement comes from ``core.rules`` (guard_refusal, accept_refusal,
never_surrenders, fit_to_massacre, needs_ntc, scrounge_refusal, escort_refusal,
rearm_refusal via ``views.rearm_ways``); an escape or a capture is judged as the
command would record it, with the board facts it implies (``core.rules.implying``,
the one judge of the pickers too); this module only gathers and groups.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import TypeVar

import msgspec

from stockade.core.model import events as ev
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import ACTIVE, PRISONER, UNARMED, Unit
from stockade.core.reads.queries import capture_targets
from stockade.core.reads.views import (
    armed_by_location,
    escape_attempt,
    rearm_sources,
    rearm_ways,
)
from stockade.core.rules.berserk import (
    berserk_with_prisoners,
    bound_to_massacre,
    firer_in,
    next_fire_phase,
)
from stockade.core.rules.escape import needs_ntc
from stockade.core.rules.guarding import accept_refusal, guard_refusal
from stockade.core.rules.guards import escort_refusal
from stockade.core.rules.implying import Judge, records_too
from stockade.core.rules.losses import fit_to_massacre
from stockade.core.rules.scrounging import scrounge_refusal
from stockade.core.rules.simultaneous_cc import captured_this_ccph
from stockade.core.rules.surrender import never_surrenders
from stockade.core.rules.timing import Waiting, phase_view


# ------------------------------------------------------------------ the facts
class GuardsInMelee(msgspec.Struct, frozen=True):
    """Guards whose prisoners are in Melee with them: no transfer or abandonment."""

    guards: tuple[Unit, ...]


class MayTransfer(msgspec.Struct, frozen=True):
    """A Guard may transfer its prisoners (to ``takers``, in its Location) or abandon
    them this RPh/APh (A20.5)."""

    guard: Unit
    prisoners: tuple[Unit, ...]
    takers: tuple[Unit, ...]


class MayEscape(msgspec.Struct, frozen=True):
    """Prisoners of one Guard that may attempt escape, after a NTC or not (A20.55);
    ``implied``: the board facts the entry records with it (``a1 broken``), or ""."""

    units: tuple[Unit, ...]
    side: str
    guard: str
    ntc: bool
    implied: str = ""


class MayCaptureBack(msgspec.Struct, frozen=True):
    """A unit captured in this CCPh whose own attack of that simultaneous CC may still
    be recorded as a capture of ``targets`` (A20.221), judged by the capture check."""

    unit: Unit
    targets: tuple[str, ...]


class MayRearm(msgspec.Struct, frozen=True):
    """An unarmed unit that may rearm at once from ``enemy`` (A20.551)."""

    unit: Unit
    enemy: Unit
    how: ev.RearmHow


class NeverSurrender(msgspec.Struct, frozen=True):
    units: tuple[Unit, ...]
    side: str
    why: str


class MaySurrender(msgspec.Struct, frozen=True):
    """Broken units that surrender via the RtPh if the board allows (A20.21), to one
    of ``captors``; the captor may reject them instead (A20.3)."""

    units: tuple[Unit, ...]
    side: str
    enemy: str
    captors: tuple[Unit, ...]


class MayMassacre(msgspec.Struct, frozen=True):
    """Units that may Massacre the unarmed ``victims`` in their fire phase (A20.4)."""

    units: tuple[Unit, ...]
    victims: tuple[str, ...]


class MustMassacre(msgspec.Struct, frozen=True):
    """Berserk units that A20.4 binds to eliminate the prisoners ``victims`` in their
    Location at the start of a fire phase of theirs: the clock records it when it
    enters the ``attacker``'s ``phase`` (``core.rules.berserk``)."""

    units: tuple[Unit, ...]
    victims: tuple[str, ...]
    attacker: str
    phase: ev.Phase


class MayScrounge(msgspec.Struct, frozen=True):
    units: tuple[Unit, ...]


class MayRecapture(msgspec.Struct, frozen=True):
    """``side``'s Infantry entering the Location of ``free`` may recapture them (A20.54)."""

    side: str
    free: tuple[Unit, ...]


class MayEscort(msgspec.Struct, frozen=True):
    guards: tuple[Unit, ...]


class Ended(msgspec.Struct, frozen=True):
    """The game has ended: nothing more may happen."""


May = (
    GuardsInMelee
    | MayTransfer
    | MayEscape
    | MayCaptureBack
    | MayRearm
    | NeverSurrender
    | MaySurrender
    | MayMassacre
    | MustMassacre
    | MayScrounge
    | MayRecapture
    | MayEscort
    | Ended
)

_Key = TypeVar("_Key", bound=Hashable)


def _together(items: Iterable[tuple[_Key, Unit]]) -> list[tuple[_Key, tuple[Unit, ...]]]:
    """Units sharing the same key, in order of first appearance: one fact names them
    together, so the status line is not cut at 80x24."""
    groups: dict[_Key, list[Unit]] = {}
    for key, u in items:
        groups.setdefault(key, []).append(u)
    return [(key, tuple(units)) for key, units in groups.items()]


# ------------------------------------------------------------------ gathering
def _rph_aph(state: GameState) -> list[May]:
    side, out, in_melee = state.attacker, [], []
    for guard in (g for g in state.guards() if g.side == side):
        prisoners = state.prisoners_of(guard.handle)
        if guard.melee or any(p.melee for p in prisoners):
            in_melee.append(guard)
            continue
        takers = tuple(
            u
            for u in state.units.values()
            if u.location
            and u.location == guard.location
            and u.status == ACTIVE
            and accept_refusal(u, guard) is None
        )
        out.append(MayTransfer(guard, tuple(prisoners), takers))
    melee: list[May] = [GuardsInMelee(tuple(in_melee))] if in_melee else []
    return melee + list(out)


def _cc(state: GameState) -> list[May]:
    """Escapes the escape rule accepts now, as entered (with the board facts the entry
    implies: ``core.rules.implying``), and captures back (A20.221)."""
    judge, may = Judge(state), []
    for p in (u for u in state.units.values() if u.status == PRISONER):
        verdict = judge([escape_attempt(p)])
        if verdict.accepted:
            may.append(((p.side, p.guard or "", needs_ntc(state, p), verdict.facts_said), p))
    escapes: list[May] = [
        MayEscape(units, side, guard, ntc, implied)
        for (side, guard, ntc, implied), units in _together(may)
    ]
    return escapes + _capture_back(state, judge)


def _capture_back(state: GameState, judge: Judge) -> list[May]:
    out: list[May] = []
    for p in (u for u in state.units.values() if captured_this_ccph(state, u)):
        where = p.captured_at or p.location
        enemies = [e for e in state.active_at(where) if e.location == where]
        targets, _ = capture_targets(judge, p, enemies)
        if targets:
            out.append(MayCaptureBack(p, tuple(t.unit.handle for t in targets)))
    return out


def _rearm(state: GameState) -> list[May]:
    """Free unarmed units that ``rearm_refusal`` would let rearm now: it is immediate,
    in the phase of the enemy's loss (A20.551), so it is worth most right then."""
    unarmed = [u for u in state.units.values() if u.status == UNARMED and u.on_board]
    if not unarmed:
        return []
    sources, active_at = rearm_sources(state, now_only=True), armed_by_location(state)
    out: list[May] = []
    for u in unarmed:
        ways = rearm_ways(state, u, sources, active_at)
        if ways:
            enemy, how = ways[0]
            out.append(MayRearm(u, enemy, how))
    return out


def _rtph(state: GameState) -> list[May]:
    never, surrender = [], []
    captors_of: dict[str, tuple[Unit, ...]] = {}
    for u in state.units.values():
        if u.status != ACTIVE or not (u.broken or u.disrupted) or not u.is_infantry:
            continue
        enemy = state.enemy_of(u.side)
        refusal = never_surrenders(state, u, enemy)
        if refusal is not None:
            never.append(((u.side, str(refusal)), u))
            continue
        captors = captors_of.get(enemy)
        if captors is None:  # the same for every unit of a side: found once
            captors = captors_of[enemy] = tuple(
                c
                for c in state.units.values()
                if c.side == enemy
                and c.is_infantry
                and not c.broken
                and guard_refusal(c, phase_rtph=True) is None
            )
        if captors:
            surrender.append(((u.side, enemy), u))
    out: list[May] = [NeverSurrender(units, side, why) for (side, why), units in _together(never)]
    out += [
        MaySurrender(units, side, enemy, captors_of[enemy])
        for (side, enemy), units in _together(surrender)
    ]
    return out


def _fire(state: GameState) -> list[May]:
    firer = firer_in(state.phase, state.attacker, state.defender)
    helpless = [
        v for v in state.units.values() if v.side != firer and v.status in (PRISONER, UNARMED)
    ]
    if not helpless:
        return []
    # the berserk units' Massacre as the clock will record it: the rule's one check
    bound = bound_to_massacre(state, berserk_with_prisoners(state), firer, set())
    must = {u.handle: set(victims) for units, victims in bound for u in units}
    may = []
    for u in state.units.values():
        if u.side != firer or u.status != ACTIVE or not u.armed or not u.is_infantry:
            continue
        victims = [
            v.handle
            for v in helpless
            if (v.guard == u.handle or (u.location and v.location == u.location))
            and v.handle not in must.get(u.handle, ())
        ]
        if victims and fit_to_massacre(state, u):
            may.append((tuple(victims), u))
    out: list[May] = []
    if bound:
        attacker, phase = next_fire_phase(state, firer)
        out += [
            MustMassacre(tuple(units), tuple(victims), attacker, phase) for units, victims in bound
        ]
    return out + [MayMassacre(units, handles) for handles, units in _together(may)]


def _mph(state: GameState) -> list[May]:
    side, out = state.attacker, list[May]()
    # those the scrounge entry's own check lets roll now (one DR per hex per MPh)
    free = tuple(
        u
        for u in state.units.values()
        if u.side == side and u.status == UNARMED and scrounge_refusal(state, u) is None
    )
    if free:
        out.append(MayScrounge(free))
    enemy_free = tuple(u for u in state.units.values() if u.side != side and u.status == UNARMED)
    if enemy_free:
        out.append(MayRecapture(side, enemy_free))
    return out


def may_now(state: GameState) -> list[May]:
    """What A20 allows (or requires) in the current phase, naming the units."""
    if state.ended:
        return [Ended()]
    out: list[May] = []
    if state.phase in ("RPh", "APh"):
        out += _rph_aph(state)
    if state.phase == "CCPh":
        out += _cc(state)
    if state.phase == "RtPh":
        out += _rtph(state)
    if state.phase in ("PFPh", "DFPh", "AFPh"):
        out += _fire(state)
    if state.phase == "MPh":
        out += _mph(state)
    out += _rearm(state)
    if state.phase in ("MPh", "APh"):
        # those the escort entry's own check lets go (not in Melee: A20.53)
        guards = tuple(
            g
            for g in state.guards()
            if g.side == state.attacker and escort_refusal(state, g) is None
        )
        if guards:
            out.append(MayEscort(guards))
    return out


# ------------------------------------------------------------------ the sentences
def _names(units: Iterable[Unit]) -> str:
    return ", ".join(u.handle for u in units)


_REARM_BECAUSE = {
    "surrender": "it surrendered to a friendly unit there",
    "alone": "no other armed enemy is left there",
    "cc": "lost in CC there",
}


def sentence(fact: May, state: GameState) -> str:
    """One fact as the status line says it, with its rule."""
    match fact:
        case Ended():
            return "the game has ended: prisoners still guarded count double (A20.1)"
        case GuardsInMelee(guards=(guard,)):
            return (
                f"{guard.handle}'s prisoners are in Melee with it: "
                "no transfer or abandonment (A20.5)"
            )
        case GuardsInMelee(guards=guards):
            return (
                f"the prisoners of {_names(guards)} are in Melee with their Guards: "
                "no transfer or abandonment (A20.5)"
            )
        case MayTransfer(guard=guard, prisoners=prisoners, takers=takers):
            to = f" (to {_names(takers)})" if takers else ""
            return (
                f"Guard {guard.handle} may transfer{to} or abandon "
                f"{_names(prisoners)} this {state.phase} (A20.5)"
            )
        case MayEscape(units=units, side=side, guard=guard, ntc=ntc, implied=implied):
            after = " after passing a NTC" if ntc else " (in Melee: no NTC)"
            its = "its" if len(units) == 1 else "their"
            records = f"; {records_too(implied, 'the escape')}" if implied else ""
            return (
                f"{_names(units)} ({side}) may attempt escape vs {its} Guard {guard}{after} "
                f"(A20.55{records})"
            )
        case MayCaptureBack(unit=p, targets=targets):
            return (
                f"{p.handle} ({p.side}), captured this CCPh, still made its own CC attack: "
                f"if it captured too, record capture {' '.join(targets)} by {p.handle} (A20.221)"
            )
        case MayRearm(unit=u, enemy=enemy, how=how):
            return (
                f"{u.handle} may rearm at once from {enemy.handle} ({_REARM_BECAUSE[how]}; A20.551)"
            )
        case NeverSurrender(units=units, side=side, why=why):
            verb = "never surrenders" if len(units) == 1 else "never surrender"
            return f"{_names(units)} ({side}) {verb} via the RtPh: {why}"
        case MaySurrender(units=units, side=side, captors=captors):
            verb = "surrenders" if len(units) == 1 else "surrender"
            return (
                f"{_names(units)} ({side}) {verb} if ADJACENT to a Known, Good "
                f"Order, armed enemy ({_names(captors)}) and unable to rout "
                "without Interdiction/Low Crawl (A20.21)"
            )
        case MustMassacre(units=units, victims=victims, attacker=attacker, phase=phase):
            one = len(units) == 1
            return (
                f"{_names(units)} {'is' if one else 'are'} berserk with prisoners "
                f"({', '.join(victims)}): {'it' if one else 'they'} must Massacre them "
                f"at the start of the {attacker} {phase} (A20.4)"
            )
        case MayMassacre(units=units, victims=victims):
            return (
                f"{_names(units)} may Massacre {', '.join(victims)} as if using a SW "
                "(A20.4: enemy ELR +1 once, and No Quarter)"
            )
        case MayScrounge(units=units):
            return (
                f"{_names(units)} may scrounge at the end of this MPh if they spent all "
                "their MF (A20.552)"
            )
        case MayRecapture(side=side, free=free):
            return (
                f"{side} Infantry entering the Location of {_names(free)} may "
                "recapture them with an immediate CC attack (A20.54)"
            )
        case MayEscort(guards=guards):
            return (
                f"{_names(guards)} may escort prisoners off a Friendly Board Edge; "
                "escorted prisoners count double (A20.53)"
            )
    raise AssertionError(f"no sentence for {fact!r}")


def _waiting(fact: May, phase: ev.Phase) -> Waiting | None:
    """A fact that asks something of the table, in the few words a clock reply names it
    by (``passed CCPh, where g3 may attempt escape from r2 (A20.55)``); None for one
    that asks nothing (a Guard in Melee, a unit that never surrenders, the game over)."""
    match fact:
        case MayTransfer(guard=guard):
            return Waiting(phase, f"{guard.handle} may transfer or abandon", "A20.5")
        case MayEscape(units=units, guard=guard):
            return Waiting(phase, f"{_names(units)} may attempt escape from {guard}", "A20.55")
        case MayCaptureBack(unit=p, targets=targets):
            return Waiting(phase, f"{p.handle} may capture {' '.join(targets)}", "A20.221")
        case MayRearm(unit=u, enemy=enemy):
            return Waiting(phase, f"{u.handle} may rearm from {enemy.handle}", "A20.551")
        case MaySurrender(units=units):
            return Waiting(phase, f"{_names(units)} may surrender", "A20.21")
        case MustMassacre(units=units, victims=victims):
            return Waiting(phase, f"{_names(units)} must massacre {' '.join(victims)}", "A20.4")
        case MayMassacre(units=units, victims=victims):
            return Waiting(phase, f"{_names(units)} may massacre {' '.join(victims)}", "A20.4")
        case MayScrounge(units=units):
            return Waiting(phase, f"{_names(units)} may scrounge", "A20.552")
        case MayRecapture(side=side, free=free):
            return Waiting(phase, f"{side} may recapture {_names(free)}", "A20.54")
        case MayEscort(guards=guards):
            return Waiting(phase, f"{_names(guards)} may escort their prisoners", "A20.53")
    return None


def waiting_in(state: GameState, phase: ev.Phase) -> Waiting | None:
    """The first thing A20 asks of the table in ``phase`` of this Player Turn, as the
    board stands: the facts ``may_now`` gives the hints there (one judge, so the key
    that skips to the next such phase never passes one the hints then name), or a Melee
    that goes on in the CCPh (a CC capture in it, A20.22)."""
    view = phase_view(state, phase)
    for fact in may_now(view):
        waiting = _waiting(fact, phase)
        if waiting is not None:
            return waiting
    if phase == "CCPh":
        fighting = next((u for u in state.units.values() if u.on_board and u.melee), None)
        if fighting is not None:
            return Waiting(phase, f"the Melee of {fighting.handle} goes on", "A20.22")
    return None


def phase_hints(state: GameState) -> list[str]:
    """What A20 allows in the current phase, naming the units it concerns."""
    return [sentence(fact, state) for fact in may_now(state)]
