"""What the side panels show: plain records the TUI and the CLI render.

Every rule judgement here comes from ``core.rules`` (capacity, needs_ntc,
rearm_refusal; an escape is judged as the command would record it, with the board
facts it implies: ``core.rules.implying``); this module only gathers and words them.
What A20 allows in the current phase is ``core.reads.may``. State is always said in
words, never left to colour.
"""

from __future__ import annotations

import msgspec

from stockade.core.book.tally import SideTally, tally
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal
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
from stockade.core.model.units import (
    KIND_NAMES,
    UNARMED_COUNTER,
    nationality_flags,
    unarmed_counter_text,
)
from stockade.core.rules.berserk import berserk_with_prisoners, bound_to_massacre, next_fire_phase
from stockade.core.rules.escape import needs_ntc
from stockade.core.rules.guarding import capacity
from stockade.core.rules.implying import Judge, records_too
from stockade.core.rules.lookup import clock
from stockade.core.rules.rearming import rearm_refusal, rearm_source_now
from stockade.core.rules.scrounging import scrounge_refusal
from stockade.core.rules.withdrawal import withdrawal_refusal


# ------------------------------------------------------------------ one-liners
def origin_text(u: Unit) -> str:
    """What an unarmed counter stands for: ``2-2-8 crew + 2-4-7 HS``."""
    return " + ".join(f"{o.counter} {KIND_NAMES[o.unit_kind]}" for o in u.origins)


def counter_text(u: Unit) -> str:
    """The counter as it is now, with what an unarmed one stands for (A20.5)."""
    if u.counter == UNARMED_COUNTER and u.origins:
        return unarmed_counter_text(u.origins)
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


def counter_set_aside(state: GameState) -> bool:
    """Whether a leader or hero has been captured in this game: a captured SMC keeps
    its counter, set aside with its captor noted (A20.5), and the tally's lines and the
    panels say "counter set aside" for it. (A capture undone by Simultaneous CC clears
    ``captured_seq``, so only a capture that stood counts.)"""
    return any(u.is_smc and u.captured_seq for u in state.units.values())


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
class PrisonerView(msgspec.Struct):
    unit: Unit
    label: str
    counter: str  # "(1)-0-6 [was 2-2-8 crew]"
    us: int


class GuardView(msgspec.Struct):
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


class HeldView(msgspec.Struct):
    prisoner: PrisonerView
    guard: str  # the enemy Guard's label


class UnarmedView(msgspec.Struct):
    unit: Unit
    label: str
    how: str  # abandoned / escaped / freed
    protection: str  # A20.53 note for abandoned units, else ""


class EscapeView(msgspec.Struct):
    unit: Unit
    label: str
    allowed: bool
    needs_ntc: bool
    why: str  # the refusal when not allowed; what it takes when allowed


class WhyNot(msgspec.Struct, frozen=True):
    """Why an enemy lost in the unit's Location rearms it not: the rule check's own
    refusal (``rearm_refusal``), which the ``rearm`` verb says whole. A narrow panel
    shows its rule and where to read it; a wide one, all of it."""

    enemy: str  # "b1 (2-4-8)"
    rule: str
    text: str

    def __str__(self) -> str:
        return f"not from {self.enemy}: {self.text} ({self.rule})"


class RearmView(msgspec.Struct):
    unit: Unit
    label: str
    now: list[str]  # ways it may rearm right now
    later: list[str]  # ways open to it in another phase or on another event
    # when no way is open now: why each enemy lost where it is rearms it not (A20.551)
    why_not: list[WhyNot] = msgspec.field(default_factory=list)


class SidePanel(msgspec.Struct):
    name: str
    nationality: str
    elr: int
    no_quarter: bool
    massacred: bool
    elr_raised: bool
    guards: list[GuardView] = msgspec.field(default_factory=list)
    prisoners_held_by_enemy: list[HeldView] = msgspec.field(default_factory=list)
    unarmed: list[UnarmedView] = msgspec.field(default_factory=list)
    escape: list[EscapeView] = msgspec.field(default_factory=list)
    rearm: list[RearmView] = msgspec.field(default_factory=list)
    eliminated: list[str] = msgspec.field(default_factory=list)
    escorted: list[str] = msgspec.field(default_factory=list)
    exited: list[str] = msgspec.field(default_factory=list)  # off a board edge for Exit VP
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
    if guard.berserk and any(
        guard.handle in (u.handle for u in units)
        for units, _ in bound_to_massacre(state, berserk_with_prisoners(state), guard.side, set())
    ):
        attacker, phase = next_fire_phase(state, guard.side)
        limits.append(f"must Massacre them at the start of the {attacker} {phase} (A20.4)")
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


