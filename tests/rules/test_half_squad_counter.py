"""A HS split off a squad (one-HS capture, A20.22; Casualty Reduction, A7.302) is the
real HS counter of that squad, from the nationality table (core/data), and keeps where
it came from; a squad the table does not list names its HS by itself."""

from __future__ import annotations

from stockade.core.book.describe import sentence_for
from stockade.core.model import events as ev
from tests.rules.kit import DE, US, add, new_game, ok, phase, u


def _one_hs_captured(counter: str, given: str = ""):
    game = new_game()
    add(game, "g1", DE, "squad", counter)
    add(game, "a1", US, "squad", "6-6-7")
    phase(game, "CCPh")
    capture = ev.Captured(guard="a1", split="g1", hs_captured="g8", hs_free="g9", hs_counter=given)
    ok(game, capture)
    return game


def test_a_german_4_4_7_splits_into_2_4_7_half_squads_that_came_from_it():
    game = _one_hs_captured("4-4-7")
    taken, free = u(game, "g8"), u(game, "g9")
    assert free.counter == "2-4-7" and free.unit_kind == "hs"
    assert [o.counter for o in taken.origins] == ["2-4-7"]
    assert taken.split_from == free.split_from == "g1"
    said = sentence_for(game.records[-1], game)
    assert "one HS (g8) of Germans 4-4-7 (g1)" in said


def test_a_squad_the_table_does_not_list_names_its_hs_by_itself_and_a_given_counter_wins():
    assert u(_one_hs_captured("4-6-8"), "g9").counter == "HS of 4-6-8"
    assert u(_one_hs_captured("4-6-8", given="2-4-8"), "g9").counter == "2-4-8"


def test_casualty_reduction_of_an_american_6_6_7_makes_a_3_3_7():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    phase(game, "PFPh", attacker=DE)
    ok(game, ev.CasualtyReduced(handle="a1"))
    assert u(game, "a1").counter == "3-3-7"
