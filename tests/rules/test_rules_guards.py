"""Handling prisoners: transfer, abandonment, exchange/split, deploy, escort off
(A20.5, A20.51, A20.53)."""

from __future__ import annotations

import pytest

from stockade.core.model import events as ev
from stockade.core.model.tracked_unit import ESCORTED, GONE, UNARMED
from tests.rules.kit import (
    DE,
    US,
    add,
    cvp,
    new_game,
    ok,
    phase,
    refused,
    status,
    u,
    with_prisoners,
)


def _two_guards(**target_status):
    game = with_prisoners()
    add(game, "a2", US, "squad", "6-6-7", **target_status)
    return game


# ------------------------------------------------------------------ transfer
@pytest.mark.parametrize("name", ["RPh", "APh"])
def test_transfer_in_a_friendly_rph_or_aph(name):
    game = _two_guards()
    phase(game, name, attacker=US, turn=2)
    ok(game, ev.Transferred(units=["g1"], to_guard="a2"))
    assert u(game, "g1").guard == "a2"


@pytest.mark.parametrize(
    "name,attacker", [("RPh", DE), ("APh", DE), ("MPh", US), ("CCPh", US), ("DFPh", DE)]
)
def test_transfer_refused_outside_a_friendly_rph_or_aph(name, attacker):
    game = _two_guards()
    phase(game, name, attacker=attacker, turn=2)
    refused(game, ev.Transferred(units=["g1"], to_guard="a2"), "A20.5")


def test_transfer_refused_in_melee_with_the_guard():
    game = _two_guards()
    status(game, "a1", melee=True)
    phase(game, "APh", attacker=US)
    refused(game, ev.Transferred(units=["g1"], to_guard="a2"), "A20.5")


@pytest.mark.parametrize("target_status", [{"broken": True}, {"pinned": True}, {"berserk": True}])
def test_transfer_to_a_unit_that_cannot_accept_is_refused(target_status):
    game = _two_guards(**target_status)
    phase(game, "APh", attacker=US)
    rule = "A20.2" if "berserk" in target_status else "A20.5"
    refused(game, ev.Transferred(units=["g1"], to_guard="a2"), rule)


def test_transfer_to_another_location_or_the_enemy_is_refused():
    game = with_prisoners()
    add(game, "a2", US, "squad", "6-6-7", loc="R5")
    add(game, "g9", DE, "squad", "4-6-7", loc="Q4")
    phase(game, "APh", attacker=US)
    refused(game, ev.Transferred(units=["g1"], to_guard="a2"), "A20.5")
    refused(game, ev.Transferred(units=["g1"], to_guard="g9"), "A20.5")


def test_transfer_respects_the_new_guards_capacity_and_merges_make_it_fit():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "l1", US, "leader", "8-0")
    for h in ("g1", "g2", "g3"):
        add(game, h, DE, "hs", "2-4-7", broken=True)
    phase(game, "RtPh")
    ok(game, ev.Surrendered(units=["g1", "g2", "g3"], guard="a1"))
    phase(game, "APh")
    refusal = refused(game, ev.Transferred(units=["g1", "g2", "g3"], to_guard="l1"), "A20.51")
    assert "exchange" in refusal.hint
    ok(
        game,
        ev.Transferred(
            units=["g1", "g2", "g3"],
            to_guard="l1",
            merges=[ev.Merge(parts=["g1", "g2"], into="gx")],
        ),
    )
    assert game.state.prisoner_load("l1") == 5


def test_a_transfer_over_capacity_is_told_what_transfer_can_do():
    # A20.51: 'free' belongs to a surrender; a transfer moves fewer, or to another Guard
    game = with_prisoners(n=2)
    add(game, "l1", US, "leader", "8-0")
    phase(game, "APh")
    refusal = refused(game, ev.Transferred(units=["g1", "g2"], to_guard="l1"), "A20.51")
    assert "free" not in refusal.hint and "transfer fewer" in refusal.hint, refusal.hint


def test_a_surrender_over_capacity_is_told_to_free_the_excess():
    game = new_game()
    add(game, "l1", US, "leader", "8-0")
    for h in ("g1", "g2"):
        add(game, h, DE, "squad", "4-6-7", broken=True)
    phase(game, "RtPh")
    refusal = refused(game, ev.Surrendered(units=["g1", "g2"], guard="l1"), "A20.51")
    assert "free HANDLE" in refusal.hint, refusal.hint


# ------------------------------------------------------------------- abandon
def test_abandon_in_a_friendly_aph_keeps_the_protection():
    game = with_prisoners()
    phase(game, "APh", attacker=US)
    ok(game, ev.Abandoned(units=["g1"]))
    g1 = u(game, "g1")
    assert g1.status == UNARMED and g1.unarmed_how == "abandoned" and g1.abandoned_by == US


@pytest.mark.parametrize("name,attacker", [("DFPh", DE), ("RPh", DE), ("CCPh", US)])
def test_abandon_refused_outside_a_friendly_rph_or_aph(name, attacker):
    game = with_prisoners()
    phase(game, name, attacker=attacker, turn=2)
    refused(game, ev.Abandoned(units=["g1"]), "A20.5")


