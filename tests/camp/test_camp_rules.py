"""Every rule of the source, and the house-rule table, with fixed dice."""

from __future__ import annotations

import pytest

from stockade.core.camp.errors import CampError
from stockade.core.camp.events import (
    ActionChosen,
    ActionRolled,
    AttritionRolled,
    CampOptions,
    CampStarted,
    CaptureRolled,
    EscapeChosen,
    EscapeInjuryRolled,
    EscapeRolled,
    HealthRolled,
    LiberationRolled,
    OutcomeEntered,
)
from stockade.core.camp.fold import apply, initial_state
from stockade.core.camp.state import need
from stockade.core.camp.table import load_table

TABLE = load_table()


def start(*events, rules="house", month_die="d12"):
    header = CampStarted(
        options=CampOptions(seed="t", rules=rules, month_die=month_die), table=TABLE
    )
    state = initial_state(header)
    for event in events:
        state = apply(state, event)
    return state


def captured(year_die=3, month=5, health_die=3, **kw):
    return start(CaptureRolled(dice=(year_die, month)), HealthRolled(dice=(health_die,)), **kw)


def play(state, *events):
    for event in events:
        state = apply(state, event)
    return state


LOITER_QUIET = (ActionChosen(action="loiter"), ActionRolled(dice=(3,)))  # no effect


# ------------------------------------------------------------------ capture and health
@pytest.mark.parametrize(
    "die,year", [(1, 1939), (2, 1940), (3, 1941), (4, 1942), (5, 1943), (6, 1944)]
)
def test_capture_year_is_d6_from_1939(die, year):
    state = start(CaptureRolled(dice=(die, 7)))
    assert (state.capture_year, state.capture_month) == (year, 7)


def test_capture_month_d12_1_is_january_12_is_december():
    assert start(CaptureRolled(dice=(2, 1))).month == 1
    assert start(CaptureRolled(dice=(2, 12))).month == 12


def test_capture_month_may_be_2d6_at_a_pinch():
    state = start(CaptureRolled(dice=(4, 5, 6)), month_die="2d6")
    assert (state.capture_year, state.capture_month) == (1942, 11)
    assert need(start(month_die="2d6")).sides == (6, 6, 6)
    with pytest.raises(CampError):
        start(CaptureRolled(dice=(4, 11)), month_die="2d6")  # a d12 face with 2d6 chosen


@pytest.mark.parametrize("die", [1, 6])
def test_health_is_d6_plus_3(die):
    assert captured(health_die=die).health == die + 3


def test_dice_outside_their_faces_are_refused():
    with pytest.raises(CampError, match="d6 shows 1 to 6, not 7"):
        start(CaptureRolled(dice=(7, 1)))
    with pytest.raises(CampError, match="d12 shows 1 to 12, not 13"):
        start(CaptureRolled(dice=(1, 13)))
    with pytest.raises(CampError, match="needs 2 dice"):
        start(CaptureRolled(dice=(1,)))


# ------------------------------------------------------------------ turns
def test_one_action_per_month_and_the_month_advances():
    state = captured(year_die=2, month=12)  # December 1940
    state = play(state, *LOITER_QUIET)
    assert (state.year, state.month, state.months_in_captivity) == (1941, 1, 1)
    assert state.phase == "action"
    with pytest.raises(CampError, match="not 'action'"):
        play(captured(), ActionChosen(action="loiter"), ActionChosen(action="gather"))


def test_health_1_hospitalises_for_good_malinger_only():
    state = captured(health_die=1)  # Health 4
    for _ in range(3):  # three searches of the hut: Health 4 -> 1
        state = play(state, ActionChosen(action="gather"), ActionRolled(dice=(1,)))
    assert state.health == 1 and state.hospitalised
    assert need(state).choices == ("malinger",)
    with pytest.raises(CampError, match="may only Malinger"):
        play(state, ActionChosen(action="loiter"))
    # Health mends, but the POW stays in hospital for good.
    state = play(state, ActionChosen(action="malinger"), ActionRolled(dice=(6,)))
    assert state.health == 2 and state.hospitalised


def test_health_below_1_is_death():
    state = captured(health_die=1)
    for _ in range(3):
        state = play(state, ActionChosen(action="gather"), ActionRolled(dice=(1,)))
    state = play(state, ActionChosen(action="malinger"), ActionRolled(dice=(1,)))
    assert state.over and state.ending == "dead" and state.health == 0
    with pytest.raises(CampError, match="over"):
        play(state, ActionChosen(action="malinger"))


