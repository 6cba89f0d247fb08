"""Who may be picked: the core's answer for each unit a form or completion offers.

Each query returns every candidate unit as a ``Choice``: whether the rules allow it,
the rule that decides, and for an illegal one the reason, worded by the rule check
itself. Nothing here re-implements a rule: each candidate is judged by building the
event it would make and asking ``core.rules.implying.Judge`` (the rule check, as the
command would record it: with the board facts it implies), or by the ``*_refusal``
helper the rule check itself uses.

Choices come legal first, then those in the anchor's Location, then by handle (g2
before g10): the order every picker shows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

import msgspec

from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal, RuleRefusal
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import ACTIVE, ELIMINATED, PRISONER, UNARMED, Unit
from stockade.core.reads.views import armed_by_location, rearm_sources, rearm_ways, unit_label
from stockade.core.rules.cc_capture import capture_attacker_refusal
from stockade.core.rules.guarding import guard_refusal
from stockade.core.rules.implying import FactChoice, Judge, Verdict
from stockade.core.rules.rearming import rearm_refusal
from stockade.core.rules.simultaneous_cc import captured_this_ccph
from stockade.core.rules.surrender import left_out_of_stack
from stockade.core.rules.timing import judged_in

# Refusals that do not make a pick illegal: over the Guard's capacity the same entry
# frees the excess or exchanges HS pairs (A20.21, A20.51); the form's verdict says how.
FIXABLE = frozenset({"A20.51"})


class Choice(msgspec.Struct, frozen=True):
    """One unit a picker may offer, with the core's verdict on picking it."""

    handle: str
    label: str  # unit_label: handle, kind, counter, Location, status
    legal: bool
    rule: str  # the rule that decides ("A20.5"); "" when nothing was asked yet
    reason: str  # why it may not be picked; "" when it may
    same_location: bool = False  # in the Location of the unit the question is about
    note: str = ""  # a legal pick the entry must still fit (capacity: free or exchange)
    # a legal pick only with the board facts the entry would record with it ("a1
    # broken"): a stack (@P4) or a slot filled for the player takes such a unit only
    # when none fits as the book stands
    implies: str = ""

    @property
    def why(self) -> str:
        """The reason with its rule, as a picker shows it on focus."""
        if self.legal:
            return ""
        return f"{self.rule}: {self.reason}" if self.rule else self.reason


def natural(handle: str) -> tuple[object, ...]:
    """g2 before g10."""
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", handle))


def ranked(choices: Iterable[Choice]) -> list[Choice]:
    """Legal first (those that imply no board fact before those that do), then same
    Location, then by handle."""
    return sorted(
        choices,
        key=lambda c: (not c.legal, bool(c.implies), not c.same_location, natural(c.handle)),
    )


def book_picks(choices: Iterable[Choice]) -> list[Choice]:
    """The legal picks an entry takes as the book stands, implying no board fact; those
    that would imply one only when no other is legal. What a stack (``@P4``), a slot
    filled for the player and "tick all" take: ``surrender @P4`` is the stack's broken
    units, not every unit there, broken by implication."""
    legal = [c for c in choices if c.legal]
    return [c for c in legal if not c.implies] or legal


def _judged(judge: Judge, u: Unit, event: ev.Record, where: str, fallback_rule: str) -> Choice:
    """``u`` judged as the command would record ``event``: in the phase the clock would
    move it to (a capture typed in the APh is recorded in the CCPh), with the board
    facts it implies (``core.rules.implying``), so a pick list agrees with the command."""
    same = bool(where) and u.location == where
    verdict = judge([event], follow_clock=True)
    refusal = verdict.refusal
    if refusal is not None:
        text = refusal.text + (f" ({refusal.hint})" if refusal.hint else "")
        if refusal.rule in FIXABLE:
            return Choice(u.handle, unit_label(u), True, refusal.rule, "", same, note=text)
        return Choice(u.handle, unit_label(u), False, refusal.rule, text, same)
    return Choice(
        u.handle,
        unit_label(u),
        True,
        fallback_rule,
        "",
        same,
        note=_implied(verdict),
        implies=verdict.facts_said,
    )


