"""Who may be picked: the core's answer for each unit a form or completion offers.

Each query returns every candidate unit as a ``Choice``: whether the rules allow it,
the rule that decides, and for an illegal one the reason, worded by the rule check
itself. Nothing here re-implements a rule: each candidate is judged by building the
event it would make and calling ``core.rules.check`` (catching its ``Refusal``), or by
the ``*_refusal`` helper the rule check itself uses.

Choices come legal first, then those in the anchor's Location, then by handle (g2
before g10): the order every picker shows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal, RuleRefusal
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import ACTIVE, ELIMINATED, PRISONER, UNARMED, Unit
from stockade.core.reads.views import armed_by_location, rearm_sources, rearm_ways, unit_label
from stockade.core.rules import check
from stockade.core.rules.cc_capture import capture_attacker_refusal
from stockade.core.rules.escape import escape_refusal, rearm_refusal
from stockade.core.rules.guarding import guard_refusal
from stockade.core.rules.simultaneous_cc import captured_this_ccph
from stockade.core.rules.timing import judged_in

# Refusals that do not make a pick illegal: over the Guard's capacity the same entry
# frees the excess or exchanges HS pairs (A20.21, A20.51); the form's verdict says how.
FIXABLE = frozenset({"A20.51"})


@dataclass(frozen=True)
class Choice:
    """One unit a picker may offer, with the core's verdict on picking it."""

    handle: str
    label: str  # unit_label: handle, kind, counter, Location, status
    legal: bool
    rule: str  # the rule that decides ("A20.5"); "" when nothing was asked yet
    reason: str  # why it may not be picked; "" when it may
    same_location: bool = False  # in the Location of the unit the question is about
    note: str = ""  # a legal pick the entry must still fit (capacity: free or exchange)

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
    """Legal first, then same Location, then by handle."""
    return sorted(choices, key=lambda c: (not c.legal, not c.same_location, natural(c.handle)))


def _judged(state: GameState, u: Unit, event: ev.Record, where: str, fallback_rule: str) -> Choice:
    """``u`` judged by the rulebook's own check of ``event``, in the phase the entry would
    be recorded in (``judged_in``: a capture typed in the APh moves the clock to the
    CCPh first), so a pick list agrees with the command."""
    same = bool(where) and u.location == where
    try:
        check(judged_in(state, [event]), event)
    except Refusal as refusal:
        text = refusal.text + (f" ({refusal.hint})" if refusal.hint else "")
        if refusal.rule in FIXABLE:
            return Choice(u.handle, unit_label(u), True, refusal.rule, "", same, note=text)
        return Choice(u.handle, unit_label(u), False, refusal.rule, text, same)
    return Choice(u.handle, unit_label(u), True, fallback_rule, "", same)


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
    return ranked(
        _judged(
            state, u, ev.Surrendered(units=stack, guard=u.handle, reason=reason), where, "A20.21"
        )
        for u in candidates
        if u.status == ACTIVE and u.side != side
    )


def surrendering_units(state: GameState, captor: str = "") -> list[Choice]:
    """Units that could surrender: broken or Disrupted units on the board first; with
    ``captor`` known, only the enemy's."""
    side = state.units[captor].side if captor in state.units else ""
    out = []
    for u in _active(state, lambda u: u.is_infantry):
        ok = u.broken or u.disrupted
        why = "" if ok else f"{u.handle} is not broken; only broken units surrender"
        if ok and u.side == side:
            ok, why = False, f"{u.handle} is on the side of {captor}, the captor"
        out.append(Choice(u.handle, unit_label(u), ok, "A20.21", why))
    return ranked(out)


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


def transfer_guards(state: GameState, prisoners: list[str]) -> list[Choice]:
    """Who may guard ``prisoners`` handed over by their Guard (A20.5, A20.51)."""
    return _new_guards(
        state,
        prisoners,
        lambda taken, guard: ev.Transferred(units=taken, to_guard=guard),
        "A20.5",
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
    where = _location_of(state, units)
    return ranked(_judged(state, u, entry(units, u.handle), where, rule) for u in candidates)


def takeover_guards(
    state: GameState, dying: str, cause: ev.EliminationCause = "other"
) -> list[Choice]:
    """Who may take over from the Guard ``dying`` when it is eliminated (A20.5)."""
    guard = state.units.get(dying)
    if guard is None:
        return _unjudged(_active(state))
    where = guard.location
    return ranked(
        _judged(
            state,
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
    return ranked(
        _judged(state, u, ev.Captured(guard=attacker, units=[u.handle]), captor.location, "A20.22")
        for u in state.units.values()
        if u.on_board and u.handle != attacker
    )


def capture_attackers(state: GameState) -> list[Choice]:
    """Who may attempt a CC capture at all (A20.22, A20.2, A20.5, A11.16): armed units
    that may guard and are not broken, free unarmed units, rearmed by the capture
    (A20.551), and units captured in this CCPh, whose own attack of that simultaneous
    CC is still made (A20.221)."""
    on_board = [u for u in state.units.values() if u.on_board]
    at: dict[str, list[Unit]] = {}
    for u in on_board:
        at.setdefault(u.location, []).append(u)
    return ranked(
        _from_reason(
            u,
            capture_attacker_refusal(u, state)
            or _nothing_to_capture(state, u, at.get(u.location, [])),
            "",
            "A20.22",
        )
        for u in on_board
        if u.status in (ACTIVE, UNARMED) or captured_this_ccph(state, u)
    )


def _nothing_to_capture(state: GameState, u: Unit, here: list[Unit]) -> Refusal | None:
    """Why ``u`` has no enemy in its Location to capture, judged by the capture check
    itself (in the phase the entry would be recorded in), or None when one may be. The
    check refuses an enemy in another Location, so only those here are asked (all of
    them when ``u`` has no Location). A refusal for want of input (a rearm counter to
    give) or over capacity (fixed by the entry) leaves the pick open."""
    enemies = [e for e in (here if u.location else state.units.values()) if e.side != u.side]
    first: Refusal | None = None
    for enemy in enemies:
        event = ev.Captured(guard=u.handle, units=[enemy.handle])
        try:
            check(judged_in(state, [event]), event)
        except Refusal as refusal:
            if not isinstance(refusal, RuleRefusal) or refusal.rule in FIXABLE:
                return None
            first = first or refusal
        else:
            return None
    where = f" in {u.location}" if u.location else ""
    if first is None:
        return RuleRefusal("A20.22", f"no enemy unit{where} to attack in CC")
    return RuleRefusal(first.rule, f"no enemy{where} it may capture: {first.text}")


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
    """Which prisoners may attempt escape (A20.55), in the phase the attempt would be
    recorded in (typed in the PFPh, it moves the clock to the CCPh: ``judged_in``)."""
    prisoners = [p for p in state.units.values() if p.status == PRISONER]
    if not prisoners:
        return []
    attempt = ev.EscapeAttempted(units=[prisoners[0].handle], own_borders=own_borders)
    then = judged_in(state, [attempt])
    return ranked(
        _from_reason(p, escape_refusal(then, p, own_borders), "", "A20.55") for p in prisoners
    )


def prisoners_of_guard(state: GameState, guard: str) -> list[Choice]:
    """The prisoners the new Guard may keep: those of ``guard``."""
    return ranked(
        Choice(p.handle, unit_label(p), True, "A20.5", "") for p in state.prisoners_of(guard)
    )