# ------------------------------------------------------------------ escape
def with_kit(points: int, health_die: int = 3):
    state = captured(health_die=health_die)
    state = play(state, ActionChosen(action="gather"), ActionRolled(dice=(3,)))  # +1 kit
    assert state.phase == "escape_choice"
    for _ in range(points - 1):
        state = play(
            state,
            EscapeChosen(attempt=False),
            ActionChosen(action="gather"),
            ActionRolled(dice=(4,)),
        )
    assert state.kit == points
    return state


def test_no_escape_without_kit():
    state = play(captured(), *LOITER_QUIET)
    assert state.phase == "action"  # the end-of-turn escape was never offered


def test_escape_rolls_a_d6_per_kit_point_and_any_6_escapes():
    state = play(with_kit(3), EscapeChosen(attempt=True))
    assert need(state).sides == (6, 6, 6)
    done = play(state, EscapeRolled(dice=(2, 6, 1)))
    assert done.over and done.ending == "escaped"


def test_failed_escape_loses_all_kit_and_d3_health():
    state = with_kit(2, health_die=3)  # Health 6
    state = play(state, EscapeChosen(attempt=True), EscapeRolled(dice=(5, 5)))
    assert state.kit == 0 and state.phase == "escape_injury"
    state = play(state, EscapeInjuryRolled(dice=(3,)))
    assert state.health == 3 and state.phase == "action" and not state.over
    with pytest.raises(CampError, match="d3 shows 1 to 3, not 4"):
        play(
            with_kit(1),
            EscapeChosen(attempt=True),
            EscapeRolled(dice=(1,)),
            EscapeInjuryRolled(dice=(4,)),
        )


def test_staying_keeps_the_kit():
    state = play(with_kit(1), EscapeChosen(attempt=False))
    assert state.kit == 1 and state.phase == "action"


# ------------------------------------------------------------------ 1945
def in_1945(month: int, health_die: int = 3):
    """Captured December 1944, then played quietly into ``month`` of 1945."""
    state = play(captured(year_die=6, month=12, health_die=health_die), *LOITER_QUIET)
    for _ in range(month - 1):
        state = play(
            state, LiberationRolled(dice=(12,)), *LOITER_QUIET, AttritionRolled(dice=(1, 1))
        )
    return state


def test_no_liberation_roll_before_1945():
    assert captured(year_die=6, month=11).phase == "action"


def test_liberation_d12_at_most_the_month_number_frees():
    state = in_1945(3)
    assert state.phase == "liberation" and (state.year, state.month) == (1945, 3)
    freed = play(state, LiberationRolled(dice=(3,)))
    assert freed.over and freed.ending == "liberated"
    not_yet = play(state, LiberationRolled(dice=(4,)))
    assert not_yet.phase == "action" and not not_yet.over


def test_1945_end_of_turn_2d6_greater_than_health_costs_1():
    state = play(in_1945(1, health_die=3), LiberationRolled(dice=(12,)), *LOITER_QUIET)  # Health 6
    assert state.phase == "attrition"
    assert play(state, AttritionRolled(dice=(3, 4))).health == 5  # 7 > 6
    assert play(state, AttritionRolled(dice=(3, 3))).health == 6  # 6 is not greater


def test_1945_roll_comes_after_a_failed_escape_at_turn_end():
    state = play(
        captured(year_die=6, month=12),
        *LOITER_QUIET,
        LiberationRolled(dice=(12,)),
        ActionChosen(action="gather"),
        ActionRolled(dice=(3,)),
        EscapeChosen(attempt=True),
        EscapeRolled(dice=(1,)),
        EscapeInjuryRolled(dice=(1,)),
    )
    assert state.phase == "attrition"


# ------------------------------------------------------------------ the house-rule table
def test_house_rule_table_effects_and_health_ceiling():
    state = captured(health_die=6)  # Health 9, the ceiling
    state = play(state, ActionChosen(action="malinger"), ActionRolled(dice=(6,)))
    assert state.health == 9
    state = play(state, ActionChosen(action="gather"), ActionRolled(dice=(6,)))
    assert state.kit == 2
    state = play(
        state, EscapeChosen(attempt=False), ActionChosen(action="gather"), ActionRolled(dice=(1,))
    )
    assert state.kit == 0 and state.health == 8  # confiscated, cooler


def test_source_only_play_asks_for_the_outcome():
    state = captured(rules="source", health_die=6)
    state = play(state, ActionChosen(action="gather"))
    assert state.phase == "outcome"
    state = play(state, OutcomeEntered(health=2, kit=3))
    assert (state.health, state.kit) == (11, 3)  # no house-rule ceiling in source play
    with pytest.raises(CampError, match="at most"):
        play(
            captured(rules="source"),
            ActionChosen(action="loiter"),
            OutcomeEntered(health=-40, kit=0),
        )