def _implied(verdict: Verdict) -> str:
    """A legal pick's note: the board facts the entry records with it, if any."""
    return verdict.records_too


def _from_reason(u: Unit, reason: Refusal | None, where: str, rule: str) -> Choice:
    """``u`` judged by a ``*_refusal`` helper's Refusal (or None: allowed)."""
    same = bool(where) and u.location == where
    if reason is not None:
        text = reason.text + (f" ({reason.hint})" if reason.hint else "")
        return Choice(u.handle, unit_label(u), False, reason.rule, text, same)
    return Choice(u.handle, unit_label(u), True, rule, "", same)


def _unjudged(units: Iterable[Unit]) -> list[Choice]:
    """Nothing to judge against yet (the form's first field is empty): all offered."""
    return ranked(Choice(u.handle, unit_label(u), True, "", "") for u in units)


def _location_of(state: GameState, handles: list[str]) -> str:
    for h in handles:
        u = state.units.get(h)
        if u is not None and u.location:
            return u.location
    return ""


def _known(state: GameState, handles: Iterable[str]) -> list[str]:
    return [h for h in handles if h in state.units]


def _active(state: GameState, keep: Callable[[Unit], bool] = lambda u: True) -> list[Unit]:
    return [u for u in state.units.values() if u.status == ACTIVE and keep(u)]


# ------------------------------------------------------------------ the queries
def surrender_captors(
    state: GameState,
    stack: list[str],
    reason: ev.SurrenderReason = "rtph",
    among: Iterable[Unit] | None = None,
) -> list[Choice]:
    """Who may take the surrender of ``stack`` (A20.21, A20.3, A20.51); only those
    ``among`` when given."""
    stack = _known(state, stack)
    if not stack:
        return ranked(_from_reason(u, guard_refusal(u), "", "A20.21") for u in _active(state))
    side = state.units[stack[0]].side
    where = _location_of(state, stack)
    candidates = _active(state) if among is None else list(among)
    judge = Judge(state)
    return ranked(
        _judged(
            judge, u, ev.Surrendered(units=stack, guard=u.handle, reason=reason), where, "A20.21"
        )
        for u in candidates
        if u.status == ACTIVE and u.side != side
    )


def rejecting_side(state: GameState, stack: list[str]) -> str:
    """The side that rejects the surrender of ``stack`` (A20.3) when only one may: of the
    sides other than the stack's, the one the rejection's own check accepts; "" when
    none or several do (the player says which)."""
    units = _known(state, stack)
    if not units:
        return ""
    own, judge = state.units[units[0]].side, Judge(state)
    sides = [
        side
        for side in state.sides
        if side != own
        and judge([ev.SurrenderRejected(units=units, by_side=side)], follow_clock=True).accepted
    ]
    return sides[0] if len(sides) == 1 else ""


def surrendering_units(state: GameState, captor: str = "") -> list[Choice]:
    """Infantry that could surrender, judged as the command would record the surrender
    of its stack (A20.21) to ``captor``, or (none named yet) to the first enemy that
    may take it: with the board facts the entry implies (the unit broken), so a unit in
    Good Order in the book is offered unless the game is strict."""
    judge, named = Judge(state), state.units.get(captor)
    active = _active(state)
    out = []
    for u in (u for u in active if u.is_infantry):
        if named is not None and named.side == u.side:
            why = f"{u.handle} is on the side of {captor}, the captor"
            out.append(Choice(u.handle, unit_label(u), False, "A20.21", why))
            continue
        captors = [named] if named is not None else [c for c in active if c.side != u.side]
        out.append(_surrendering(judge, u, captors))
    return ranked(out)


