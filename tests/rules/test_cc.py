"""The CC capture helper against A20.22's EX and the article's Examples 9 and 11."""

from __future__ import annotations

import pytest

from stockade.core.book.game import Game
from stockade.core.model import events as ev
from stockade.core.rules.cc_table import (
    ALL_CAPTURED,
    NONE,
    ONE_HS_CAPTURED,
    Defender,
    capture_result,
    column_for,
    defenders_in,
    kill_number,
)


@pytest.mark.parametrize(
    "attack, defence, column",
    [
        (8, 12, "1-2"),  # A20.22 EX: 1-1.5 rounds down to 1-2
        (3, 2, "3-2"),
        (2, 1, "2-1"),
        (6, 6, "1-1"),
        (5, 4, "1-1"),  # 1.25-1 rounds down
        (7, 2, "3-1"),
        (1, 9, "<1-8"),
        (1, 8, "1-8"),
        (1, 7, "1-8"),
        (10, 1, "10-1"),
        (21, 2, "10-1"),  # 10.5-1 still 10-1
        (11, 1, ">10-1"),
        (0, 4, "<1-8"),
    ],
)
def test_odds_round_down_to_the_column(attack, defence, column):
    assert column_for(attack, defence) == column


def test_kill_numbers_by_column_and_hand_to_hand():
    expected = {
        "<1-8": 0,
        "1-8": 1,
        "1-6": 2,
        "1-4": 3,
        "1-2": 4,
        "1-1": 5,
        "3-2": 6,
        "2-1": 7,
        "3-1": 8,
        "4-1": 9,
        "6-1": 10,
        "8-1": 11,
        "10-1": 12,
        ">10-1": 13,
    }
    for column, kill in expected.items():
        assert kill_number(column) == kill
        assert kill_number(column, hand_to_hand=True) == kill + 2
    assert kill_number("3:2") == 6


def test_unknown_column_and_bad_dr_are_refused():
    with pytest.raises(ValueError):
        kill_number("5-1")
    with pytest.raises(ValueError):
        capture_result("1-1", 13, 0, [Defender("x")])


def test_a20_22_example_8_3_8_vs_two_4_2_6_and_a_4_4_7():
    """8 FP vs 12 at 1-2 (Kill# 4), Original DR 3: the two Inexperienced 4-2-6 are
    captured (3-1 = 2 < 4), the 4-4-7 splits and one HS is captured (3+1 = 4)."""
    defenders = [
        Defender("4-2-6 a", inexperienced=True),
        Defender("4-2-6 b", inexperienced=True),
        Defender("4-4-7"),
    ]
    results = capture_result((8, 12), 3, 0, defenders)
    assert [r.column for r in results] == ["1-2"] * 3
    assert [r.kill_number for r in results] == [4, 4, 4]
    assert [r.final_dr for r in results] == [2, 2, 4]
    assert [r.result for r in results] == [ALL_CAPTURED, ALL_CAPTURED, ONE_HS_CAPTURED]
    assert [r.capture_drm for r in results] == [-1, -1, 1]
    assert "= Kill# 4" in results[2].why and "splits" in results[2].why


@pytest.mark.parametrize(
    "roll, hth, result",
    [
        (7, False, ONE_HS_CAPTURED),  # Final 6 = Kill# 6
        (5, False, ALL_CAPTURED),
        (6, False, ALL_CAPTURED),  # Final 5 < 6
        (8, False, NONE),
        (9, True, ONE_HS_CAPTURED),  # H-t-H Kill# 8, Final 8
        (8, True, ALL_CAPTURED),
        (10, True, NONE),
    ],
)
def test_article_example_9_fanatic_squad_at_3_2(roll, hth, result):
    """3:2, Kill# 6, -1 vs Inexperienced; by Hand-to-Hand Kill# 8."""
    [r] = capture_result(
        "3:2", roll, 0, [Defender("German squad", inexperienced=True)], hand_to_hand=hth
    )
    assert r.kill_number == (8 if hth else 6)
    assert r.capture_drm == -1
    assert r.result == result