def escape_attempt(p: Unit) -> ev.EscapeAttempted:
    """The entry that says ``p`` attacked its Guard and the Guard survived (a Melee):
    the attempt asked of the escape rule, whatever its outcome will be (A20.55)."""
    return ev.EscapeAttempted(units=[p.handle], outcome="melee")


def _escape_view(state: GameState, p: Unit, judge: Judge) -> EscapeView:
    verdict = judge([escape_attempt(p)])
    refusal = verdict.refusal
    if refusal is None:
        ntc = needs_ntc(state, p)
        if ntc and verdict.implied:
            # the Guard is in Good Order in the book: the tick is for the entry, which
            # records the break A20.55 needs, so the break is said first (a cut line
            # still shows it) and the Guard is never called broken before it is
            guard = _guard_of(state, p).handle
            because = "; ".join(dict.fromkeys(f.implied for f in verdict.implied))
            return EscapeView(
                p,
                unit_label(p),
                True,
                ntc,
                f"escape, and {verdict.records_too} ({because}); then it must pass a NTC "
                f"and attack {guard} in CC",
            )
        if ntc:
            what = "must pass a NTC first, then attack its broken Guard in CC (A20.55)"
        elif withdrawal_refusal(state, _guard_of(state, p), [p]) is None:
            what = "in Melee: attacks without a NTC, or tries Withdrawal (A20.55, A11.2)"
        else:
            what = (
                "in Melee: attacks without a NTC; Withdrawal only in a later CCPh than the "
                "one its Melee began in (A20.55)"
            )
        if verdict.implied:
            what += f"; {records_too(verdict.facts_said, 'the escape')}"
        return EscapeView(p, unit_label(p), True, ntc, what)
    why = str(refusal)
    flags = nationality_flags(state.sides[p.side].nationality)
    if flags.get("axis_minor") and "unless abandoned" in why:
        why += " [EXC: within own national borders vs Russians, A20.55]"
    return EscapeView(p, unit_label(p), False, False, why)


def rearm_sources(state: GameState, now_only: bool = False) -> dict[str, list[tuple[int, Unit]]]:
    """The units an unarmed unit might rearm from (eliminated or captured, with a known
    Location), by the Location ``rearm_refusal`` compares with the unarmed unit's (""
    when it has none), each with its position in ``state.units`` (the order kept);
    with ``now_only``, only those that may still rearm someone now (lost in this phase,
    not spent: ``rearm_source_now``).

    ``rearm_refusal`` refuses an enemy whose Location differs from the unarmed unit's
    before any other test that depends on how it rearms, and refuses every way to an
    enemy lost in an earlier phase or already spent, so looking only at this phase's
    losses in the same Location (and those with none) gives the same verdicts as
    trying every unit of the game: gathered once, not per unarmed unit, and with
    ``now_only`` the panels' work grows with this phase's losses, not the campaign's.
    """
    now = clock(state)
    out: dict[str, list[tuple[int, Unit]]] = {}
    for i, enemy in enumerate(state.units.values()):
        if enemy.status not in (ELIMINATED, PRISONER):
            continue
        if now_only and not rearm_source_now(enemy, now):
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
) -> list[tuple[Unit, ev.RearmHow]]:
    """Each enemy that may rearm ``u`` now, with the most certain way ("surrender",
    "alone" or "cc"), as ``rearm_refusal`` judges it (A20.551)."""
    if active_at is None:
        active_at = armed_by_location(state)
    ways = []
    for enemy in _rearm_candidates(state, u, sources):
        # Most certain first: a recorded surrender, then no enemy left, then CC
        hows: tuple[ev.RearmHow, ...] = ("surrender", "alone", "cc")
        for how in hows:
            if rearm_refusal(state, u, how, enemy, active_at) is None:
                ways.append((enemy, how))
                break
    return ways


def rearm_refusals(
    state: GameState,
    u: Unit,
    sources: dict[str, list[tuple[int, Unit]]] | None = None,
    active_at: dict[str, list[Unit]] | None = None,
) -> list[tuple[Unit, Refusal]]:
    """Each enemy lost in ``u``'s Location this phase that may not rearm it, with
    ``rearm_refusal``'s reason for the way it was lost (in CC, by surrender to ``u``'s
    side, else by other means): what ``rearm`` would answer (A20.551)."""
    if active_at is None:
        active_at = armed_by_location(state)
    out = []
    for enemy in _rearm_candidates(state, u, sources):
        how = (
            "cc" if enemy.lost_in_cc else "surrender" if enemy.surrendered_to == u.side else "alone"
        )
        refusal = rearm_refusal(state, u, how, enemy, active_at)
        if refusal is not None:
            out.append((enemy, refusal))
    return out


