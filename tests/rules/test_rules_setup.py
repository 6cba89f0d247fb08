"""Set-up, the turn clock and status changes; the game's end (A20.1, A20.53, A20.54)."""

from __future__ import annotations

import pytest

from stockade.core.book.game import Game
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal
from tests.rules.kit import (
    DE,
    US,
    add,
    cvp,
    new_game,
    ok,
    phase,
    refused,
    with_prisoners,
)


def test_game_has_two_sides_with_known_nationalities_and_elr():
    with pytest.raises(Refusal):
        Game.in_memory("x", [ev.SideSpec("A", "American")])
    with pytest.raises(Refusal):
        Game.in_memory("x", [ev.SideSpec("A", "American"), ev.SideSpec("B", "Martian")])
    with pytest.raises(Refusal):
        Game.in_memory("x", [ev.SideSpec("A", "American", 7), ev.SideSpec("B", "German")])
    game = new_game()
    assert game.state.attacker == US and game.state.phase == "RPh"


def test_phase_and_turn_are_events():
    game = new_game()
    phase(game, "CCPh", attacker=DE, turn=3)
    assert (game.state.turn, game.state.attacker, game.state.phase) == (3, DE, "CCPh")


def test_unknown_unit_and_duplicate_handle_are_refused():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    refused(game, ev.UnitEntered(handle="a1", side=US, unit_kind="squad", counter="6-6-7"), "input")
    refused(game, ev.StatusChanged(handle="zz", broken=True), "input")


def test_prisoner_is_never_broken_nor_pinned_directly_and_moves_with_its_guard():
    game = with_prisoners()
    refused(game, ev.StatusChanged(handle="g1", broken=True), "A20.54")
    refused(game, ev.StatusChanged(handle="g1", pinned=True), "A20.54")
    refused(game, ev.StatusChanged(handle="g1", location="R5"), "A20.53")
    ok(game, ev.StatusChanged(handle="a1", pinned=True))


def test_unarmed_unit_may_pin_but_not_break_nor_go_berserk():
    game = with_prisoners()
    phase(game, "APh")
    ok(game, ev.Abandoned(units=["g1"]))
    ok(game, ev.StatusChanged(handle="g1", pinned=True))
    refused(game, ev.StatusChanged(handle="g1", broken=True), "A20.54")
    refused(game, ev.StatusChanged(handle="g1", berserk=True), "A20.2")


def test_game_end_counts_guarded_prisoners_double_and_ends_the_game():
    game = with_prisoners(n=2)
    phase(game, "APh")
    ok(game, ev.Abandoned(units=["g2"]))
    ok(game, ev.GameEnded())
    assert cvp(game.state, US) == 4  # g1 doubled; the abandoned g2 counts nothing
    assert all(c.rule == "A20.1" for c in game.state.casualties)
    with pytest.raises(Refusal):
        game.submit([ev.PhaseSet(turn=2, attacker=US, phase="RPh")])
    with pytest.raises(Refusal):
        game.submit([ev.GameEnded()])


def test_refusal_messages_name_the_rule_first_in_one_sentence():
    game = with_prisoners()
    phase(game, "MPh")
    refusal = refused(game, ev.Abandoned(units=["g1"]), "A20.5")
    assert str(refusal).startswith("A20.5: ")
    assert refusal.text.count(". ") == 0