def test_abandon_refused_in_melee():
    game = with_prisoners()
    status(game, "a1", melee=True)
    phase(game, "RPh", attacker=US, turn=2)
    refused(game, ev.Abandoned(units=["g1"]), "A20.5")


def test_abandoned_smc_is_armed_at_once():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "l1", DE, "leader", "9-2", broken=True)
    phase(game, "RtPh")
    ok(game, ev.Surrendered(units=["l1"], guard="a1"))
    phase(game, "APh")
    ok(game, ev.Abandoned(units=["l1"]))
    assert u(game, "l1").armed and u(game, "l1").counter == "9-2"


# ---------------------------------------------------------- exchange / split
def test_exchange_two_hs_for_a_squad_and_split_back():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g1", DE, "hs", "2-4-7", broken=True)
    add(game, "c1", DE, "crew", "2-2-8", broken=True)
    phase(game, "RtPh")
    ok(game, ev.Surrendered(units=["g1", "c1"], guard="a1"))
    phase(game, "DFPh", attacker=DE)  # any time (A20.51)
    ok(game, ev.Exchanged(parts=["g1", "c1"], into="gx"))
    assert u(game, "gx").unit_kind == "squad" and game.state.prisoner_load("a1") == 3
    ok(game, ev.PrisonerSplit(handle="gx", into=["p1", "p2"]))
    assert {o.unit_kind for o in u(game, "p2").origins} | {
        o.unit_kind for o in u(game, "p1").origins
    } == {"hs", "crew"}
    assert u(game, "gx").status == GONE


def test_exchange_needs_two_hs():
    game = with_prisoners(n=2)
    refused(game, ev.Exchanged(parts=["g1", "g2"], into="gx"), "A20.51")


def test_split_refused_when_the_guard_cannot_hold_two_hs():
    game = new_game()
    add(game, "h1", US, "hero", "1-4-9")
    add(game, "g1", DE, "squad", "4-6-7", broken=True)
    add(game, "g2", DE, "hs", "2-4-7", broken=True)
    phase(game, "RtPh")
    ok(game, ev.Surrendered(units=["g1", "g2"], guard="h1"))
    refused(game, ev.PrisonerSplit(handle="g1", into=["p1", "p2"]), "A20.51")


# -------------------------------------------------------------------- deploy
def test_unbroken_guard_squad_deploys_at_any_time():
    game = with_prisoners(n=2)
    phase(game, "DFPh", attacker=DE)
    ok(
        game,
        ev.Deployed(
            handle="a1", into=["a1a", "a1b"], counters=["3-3-7", "3-3-7"], assign={"g2": "a1b"}
        ),
    )
    assert u(game, "g1").guard == "a1a" and u(game, "g2").guard == "a1b"


def test_broken_guard_squad_does_not_deploy():
    game = with_prisoners()
    status(game, "a1", broken=True)
    refused(game, ev.Deployed(handle="a1", into=["a1a", "a1b"], counters=[]), "A20.5")


def test_deploy_refused_when_one_hs_would_hold_too_many():
    game = with_prisoners(n=4)
    refused(game, ev.Deployed(handle="a1", into=["a1a", "a1b"], counters=[]), "A20.51")
    ok(
        game,
        ev.Deployed(
            handle="a1", into=["a1a", "a1b"], counters=[], assign={"g3": "a1b", "g4": "a1b"}
        ),
    )


# -------------------------------------------------------------------- escort
def test_escort_off_in_the_captors_mph_counts_double():
    game = with_prisoners()
    phase(game, "MPh", attacker=US, turn=2)
    ok(game, ev.EscortedOff(guard="a1"))
    assert u(game, "g1").status == ESCORTED and u(game, "a1").status == ESCORTED
    assert cvp(game.state, US) == 4 and cvp(game.state, DE) == 0  # Guard not eliminated


@pytest.mark.parametrize("name,attacker", [("DFPh", DE), ("MPh", DE), ("RtPh", US)])
def test_escort_off_refused_outside_the_captors_mph_aph(name, attacker):
    game = with_prisoners()
    phase(game, name, attacker=attacker, turn=2)
    refused(game, ev.EscortedOff(guard="a1"), "A20.53")


def test_escort_off_refused_in_melee():
    game = with_prisoners()
    status(game, "a1", melee=True)
    phase(game, "MPh", attacker=US, turn=2)
    refused(game, ev.EscortedOff(guard="a1"), "A20.53")


def test_escort_off_refused_to_a_broken_guard():
    """A20.53: prisoners are moved with their Guard in the captor's MPh/APh; a broken
    Guard moves only when it routs (the prisoners with it), so it escorts no one off."""
    game = with_prisoners()
    status(game, "a1", broken=True)
    phase(game, "APh", attacker=US, turn=2)
    refused(game, ev.EscortedOff(guard="a1"), "A20.53")


def test_prisoners_move_with_their_guard():
    game = with_prisoners()
    status(game, "a1", location="R5")
    assert u(game, "g1").location == "R5"