def _surrendering(judge: Judge, u: Unit, captors: list[Unit]) -> Choice:
    """``u`` judged as surrendering with its stack to the first of ``captors`` whose
    surrender check accepts it (the first refusal, if none does)."""
    first: Choice | None = None
    for captor in captors:
        # the stack as it stands in the phase the entry is recorded in (a surrender
        # picked in the RPh is recorded in the RtPh, where its broken mates go with it)
        alone = ev.Surrendered(units=[u.handle], guard=captor.handle)
        there = judged_in(judge.state, [alone])
        stack = [u, *left_out_of_stack(there, [u], captor.side, "rtph")]
        event = ev.Surrendered(units=[s.handle for s in stack], guard=captor.handle)
        choice = _judged(judge, u, event, "", "A20.21")
        if choice.legal:
            return choice
        first = first or choice
    if first is None:
        return Choice(u.handle, unit_label(u), False, "A20.21", "no enemy unit to surrender to")
    return first


def recapture_guards(
    state: GameState, units: list[str], among: Iterable[Unit] | None = None
) -> list[Choice]:
    """Who may recapture ``units`` and guard them (A20.54), judged by the recapture's
    own check, in the phase the entry would be recorded in; only those ``among`` when
    given."""
    return _new_guards(
        state,
        units,
        lambda taken, guard: ev.Recaptured(units=taken, guard=guard),
        "A20.54",
        among,
    )


def transfer_guards(
    state: GameState, prisoners: list[str], among: Iterable[Unit] | None = None
) -> list[Choice]:
    """Who (of ``among``, when given) may guard ``prisoners`` handed over by their
    Guard (A20.5, A20.51)."""
    return _new_guards(
        state,
        prisoners,
        lambda taken, guard: ev.Transferred(units=taken, to_guard=guard),
        "A20.5",
        among,
    )


def _new_guards(
    state: GameState,
    handles: list[str],
    entry: Callable[[list[str], str], ev.Record],
    rule: str,
    among: Iterable[Unit] | None = None,
) -> list[Choice]:
    """Each unit (of ``among``, when given) judged as the new Guard of ``handles`` by
    the check of ``entry`` (the record that would make it so), those in their Location
    first."""
    units = _known(state, handles)
    candidates = _active(state) if among is None else [u for u in among if u.status == ACTIVE]
    if not units:
        return _unjudged(candidates)
    where, judge = _location_of(state, units), Judge(state)
    return ranked(_judged(judge, u, entry(units, u.handle), where, rule) for u in candidates)


def massacre_units(state: GameState, victims: list[str]) -> list[Choice]:
    """Who may Massacre the unarmed ``victims`` (A20.4), each judged by the massacre's
    own check as the command would record it (in the fire phase it belongs to)."""
    units = _known(state, victims)
    if not units:
        return _unjudged(_active(state))
    where, judge = _location_of(state, units), Judge(state)
    return ranked(
        _judged(judge, u, ev.Massacred(units=units, by=u.handle), where, "A20.4")
        for u in _active(state)
    )


def takeover_guards(
    state: GameState, dying: str, cause: ev.EliminationCause = "other"
) -> list[Choice]:
    """Who may take over from the Guard ``dying`` when it is eliminated (A20.5)."""
    guard = state.units.get(dying)
    if guard is None:
        return _unjudged(_active(state))
    where, judge = guard.location, Judge(state)
    return ranked(
        _judged(
            judge,
            u,
            ev.Eliminated(handle=dying, cause=cause, takeover=u.handle),
            where,
            "A20.5",
        )
        for u in _active(state)
    )


def capture_defenders(state: GameState, attacker: str) -> list[Choice]:
    """Who may be captured in CC by ``attacker`` (A20.22, A20.2, A20.51)."""
    captor = state.units.get(attacker)
    if captor is None:
        return _unjudged(u for u in _active(state))
    judge = Judge(state)
    return ranked(
        _judged(judge, u, ev.Captured(guard=attacker, units=[u.handle]), captor.location, "A20.22")
        for u in state.units.values()
        if u.on_board and u.handle != attacker
    )