def _rearm_candidates(
    state: GameState, u: Unit, sources: dict[str, list[tuple[int, Unit]]] | None
) -> list[Unit]:
    """The enemies lost where ``u`` is (or nowhere known) that may still rearm someone
    this phase, in the order of the game's units (A20.551)."""
    if not u.location:  # A20.551 rearms only from an enemy known to be in its Location
        return []
    if sources is None:
        sources = rearm_sources(state)
    here, nowhere = sources.get(u.location, []), sources.get("", [])
    candidates = (
        sorted(here + nowhere, key=lambda pair: pair[0]) if here and nowhere else here or nowhere
    )
    now = clock(state)
    return [e for _, e in candidates if e.side != u.side and rearm_source_now(e, now)]


def _rearm_view(
    state: GameState,
    u: Unit,
    sources: dict[str, list[tuple[int, Unit]]] | None = None,
    active_at: dict[str, list[Unit]] | None = None,
) -> RearmView:
    now, later = [], []
    ways = rearm_ways(state, u, sources, active_at)
    for enemy, how in ways:
        # the log names a CC's attackers only for an escape; else CC stays an "if"
        words = {
            "surrender": "it surrendered to a friendly unit there",
            "alone": "it was eliminated/captured with no other enemy there",
            "cc": f"{u.handle} eliminated it in CC"
            if enemy.cc_attackers
            else f"if {u.handle} eliminated/captured it in CC",
        }[how]
        now.append(f"rearm from {enemy.handle} ({counter_text(enemy)}): {words} (A20.551)")
    # the scrounge entry's own check says whether it may roll now, and if not, why
    cannot = scrounge_refusal(state, u)
    if cannot is None:
        now.append(
            "scrounge at the end of this MPh if it spent all its MF: DR 2 "
            "(vs a wreck dr 1-3, up to HS size); one DR per hex (A20.552)"
        )
    elif state.phase == "MPh" and state.attacker == u.side:
        later.append(f"scrounge: {cannot.text} ({cannot.rule})")
    else:
        later.append("scrounge at the end of its own MPh, not in water/marsh (A20.552)")
    later.append(
        "rearm by eliminating/capturing an armed enemy in CC, or when an armed "
        "enemy in its Location surrenders to a friendly unit (A20.551)"
    )
    why_not = (
        []
        if ways
        else [
            WhyNot(f"{enemy.handle} ({counter_text(enemy)})", refusal.rule, refusal.text)
            for enemy, refusal in rearm_refusals(state, u, sources, active_at)
        ]
    )
    return RearmView(u, unit_label(u), now, later, why_not)


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
        rearm_sources(state, now_only=True)
        if any(u.status == UNARMED for units in by_side.values() for u in units)
        else {}
    )
    active_at = armed_by_location(state) if sources else {}
    judge = Judge(state)
    return {
        side: _side_panel(state, side, by_side[side], counted, sources, active_at, judge)
        for side in wanted
    }


def _side_panel(
    state: GameState,
    side: str,
    mine: list[Unit],
    sides: dict[str, SideTally],
    sources: dict[str, list[tuple[int, Unit]]],
    active_at: dict[str, list[Unit]],
    judge: Judge,
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
        escape=[_escape_view(state, p, judge) for p in held],
        rearm=[_rearm_view(state, u, sources, active_at) for u in free],
        eliminated=[unit_label(u) for u in mine if u.status == ELIMINATED],
        escorted=[unit_label(u) for u in mine if u.status == ESCORTED],
        exited=[unit_label(u) for u in mine if u.status == EXITED],
        cvp=sides[side].cvp,
        cvp_if_ended=sides[side].cvp_if_ended,
        ended=state.ended,
    )


# ------------------------------------------------------------------ helpers
def _guard_of(state: GameState, prisoner: Unit) -> Unit:
    """A prisoner's Guard: every prisoner has one (``rules.counters`` sets ``guard``
    whenever it makes a unit a prisoner, and clears it only with the status)."""
    assert prisoner.guard is not None, f"prisoner {prisoner.handle} has no Guard"
    return state.units[prisoner.guard]
