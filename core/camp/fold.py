"""The rules: ``apply(state, event) -> state``, a pure fold over the effective history.

No I/O, no clock, no randomness: every die is already in the event. A record that does
not fit the phase, or a die outside its faces, raises :class:`CampError` -- the same
check guards live play and a hand-edited log.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from stockade.core.camp.errors import CampError
from stockade.core.camp.events import (
    ActionChosen,
    ActionRolled,
    AttritionRolled,
    CampStarted,
    CaptureRolled,
    EscapeChosen,
    EscapeInjuryRolled,
    EscapeRolled,
    HealthRolled,
    LiberationRolled,
    OutcomeEntered,
    Record,
    Roll,
)
from stockade.core.camp.state import (
    FIRST_YEAR,
    LIBERATION_YEAR,
    MONTH_NAMES,
    CampState,
    MonthEntry,
    dice_sides,
)
from stockade.core.camp.table import ACTION_IDS, outcome_for

replace = msgspec.structs.replace

# The largest Health or Kit change a source-only player may report in one month: a
# guard against a typo like "-33", not a rule.
MAX_REPORTED_CHANGE = 9


def initial_state(header: CampStarted, narrate: bool = True) -> CampState:
    """``narrate=False`` skips the month-by-month notes: same rules, faster (simulator)."""
    return CampState(options=header.options, table=header.table, narrate=narrate)


def replay(header: CampStarted, events: Iterable[Record]) -> CampState:
    state = initial_state(header)
    for event in events:
        state = apply(state, event)
    return state


def apply(state: CampState, event: Record) -> CampState:
    kind = _TAGS.get(type(event)) or event.__struct_config__.tag
    if state.phase == "over":
        raise CampError(f"the campaign is over; a {kind!r} record cannot follow")
    if kind != state.phase:
        raise CampError(f"expected a {state.phase!r} record here, not {kind!r}")
    if isinstance(event, Roll):
        _check_dice(state, event)
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise CampError(f"a {kind!r} record is not part of play")
    return handler(state, event)


def _check_dice(state: CampState, roll: Roll) -> None:
    sides = dice_sides(state)
    if len(sides) == 1 and len(roll.dice) == 1 and 1 <= roll.dice[0] <= sides[0]:
        return  # the common case, checked without building error text
    if len(roll.dice) != len(sides):
        raise CampError(
            f"{roll.__struct_config__.tag} needs {len(sides)} dice, got {len(roll.dice)}"
        )
    for face, side in zip(roll.dice, sides, strict=True):
        if not 1 <= face <= side:
            raise CampError(f"a d{side} shows 1 to {side}, not {face}")


def _note(state: CampState, text: str, **changes: Any) -> CampState:
    if not state.narrate:
        return replace(state, **changes) if changes else state
    current = state.current
    if current is not None:
        current = replace(current, notes=current.notes + (text,))
    return replace(state, current=current, last_roll=text, **changes)


# ---------------------------------------------------------------------- set-up
def _capture(state: CampState, e: CaptureRolled) -> CampState:
    year = FIRST_YEAR + e.dice[0]
    month = sum(e.dice[1:])
    month_text = "+".join(str(d) for d in e.dice[1:])
    text = f"captured: d6 {e.dice[0]} -> {year}, month {month_text} -> {MONTH_NAMES[month - 1]}"
    state = replace(
        state,
        capture_year=year,
        capture_month=month,
        year=year,
        month=month,
        phase="health",
        last_roll=text,
        current=MonthEntry(year, month, (text,)),
    )
    return state


def _health(state: CampState, e: HealthRolled) -> CampState:
    health = e.dice[0] + 3
    state = _note(state, f"Health: d6 {e.dice[0]} + 3 = {health}", health=health)
    return _begin_turn(state)


def _begin_turn(state: CampState) -> CampState:
    phase = "liberation" if state.year >= LIBERATION_YEAR else "action"
    return replace(state, phase=phase, action="")


def _liberation(state: CampState, e: LiberationRolled) -> CampState:
    die = e.dice[0]
    if die <= state.month:
        text = f"liberation d12 {die} <= {state.month}: the camp is liberated!"
        return _note(state, text, phase="over", ending="liberated")
    return _note(state, f"liberation d12 {die} > {state.month}: not yet", phase="action")


# ---------------------------------------------------------------------- actions
def _action(state: CampState, e: ActionChosen) -> CampState:
    if e.action not in ACTION_IDS:
        raise CampError(f"no action called {e.action!r}")
    if e.action not in state.allowed_actions:
        raise CampError("a hospitalised POW may only Malinger")
    # The roll's note names the action; only source-only play, which has no roll,
    # notes the choice on its own.
    if state.options.rules == "house":
        return replace(state, action=e.action, phase="action_roll")
    return _note(state, state.table.action(e.action).name, action=e.action, phase="outcome")


def _action_roll(state: CampState, e: ActionRolled) -> CampState:
    rule = state.table.action(state.action)
    outcome = outcome_for(rule, e.dice[0])
    kit = (0 if outcome.lose_kit else state.kit) + outcome.kit
    if state.narrate:  # formatting every note costs the simulator a third of its time
        effects = _effects(outcome.health, kit - state.kit)
        state = _note(state, f"{rule.name} d{rule.die} {e.dice[0]}: {outcome.text}{effects}")
    return _after_action(state, outcome.health, kit)


def _outcome(state: CampState, e: OutcomeEntered) -> CampState:
    if abs(e.health) > MAX_REPORTED_CHANGE or abs(e.kit) > MAX_REPORTED_CHANGE:
        raise CampError(f"a month changes Health or Kit by at most {MAX_REPORTED_CHANGE}")
    kit = max(0, state.kit + e.kit)
    state = _note(
        state, f"effect entered by the player{_effects(e.health, kit - state.kit) or ': none'}"
    )
    return _after_action(state, e.health, kit)


def _effects(health: int, kit: int) -> str:
    parts = [f"Health {health:+d}" if health else "", f"Kit {kit:+d}" if kit else ""]
    joined = ", ".join(p for p in parts if p)
    return f" ({joined})" if joined else ""


def _after_action(state: CampState, health_change: int, kit: int) -> CampState:
    state = replace(state, kit=kit)
    if health_change:
        state = _set_health(state, state.health + health_change)
    if state.over:
        return state
    if state.can_escape:
        return replace(state, phase="escape_choice")
    return _end_of_turn_checks(state)


def _set_health(state: CampState, health: int) -> CampState:
    """Health below 1 kills; exactly 1 hospitalises for good (the source)."""
    ceiling = state.max_health
    if ceiling is not None:
        health = min(health, ceiling)
    if health < 1:
        return _note(
            state, "Health below 1: he dies in the camp", health=health, phase="over", ending="dead"
        )
    if health == 1 and not state.hospitalised:
        return _note(
            state,
            "Health 1: hospitalised for good, Malinger only",
            health=health,
            hospitalised=True,
        )
    return replace(state, health=health)


# ---------------------------------------------------------------------- escape
def _escape_choice(state: CampState, e: EscapeChosen) -> CampState:
    if not e.attempt:
        return _end_of_turn_checks(state)
    return _note(state, f"escape attempt with {state.kit} kit", phase="escape_roll")


def _escape_roll(state: CampState, e: EscapeRolled) -> CampState:
    faces = " ".join(str(d) for d in e.dice)
    if 6 in e.dice:
        return _note(state, f"escape d6s {faces}: a six! ESCAPED", phase="over", ending="escaped")
    return _note(state, f"escape d6s {faces}: no six, all kit lost", kit=0, phase="escape_injury")


def _escape_injury(state: CampState, e: EscapeInjuryRolled) -> CampState:
    state = _note(state, f"recaptured: d3 {e.dice[0]}, Health -{e.dice[0]}")
    state = _set_health(state, state.health - e.dice[0])
    return state if state.over else _end_of_turn_checks(state)


# ---------------------------------------------------------------------- 1945 and month end
def _end_of_turn_checks(state: CampState) -> CampState:
    if state.year >= LIBERATION_YEAR:
        return replace(state, phase="attrition")
    return _next_month(state)


def _attrition(state: CampState, e: AttritionRolled) -> CampState:
    total = sum(e.dice)
    if total > state.health:
        state = _note(state, f"1945 hardship 2d6 {total} > Health {state.health}: Health -1")
        state = _set_health(state, state.health - 1)
        if state.over:
            return state
    else:
        state = _note(state, f"1945 hardship 2d6 {total} <= Health {state.health}: no effect")
    return _next_month(state)


def _next_month(state: CampState) -> CampState:
    if not state.narrate:
        year, month = (state.year + 1, 1) if state.month == 12 else (state.year, state.month + 1)
        return _begin_turn(replace(state, year=year, month=month))
    history = state.history + ((state.current,) if state.current is not None else ())
    year, month = (state.year + 1, 1) if state.month == 12 else (state.year, state.month + 1)
    state = replace(state, year=year, month=month, history=history, current=MonthEntry(year, month))
    return _begin_turn(state)


# Each handler takes its own event class, which a dict's value type cannot say: Any.
_HANDLERS: dict[type[Record], Callable[[CampState, Any], CampState]] = {
    CaptureRolled: _capture,
    HealthRolled: _health,
    LiberationRolled: _liberation,
    ActionChosen: _action,
    ActionRolled: _action_roll,
    OutcomeEntered: _outcome,
    EscapeChosen: _escape_choice,
    EscapeRolled: _escape_roll,
    EscapeInjuryRolled: _escape_injury,
    AttritionRolled: _attrition,
}
_TAGS = {cls: cls.__struct_config__.tag for cls in _HANDLERS}