def capture_attackers(state: GameState) -> list[Choice]:
    """Who may attempt a CC capture at all (A20.22, A20.2, A20.5, A11.16): those with an
    enemy the capture's own check lets them take (``capture_targets``), as the command
    would record it; armed units that may guard, free unarmed units (rearmed by the
    capture, A20.551), and units captured in this CCPh, whose own attack of that
    simultaneous CC is still made (A20.221)."""
    judge = Judge(state)
    on_board = [u for u in state.units.values() if u.on_board]
    at: dict[str, list[Unit]] = {}
    for u in on_board:
        at.setdefault(u.location, []).append(u)
    return ranked(
        _capture_attacker(judge, u, at)
        for u in on_board
        if u.status in (ACTIVE, UNARMED) or captured_this_ccph(state, u)
    )


def _capture_attacker(judge: Judge, u: Unit, at: dict[str, list[Unit]]) -> Choice:
    """``u`` as an attacker: legal with an enemy in its Location it may capture, else
    with an armed enemy in another Location that the entry would have it advance into
    (an implied board fact; the first such enemy is asked, so that a long game's list
    costs one copy of the units per attacker at most)."""
    state = judge.state
    here = at.get(u.location, []) if u.location else list(state.units.values())
    targets, first = capture_targets(judge, u, here)
    if not targets and u.location:  # one armed enemy elsewhere is asked, no more
        elsewhere = next(
            (
                e
                for where, units in at.items()
                if where and where != u.location
                for e in units
                if e.side != u.side and e.status == ACTIVE
            ),
            None,
        )
        targets, _ = capture_targets(judge, u, [elsewhere] if elsewhere else [], 1)
    if targets:
        implies = min((t.implies for t in targets), key=bool)  # as the book stands, if any
        return Choice(u.handle, unit_label(u), True, "A20.22", "", implies=implies)
    where = f" in {u.location}" if u.location else ""
    reason = capture_attacker_refusal(u, state)
    if reason is None and first is None:
        reason = RuleRefusal("A20.22", f"no enemy unit{where} to attack in CC")
    elif reason is None and first is not None:
        reason = RuleRefusal(first.rule, f"no enemy{where} it may capture: {first.text}")
    return _from_reason(u, reason, "", "A20.22")


class Target(msgspec.Struct, frozen=True):
    """An enemy a unit may capture in CC, and the board facts the entry implies ("")."""

    unit: Unit
    implies: str


def capture_targets(
    judge: Judge, u: Unit, enemies: Iterable[Unit], enough: int = 0, follow_clock: bool = True
) -> tuple[list[Target], Refusal | None]:
    """The units of ``enemies`` (those not of ``u``'s side) that ``u`` may capture in CC
    as the command would record it (``Judge``: in the phase the clock would move it
    to, with the board facts it implies), and the first refusal of the others.

    A refusal for want of input (a rearm counter to give) or over capacity (the entry
    frees the excess) leaves the capture open. ``enough``: stop after that many (0:
    ask every one)."""
    targets: list[Target] = []
    first: Refusal | None = None
    for enemy in enemies:
        if enemy.side == u.side:
            continue
        verdict = judge([ev.Captured(guard=u.handle, units=[enemy.handle])], follow_clock)
        refusal = verdict.refusal
        if refusal is None or not isinstance(refusal, RuleRefusal) or refusal.rule in FIXABLE:
            targets.append(Target(enemy, verdict.facts_said))
            if len(targets) == enough:
                break
        else:
            first = first or refusal
    return targets, first


