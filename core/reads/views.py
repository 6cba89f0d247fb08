"""What the side panels show: plain dataclasses the TUI and the CLI render.

Every rule judgement here comes from ``core.rules`` (guard_refusal, capacity,
never_surrenders, may_massacre, escape_refusal, needs_ntc, rearm_refusal); this module
only gathers and words them. State is always said in words, never left to colour.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from stockade.core.book.tally import SideTally, tally
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import (
    ACTIVE,
    ELIMINATED,
    ESCORTED,
    EXITED,
    PRISONER,
    UNARMED,
    Unit,
)
from stockade.core.model.units import KIND_NAMES, nationality_flags
from stockade.core.rules.escape import (
    escape_refusal,
    needs_ntc,
    rearm_refusal,
    withdrawal_refusal,
)
from stockade.core.rules.guarding import accept_refusal, capacity, guard_refusal
from stockade.core.rules.losses import may_massacre
from stockade.core.rules.surrender import never_surrenders

UNARMED_COUNTER = "(1)-0-6"


# ------------------------------------------------------------------ one-liners
def origin_text(u: Unit) -> str:
    """What an unarmed counter stands for: ``2-2-8 crew + 2-4-7 HS``."""
    return " + ".join(f"{o.counter} {KIND_NAMES[o.unit_kind]}" for o in u.origins)


def counter_text(u: Unit) -> str:
    """The counter as it is now, with what an unarmed one stands for (A20.5)."""
    if u.counter == UNARMED_COUNTER and u.origins:
        return f"{UNARMED_COUNTER} [was {origin_text(u)}]"
    return u.counter


def status_words(u: Unit) -> list[str]:
    words = [
        w
        for w, on in (
            ("broken", u.broken),
            ("pinned", u.pinned),
            ("Melee", u.melee),
            ("berserk", u.berserk),
            ("Disrupted", u.disrupted),
        )
        if on
    ]
    if u.status == UNARMED:
        words.insert(0, f"unarmed, {u.unarmed_how}" if u.unarmed_how else "unarmed")
    elif u.status not in (ACTIVE, PRISONER):
        words.insert(0, u.status)
    return words


def unit_label(u: Unit) -> str:
    """One line used everywhere: ``g1: HS (1)-0-6 [was 2-2-8 crew] in Q4 (pinned)``."""
    text = f"{u.handle}: {KIND_NAMES[u.unit_kind]} {counter_text(u)}"
    if u.status == PRISONER:
        # An SMC prisoner keeps its counter and morale, noted on a side record (A20.5).
        text += f", prisoner of {u.guard}" + (" (counter set aside)" if u.is_smc else "")
    if u.location:
        text += f" in {u.location}"
    words = status_words(u)
    return text + (f" ({', '.join(words)})" if words else "")


# ------------------------------------------------------------------ panel parts
@dataclass
class PrisonerView:
    unit: Unit
    label: str
    counter: str  # "(1)-0-6 [was 2-2-8 crew]"
    us: int


@dataclass
class GuardView:
    unit: Unit
    label: str
    prisoners: list[PrisonerView]
    used: int  # prisoners' US#
    capacity: int  # 5 x the Guard's US# (A20.51)
    status: list[str]
    limits: list[str]

    @property
    def usage(self) -> str:
        return f"US# {self.used}/{self.capacity}"


@dataclass
class HeldView:
    prisoner: PrisonerView
    guard: str  # the enemy Guard's label


@dataclass
class UnarmedView:
    unit: Unit
    label: str
    how: str  # abandoned / escaped / freed
    protection: str  # A20.53 note for abandoned units, else ""


@dataclass
class EscapeView:
    unit: Unit
    label: str
    allowed: bool
    needs_ntc: bool
    why: str  # the refusal when not allowed; what it takes when allowed


@dataclass
class RearmView:
    unit: Unit
    label: str
    now: list[str]  # ways it may rearm right now
    later: list[str]  # ways open to it in another phase or on another event


@dataclass
class SidePanel:
    name: str
    nationality: str
    elr: int
    no_quarter: bool
    massacred: bool
    elr_raised: bool
    guards: list[GuardView] = field(default_factory=list)
    prisoners_held_by_enemy: list[HeldView] = field(default_factory=list)
    unarmed: list[UnarmedView] = field(default_factory=list)
    escape: list[EscapeView] = field(default_factory=list)
    rearm: list[RearmView] = field(default_factory=list)
    eliminated: list[str] = field(default_factory=list)
    escorted: list[str] = field(default_factory=list)
    exited: list[str] = field(default_factory=list)  # off a board edge for Exit VP
    cvp: int = 0
    cvp_if_ended: int = 0
    ended: bool = False  # the game has ended: "if ended now" no longer applies

    @property
    def flags(self) -> list[str]:
        out = [
            f"ELR {self.elr}" + (" (raised by an enemy Massacre, A20.4)" if self.elr_raised else "")
        ]
        if self.no_quarter:
            out.append("No Quarter invoked (A20.3)")
        if self.massacred:
            out.append("Massacre committed (A20.4)")
        return out


# --------------------------------------------------------------------- builders
def _prisoner_view(p: Unit) -> PrisonerView:
    return PrisonerView(p, unit_label(p), counter_text(p), p.us)


def guard_limits(state: GameState, guard: Unit) -> list[str]:
    """The A20.52 (and A20.4, A20.5) limits on a Guard, as the player reads them."""
    limits = []
    if guard.us < state.prisoner_load(guard.handle):
        limits.append(
            "may attack only its prisoners except in CC; no SW, Interdiction or Kindle (A20.52)"
        )
    limits.append("CC vs non-prisoners at half FP (A20.52)")
    if guard.berserk:
        limits.append("must Massacre them at the start of its fire phase (A20.4)")
    if guard.melee:
        limits.append("in Melee with its prisoners: no transfer or abandonment (A20.5)")
    return limits


def _guard_view(state: GameState, guard: Unit) -> GuardView:
    prisoners = [_prisoner_view(p) for p in state.prisoners_of(guard.handle)]
    return GuardView(
        guard,
        unit_label(guard),
        prisoners,
        state.prisoner_load(guard.handle),
        capacity(guard),
        status_words(guard),
        guard_limits(state, guard),
    )


def _unarmed_view(state: GameState, u: Unit) -> UnarmedView:
    protection = ""
    if u.unarmed_how == "abandoned" and u.abandoned_by:
        protection = (
            f"abandoned by {u.abandoned_by}: if {u.abandoned_by} eliminates it, "
            "that is a Massacre (A20.53, A20.3-.4)"
        )
    return UnarmedView(u, unit_label(u), u.unarmed_how, protection)


def _escape_view(state: GameState, p: Unit) -> EscapeView:
    refusal = escape_refusal(state, p)
    if refusal is None:
        ntc = needs_ntc(state, p)
        if ntc:
            what = "must pass a NTC first, then attack its broken Guard in CC (A20.55)"
        elif withdrawal_refusal(state, _guard_of(state, p), [p]) is None:
            what = "in Melee: attacks without a NTC, or tries Withdrawal (A20.55, A11.2)"
        else:
            what = (
                "in Melee: attacks without a NTC; Withdrawal only in a later CCPh than the "
                "one its Melee began in (A20.55)"
            )
        return EscapeView(p, unit_label(p), True, ntc, what)
    why = str(refusal)
    flags = nationality_flags(state.sides[p.side].nationality)
    if flags.get("axis_minor") and "unless abandoned" in why:
        why += " [EXC: within own national borders vs Russians, A20.55]"
    return EscapeView(p, unit_label(p), False, False, why)


def rearm_sources(state: GameState) -> dict[str, list[tuple[int, Unit]]]:
    """The units an unarmed unit might rearm from (eliminated or captured, with a known
    Location), by the Location ``rearm_refusal`` compares with the unarmed unit's (""
    when it has none), each with its position in ``state.units`` (the order kept).

    ``rearm_refusal`` refuses an enemy whose Location differs from the unarmed unit's
    before any other test that depends on how it rearms, so looking only at the
    enemies in the same Location (and those with none) gives the same verdicts as
    trying every unit of the game, in O(units) once instead of once per unarmed unit.
    """
    out: dict[str, list[tuple[int, Unit]]] = {}
    for i, enemy in enumerate(state.units.values()):
        if enemy.status not in (ELIMINATED, PRISONER):
            continue
        if not (enemy.location or enemy.captured_at):
            continue  # A20.551 rearms only from an enemy known to be in its Location
        where = (
            enemy.captured_at if enemy.status == PRISONER and enemy.captured_at else enemy.location
        ) or ""
        out.setdefault(where, []).append((i, enemy))
    return out


def armed_by_location(state: GameState) -> dict[str, list[Unit]]:
    """Armed units on the board by Location: built once per panel refresh."""
    out: dict[str, list[Unit]] = {}
    for unit in state.units.values():
        if unit.status == ACTIVE and unit.location:
            out.setdefault(unit.location, []).append(unit)
    return out


def rearm_ways(
    state: GameState,
    u: Unit,
    sources: dict[str, list[tuple[int, Unit]]] | None = None,
    active_at: dict[str, list[Unit]] | None = None,
) -> list[tuple[Unit, str]]:
    """Each enemy that may rearm ``u`` now, with the most certain way ("surrender",
    "alone" or "cc"), as ``rearm_refusal`` judges it (A20.551)."""
    if sources is None:
        sources = rearm_sources(state)
    if active_at is None:
        active_at = armed_by_location(state)
    candidates: list[tuple[int, Unit]] = []
    if u.location:  # A20.551 rearms only from an enemy known to be in its Location
        here, nowhere = sources.get(u.location, []), sources.get("", [])
        candidates = (
            sorted(here + nowhere, key=lambda pair: pair[0])
            if here and nowhere
            else here or nowhere
        )
    ways = []
    for _, enemy in candidates:
        if enemy.side == u.side:
            continue
        # Most certain first: a recorded surrender, then no enemy left, then CC
        for how in ("surrender", "alone", "cc"):
            if rearm_refusal(state, u, how, enemy, active_at) is None:
                ways.append((enemy, how))
                break
    return ways


def _rearm_view(
    state: GameState,
    u: Unit,
    sources: dict[str, list[tuple[int, Unit]]] | None = None,
    active_at: dict[str, list[Unit]] | None = None,
) -> RearmView:
    now, later = [], []
    for enemy, how in rearm_ways(state, u, sources, active_at):
        # the log names a CC's attackers only for an escape; else CC stays an "if"
        words = {
            "surrender": "it surrendered to a friendly unit there",
            "alone": "it was eliminated/captured with no other enemy there",
            "cc": f"{u.handle} eliminated it in CC"
            if enemy.cc_attackers
            else f"if {u.handle} eliminated/captured it in CC",
        }[how]
        now.append(f"rearm from {enemy.handle} ({counter_text(enemy)}): {words} (A20.551)")
    mph = state.phase == "MPh" and state.attacker == u.side
    if mph and u.location and (state.turn, state.attacker, u.location) not in state.scrounged:
        now.append(
            "scrounge at the end of this MPh if it spent all its MF: DR 2 "
            "(vs a wreck dr 1-3, up to HS size); one DR per hex (A20.552)"
        )
    elif mph and not u.location:
        later.append("scrounge: give its Location first; one DR per hex per MPh (A20.552)")
    elif mph:
        later.append(f"scrounge: {u.location} already had its DR this MPh (A20.552)")
    else:
        later.append("scrounge at the end of its own MPh, not in water/marsh (A20.552)")
    later.append(
        "rearm by eliminating/capturing an armed enemy in CC, or when an armed "
        "enemy in its Location surrenders to a friendly unit (A20.551)"
    )
    return RearmView(u, unit_label(u), now, later)


def side_panel(state: GameState, side: str) -> SidePanel:
    return side_panels(state, [side])[side]


def side_panels(state: GameState, sides: list[str] | None = None) -> dict[str, SidePanel]:
    """``side_panel`` for several sides at once (all by default): the units are sorted
    by side, the tally made and the rearm sources gathered once for all of them."""
    wanted = list(state.sides) if sides is None else [s for s in sides if s in state.sides]
    by_side: dict[str, list[Unit]] = {s: [] for s in wanted}
    for u in state.units.values():
        mine = by_side.get(u.side)
        if mine is not None:
            mine.append(u)
    counted = tally(state).sides
    sources = (
        rearm_sources(state)
        if any(u.status == UNARMED for units in by_side.values() for u in units)
        else {}
    )
    active_at = armed_by_location(state) if sources else {}
    return {
        side: _side_panel(state, side, by_side[side], counted, sources, active_at)
        for side in wanted
    }


def _side_panel(
    state: GameState,
    side: str,
    mine: list[Unit],
    sides: dict[str, SideTally],
    sources: dict[str, list[tuple[int, Unit]]],
    active_at: dict[str, list[Unit]],
) -> SidePanel:
    s = state.sides[side]
    held = [u for u in mine if u.status == PRISONER]
    free = [u for u in mine if u.status == UNARMED]
    return SidePanel(
        name=side,
        nationality=s.nationality,
        elr=s.elr,
        no_quarter=s.no_quarter,
        massacred=s.massacred,
        elr_raised=s.elr_raised,
        guards=[_guard_view(state, g) for g in state.guards() if g.side == side],
        prisoners_held_by_enemy=[
            HeldView(_prisoner_view(p), unit_label(_guard_of(state, p))) for p in held
        ],
        unarmed=[_unarmed_view(state, u) for u in free],
        escape=[_escape_view(state, p) for p in held],
        rearm=[_rearm_view(state, u, sources, active_at) for u in free],
        eliminated=[unit_label(u) for u in mine if u.status == ELIMINATED],
        escorted=[unit_label(u) for u in mine if u.status == ESCORTED],
        exited=[unit_label(u) for u in mine if u.status == EXITED],
        cvp=sides[side].cvp,
        cvp_if_ended=sides[side].cvp_if_ended,
        ended=state.ended,
    )


# ------------------------------------------------------------------ phase hints
def _names(units: list[Unit]) -> str:
    return ", ".join(u.handle for u in units)


def _guard_of(state: GameState, prisoner: Unit) -> Unit:
    """A prisoner's Guard: every prisoner has one (``rules.counters`` sets ``guard``
    whenever it makes a unit a prisoner, and clears it only with the status)."""
    assert prisoner.guard is not None, f"prisoner {prisoner.handle} has no Guard"
    return state.units[prisoner.guard]


_Key = TypeVar("_Key", bound=Hashable)


def _together(items: Iterable[tuple[_Key, Unit]]) -> list[tuple[_Key, list[Unit]]]:
    """Units sharing the same hint (the key), in order of first appearance: one line
    names them together, so the status line is not cut at 80x24."""
    groups: dict[_Key, list[Unit]] = {}
    for key, u in items:
        groups.setdefault(key, []).append(u)
    return list(groups.items())


def _rph_aph_hints(state: GameState) -> list[str]:
    side, out, in_melee = state.attacker, [], []
    for guard in (g for g in state.guards() if g.side == side):
        prisoners = state.prisoners_of(guard.handle)
        if guard.melee or any(p.melee for p in prisoners):
            in_melee.append(guard)
            continue
        takers = [
            u
            for u in state.units.values()
            if u.location
            and u.location == guard.location
            and u.status == ACTIVE
            and accept_refusal(u, guard) is None
        ]
        to = f" (to {_names(takers)})" if takers else ""
        out.append(
            f"Guard {guard.handle} may transfer{to} or abandon "
            f"{_names(prisoners)} this {state.phase} (A20.5)"
        )
    if len(in_melee) == 1:
        out.insert(
            0,
            f"{in_melee[0].handle}'s prisoners are in Melee with it: "
            "no transfer or abandonment (A20.5)",
        )
    elif in_melee:
        out.insert(
            0,
            f"the prisoners of {_names(in_melee)} are in Melee with their Guards: "
            "no transfer or abandonment (A20.5)",
        )
    return out


def _cc_hints(state: GameState) -> list[str]:
    may = []
    for p in (u for u in state.units.values() if u.status == PRISONER):
        if escape_refusal(state, p) is None:
            may.append(((p.side, p.guard, needs_ntc(state, p)), p))
    out = []
    for (side, guard, ntc), units in _together(may):
        after = " after passing a NTC" if ntc else " (in Melee: no NTC)"
        its = "its" if len(units) == 1 else "their"
        out.append(
            f"{_names(units)} ({side}) may attempt escape vs {its} Guard {guard}{after} (A20.55)"
        )
    return out


_REARM_BECAUSE = {
    "surrender": "it surrendered to a friendly unit there",
    "alone": "no other armed enemy is left there",
    "cc": "lost in CC there",
}


def _rearm_hints(state: GameState) -> list[str]:
    """Free unarmed units that ``rearm_refusal`` would let rearm now: it is immediate,
    in the phase of the enemy's loss (A20.551), so the hint is worth most right then."""
    unarmed = [u for u in state.units.values() if u.status == UNARMED and u.on_board]
    if not unarmed:
        return []
    sources, active_at = rearm_sources(state), armed_by_location(state)
    out = []
    for u in unarmed:
        ways = rearm_ways(state, u, sources, active_at)
        if ways:
            enemy, how = ways[0]
            out.append(
                f"{u.handle} may rearm at once from {enemy.handle} ({_REARM_BECAUSE[how]}; A20.551)"
            )
    return out