def test_article_example_11_japanese_squad_at_2_1_final_7():
    [r] = capture_result((12, 6), 6, 0, [Defender("Japanese squad")])
    assert (r.column, r.kill_number, r.final_dr) == ("2-1", 7, 7)
    assert r.result == ONE_HS_CAPTURED and r.at_kill_number


def test_at_the_kill_number_a_hs_or_smc_is_taken_whole():
    results = capture_result(
        "1-1", 4, 0, [Defender("hs", "hs"), Defender("crew", "crew"), Defender("8-1", "leader")]
    )
    assert all(r.final_dr == 5 and r.result == ALL_CAPTURED for r in results)
    assert all(r.at_kill_number for r in results)


def test_other_drms_are_added_to_the_capture_drm():
    # Example 17's arithmetic: -1 leadership, -2 vs broken.
    [r] = capture_result("1-2", 7, -3, [Defender("broken HS", "hs")])
    assert r.final_dr == 5 and r.result == NONE
    [r] = capture_result("1-2", 5, -3, [Defender("broken HS", "hs")])
    assert r.final_dr == 3 and r.result == ALL_CAPTURED


def test_berserk_and_vehicles_are_never_captured():
    results = capture_result(
        "10-1", 2, 0, [Defender("b", berserk=True), Defender("afv", "vehicle", vehicle=True)]
    )
    assert [r.result for r in results] == [NONE, NONE]
    assert "A20.2" in results[0].why and "A20.22" in results[1].why


def test_defenders_from_the_board_unarmed_units_are_inexperienced():
    game = Game.in_memory("cc", [ev.SideSpec("US", "American"), ev.SideSpec("DE", "German")])
    game.submit(
        [
            ev.UnitEntered(
                handle="a1", side="US", unit_kind="squad", counter="6-6-6", location="Q4"
            ),
            ev.UnitEntered(
                handle="g1", side="DE", unit_kind="squad", counter="4-6-7", location="Q5"
            ),
            ev.UnitEntered(
                handle="g2",
                side="DE",
                unit_kind="squad",
                counter="4-3-6",
                location="Q5",
                traits=["inexperienced"],
            ),
            ev.UnitEntered(
                handle="g3",
                side="DE",
                unit_kind="squad",
                counter="4-6-7",
                location="Q5",
                broken=True,
            ),
        ]
    )
    game.submit([ev.PhaseSet(turn=1, attacker="US", phase="RtPh")])
    game.submit([ev.Surrendered(units=["g3"], guard="a1")])
    # Abandoned: a free unarmed (1)-0-6 again, and Inexperienced (A20.53).
    game.submit([ev.PhaseSet(turn=1, attacker="US", phase="APh")])
    game.submit([ev.Abandoned(units=["g3"])])
    d1, d2, d3 = defenders_in(game.state, ["g1", "g2", "g3"])
    assert (d1.inexperienced, d2.inexperienced, d3.inexperienced) == (False, True, True)
    results = capture_result("1-1", 5, 0, [d1, d2, d3])
    assert [r.capture_drm for r in results] == [1, -1, -1]
    assert [r.result for r in results] == [NONE, ALL_CAPTURED, ALL_CAPTURED]


def test_each_kill_number_says_where_it_comes_from():
    """The seeds hold no A11.11 table: only 1-2 (A20.22 EX) and 3-2 (the article's
    Example 9) are checked against them; every other column says it is the table's."""
    from stockade.core.rules.cc_table import KILL_NUMBERS, kill_number_source

    assert "A20.22 EX" in kill_number_source("1:2")
    assert kill_number_source("3-2").startswith("Kill# 6 at 3-2: the article's Example 9")
    assert "+2 Hand-to-Hand" in kill_number_source("3-2", hand_to_hand=True)
    others = set(KILL_NUMBERS) - {"1-2", "3-2"}
    for column in others:
        assert kill_number_source(column).endswith("the A11.11 CC Table, not among the seeds")