def rearm_enemies(state: GameState, handle: str, how: str = "cc") -> list[Choice]:
    """Which armed enemy (eliminated, captured or surrendered) may rearm ``handle``
    (A20.551); the enemy just killed in CC is among them."""
    u = state.units.get(handle)
    enemies = [
        e
        for e in state.units.values()
        if e.status in (ACTIVE, ELIMINATED, PRISONER) and (u is None or e.side != u.side)
    ]
    if u is None:
        return _unjudged(enemies)
    return ranked(
        _from_reason(e, rearm_refusal(state, u, how, e), u.location, "A20.551") for e in enemies
    )


def rearmable_units(state: GameState) -> list[Choice]:
    """Free unarmed units (SMC are always armed), legal when an armed enemy may rearm
    it now (A20.551): a prisoner that did not attack its Guard is not rearmed by the
    Guard's elimination in CC."""
    sources, active_at = rearm_sources(state), armed_by_location(state)
    return ranked(
        _rearmable(state, u, sources, active_at)
        for u in state.units.values()
        if u.status == UNARMED and not u.is_smc
    )


def _rearmable(
    state: GameState,
    u: Unit,
    sources: dict[str, list[tuple[int, Unit]]],
    active_at: dict[str, list[Unit]],
) -> Choice:
    # without a Location the core cannot tell which enemy was there: it may be picked
    if not u.location or rearm_ways(state, u, sources, active_at):
        return Choice(u.handle, unit_label(u), True, "A20.551", "")
    # the reason of the first enemy there (a Guard it did not attack says so), else why
    enemies = [e for _, e in sources.get(u.location, []) if e.side != u.side]
    refusal = rearm_refusal(state, u, "cc", enemies[0], active_at) if enemies else None
    return _from_reason(u, refusal, "", "A20.551") if refusal else _no_rearm(u)


def _no_rearm(u: Unit) -> Choice:
    why = (
        f"no armed enemy was eliminated/captured or surrendered in {u.location} this "
        "phase (scrounge instead, A20.552)"
    )
    return Choice(u.handle, unit_label(u), False, "A20.551", why)


def escapers(state: GameState, own_borders: bool = False) -> list[Choice]:
    """Which prisoners may attempt escape (A20.55), as the command would record the
    attempt: in the phase the clock would move it to (typed in the PFPh, it moves the
    clock to the CCPh), with the board facts it implies (its Guard broken)."""
    judge = Judge(state)
    out = []
    for p in (p for p in state.units.values() if p.status == PRISONER):
        attempt = ev.EscapeAttempted(units=[p.handle], outcome="melee", own_borders=own_borders)
        verdict = judge([attempt], follow_clock=True)
        if verdict.refusal is None:
            note, implies = _implied(verdict), verdict.facts_said
            out.append(
                Choice(p.handle, unit_label(p), True, "A20.55", "", note=note, implies=implies)
            )
        else:
            out.append(_escape_refused(state, p, verdict.refusal))
    return ranked(out)


def _escape_refused(state: GameState, p: Unit, refusal: Refusal) -> Choice:
    """Why ``p`` may not attempt escape, short enough for a picker's line: the phase
    first when it is not the CCPh (A20.55: the attack can only occur in the CCPh), and
    a choice of board facts said as the facts to record, not the whole refusal."""
    text = refusal.text + (f" ({refusal.hint})" if refusal.hint else "")
    if isinstance(refusal, FactChoice):
        facts = " or ".join(w.said for w in refusal.wanted)
        text = f"needs {facts}: record which the board shows, then the escape"
    if state.phase != "CCPh":
        text = f"escape is in the CCPh only (now the {state.phase}); there: {text}"
    return Choice(p.handle, unit_label(p), False, refusal.rule, text)


def prisoners_of_guard(state: GameState, guard: str) -> list[Choice]:
    """The prisoners the new Guard may keep: those of ``guard``."""
    return ranked(
        Choice(p.handle, unit_label(p), True, "A20.5", "") for p in state.prisoners_of(guard)
    )