def _rtph_hints(state: GameState) -> list[str]:
    never, surrender = [], []
    captors_of: dict[str, list[Unit]] = {}
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
            captors = captors_of[enemy] = [
                c
                for c in state.units.values()
                if c.side == enemy
                and c.is_infantry
                and not c.broken
                and guard_refusal(c, phase_rtph=True) is None
            ]
        if captors:
            surrender.append(((u.side, enemy), u))
    out = []
    for (side, why), units in _together(never):
        verb = "never surrenders" if len(units) == 1 else "never surrender"
        out.append(f"{_names(units)} ({side}) {verb} via the RtPh: {why}")
    for (side, enemy), units in _together(surrender):
        verb = "surrenders" if len(units) == 1 else "surrender"
        out.append(
            f"{_names(units)} ({side}) {verb} if ADJACENT to a Known, Good "
            f"Order, armed enemy ({_names(captors_of[enemy])}) and unable to rout "
            "without Interdiction/Low Crawl (A20.21)"
        )
    return out


def _fire_hints(state: GameState) -> list[str]:
    firer = state.attacker if state.phase in ("PFPh", "AFPh") else state.defender
    berserk, may = [], []
    helpless = [
        v for v in state.units.values() if v.side != firer and v.status in (PRISONER, UNARMED)
    ]
    if not helpless:
        return []
    for u in state.units.values():
        if u.side != firer or u.status != ACTIVE or not u.armed or not u.is_infantry:
            continue
        victims = [
            v for v in helpless if v.guard == u.handle or (u.location and v.location == u.location)
        ]
        if not victims:
            continue
        key = tuple(v.handle for v in victims)
        if u.berserk:
            berserk.append((key, u))
        elif may_massacre(state, u) and not u.melee:
            may.append((key, u))
    out = []
    for handles, units in _together(berserk):
        one = len(units) == 1
        out.append(
            f"{_names(units)} {'is' if one else 'are'} berserk with unarmed enemies "
            f"({', '.join(handles)}): {'it' if one else 'they'} must Massacre them "
            "at the start of this fire phase (A20.4)"
        )
    for handles, units in _together(may):
        out.append(
            f"{_names(units)} may Massacre {', '.join(handles)} as if using a SW "
            "(A20.4: enemy ELR +1 once, and No Quarter)"
        )
    return out


def _mph_hints(state: GameState) -> list[str]:
    side, out = state.attacker, []
    free = [u for u in state.units.values() if u.side == side and u.status == UNARMED]
    if free:
        out.append(
            f"{_names(free)} may scrounge at the end of this MPh if they spent all "
            "their MF (A20.552)"
        )
    enemy_free = [u for u in state.units.values() if u.side != side and u.status == UNARMED]
    if enemy_free:
        out.append(
            f"{side} Infantry entering the Location of {_names(enemy_free)} may "
            "recapture them with an immediate CC attack (A20.54)"
        )
    return out


def phase_hints(state: GameState) -> list[str]:
    """What A20 allows in the current phase, naming the units it concerns."""
    if state.ended:
        return ["the game has ended: prisoners still guarded count double (A20.1)"]
    hints: list[str] = []
    if state.phase in ("RPh", "APh"):
        hints += _rph_aph_hints(state)
    if state.phase == "CCPh":
        hints += _cc_hints(state)
    if state.phase == "RtPh":
        hints += _rtph_hints(state)
    if state.phase in ("PFPh", "DFPh", "AFPh"):
        hints += _fire_hints(state)
    if state.phase == "MPh":
        hints += _mph_hints(state)
    hints += _rearm_hints(state)
    if state.phase in ("MPh", "APh"):
        guards = [g for g in state.guards() if g.side == state.attacker and g.status == ACTIVE]
        if guards:
            hints.append(
                f"{_names(guards)} may escort prisoners off a Friendly Board Edge; "
                "escorted prisoners count double (A20.53)"
            )
    return hints
