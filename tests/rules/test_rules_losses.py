"""Losses: a Guard's elimination and the involuntary transfer, Casualty Reduction of
prisoners, own-side fire, Massacre and its ELR effect, abandoned vs escaped units
(A20.4, A20.5, A20.53, A20.54)."""

from __future__ import annotations

import pytest

from stockade.core.model import events as ev
from stockade.core.model.tracked_unit import ELIMINATED, PRISONER, UNARMED
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


# --------------------------------------------- involuntary transfer (A20.5)
def test_takeover_candidate_in_the_location_must_be_named():
    game = with_prisoners()
    add(game, "a2", US, "hs", "3-3-7")
    refusal = refused(game, ev.Eliminated(handle="a1", cause="sniper"), "A20.5")
    assert "a2" in refusal.text and "takeover a2" in refusal.hint
    ok(game, ev.Eliminated(handle="a1", cause="sniper", takeover="a2"))
    assert u(game, "g1").guard == "a2" and u(game, "g1").status == PRISONER


def test_takeover_disregards_the_phase():
    game = with_prisoners()
    add(game, "a2", US, "hs", "3-3-7")
    phase(game, "DFPh", attacker=DE)
    ok(game, ev.Eliminated(handle="a1", cause="fire-enemy", takeover="a2"))


@pytest.mark.parametrize("hs_status", [{"broken": True}, {"pinned": True}])
def test_example_15_broken_or_pinned_hs_cannot_take_over_prisoners_escape(hs_status):
    game = new_game()
    add(game, "l1", US, "leader", "9-2")
    add(game, "a2", US, "hs", "3-3-7", **hs_status)
    add(game, "g1", DE, "hs", "2-4-7", broken=True)
    phase(game, "RtPh")
    ok(game, ev.Surrendered(units=["g1"], guard="l1"))
    refused(game, ev.Eliminated(handle="l1", cause="sniper", takeover="a2"), "A20.5")
    ok(game, ev.Eliminated(handle="l1", cause="sniper", takeover="-"))
    g1 = u(game, "g1")
    assert g1.status == UNARMED and g1.unarmed_how == "escaped" and not g1.abandoned_by


def test_takeover_by_a_unit_elsewhere_is_refused():
    game = with_prisoners()
    add(game, "a2", US, "squad", "6-6-7", loc="R5")
    refused(game, ev.Eliminated(handle="a1", cause="sniper", takeover="a2"), "A20.5")


def test_too_small_a_new_guard_guards_what_it_can_rest_freed():
    game = with_prisoners(n=2)
    add(game, "l1", US, "leader", "8-0")
    add(game, "g9", DE, "hs", "2-4-7", broken=True)
    phase(game, "RtPh", turn=2)
    ok(game, ev.Surrendered(units=["g9"], guard="a1"))  # 3 + 3 + 2 = 8
    refused(
        game, ev.Eliminated(handle="a1", cause="fire-enemy", takeover="l1", keep=["g1"]), "A20.5"
    )  # g9 still fits
    refused(
        game,
        ev.Eliminated(handle="a1", cause="fire-enemy", takeover="l1", keep=["g1", "g2"]),
        "A20.51",
    )
    ok(game, ev.Eliminated(handle="a1", cause="fire-enemy", takeover="l1", keep=["g2", "g9"]))
    assert [p.handle for p in game.state.prisoners_of("l1")] == ["g2", "g9"]
    assert u(game, "g1").status == UNARMED and u(game, "g1").unarmed_how == "escaped"


def test_no_candidate_frees_the_prisoners():
    game = with_prisoners()
    ok(game, ev.Eliminated(handle="a1", cause="fire-enemy"))
    assert u(game, "g1").status == UNARMED


# ------------------------------------------------- Casualty Reduction (A20.54)
def test_cr_of_a_prisoner_squad_makes_a_hs_then_eliminates_it():
    game = with_prisoners()
    ok(game, ev.CasualtyReduced(handle="g1", cause="fire-enemy"))
    g1 = u(game, "g1")
    assert g1.status == PRISONER and g1.unit_kind == "hs" and g1.origin_cvp == 1
    assert cvp(game.state, US) == 1
    ok(game, ev.CasualtyReduced(handle="g1", cause="fire-enemy"))
    assert u(game, "g1").status == ELIMINATED and cvp(game.state, US) == 2


def test_cr_by_own_sides_fire_counts_double_at_once():
    game = with_prisoners()
    ok(game, ev.CasualtyReduced(handle="g1", cause="fire-own"))
    line = game.state.casualties[-1]
    assert (line.base, line.multiplier, line.rule) == (1, 2, "A20.54")
    ok(game, ev.Eliminated(handle="g1", cause="fire-own"))
    assert cvp(game.state, US) == 4


def test_cr_of_a_crew_plus_hs_squad_loses_the_part_named():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g1", DE, "hs", "2-4-7", broken=True)
    add(game, "c1", DE, "crew", "2-2-8", broken=True)
    phase(game, "RtPh")
    ok(
        game,
        ev.Surrendered(
            units=["g1", "c1"], guard="a1", merges=[ev.Merge(parts=["g1", "c1"], into="gx")]
        ),
    )
    refused(game, ev.CasualtyReduced(handle="gx", cause="fire-own"), "A20.54")
    ok(game, ev.CasualtyReduced(handle="gx", cause="fire-own", lost="c1"))
    gx = u(game, "gx")
    assert gx.unit_kind == "hs" and [o.handle for o in gx.origins] == ["g1"]
    assert cvp(game.state, US) == 4  # crew 2 x 2
    ok(game, ev.GameEnded())
    assert cvp(game.state, US) == 4 + 2  # the HS left, still guarded: 1 x 2


def test_cr_of_an_armed_squad_counts_a_hs_lost():
    game = new_game()
    add(game, "g1", DE, "squad", "4-6-7")
    ok(game, ev.CasualtyReduced(handle="g1", counter="2-4-7"))
    assert u(game, "g1").unit_kind == "hs" and cvp(game.state, US) == 1
    ok(game, ev.Eliminated(handle="g1", cause="fire-enemy"))
    assert cvp(game.state, US) == 2


def test_cr_of_a_guard_hs_is_an_elimination():
    game = with_prisoners(guard_kind="hs", guard_counter="3-3-7")
    refused(game, ev.CasualtyReduced(handle="a1"), "A20.5")


def test_cr_of_an_smc_is_a_wound():
    game = new_game()
    add(game, "l1", DE, "leader", "8-1")
    refused(game, ev.CasualtyReduced(handle="l1"), "A7.302")


def test_guard_squad_reduced_to_hs_keeps_what_it_can():
    game = with_prisoners(n=4)  # US# 12 > 10
    refused(game, ev.CasualtyReduced(handle="a1", counter="3-3-7", keep=["g1"]), "A20.5")
    ok(game, ev.CasualtyReduced(handle="a1", counter="3-3-7", keep=["g1", "g2", "g3"]))
    assert game.state.prisoner_load("a1") == 9
    assert u(game, "g4").status == UNARMED


def test_prisoner_eliminated_by_own_fire_counts_double_enemy_fire_normal():
    game = with_prisoners(n=2)
    ok(game, ev.Eliminated(handle="g1", cause="fire-own", by_side=DE))
    ok(game, ev.Eliminated(handle="g2", cause="fire-enemy", by_side=US))
    assert [c.points for c in game.state.casualties] == [4, 2]


# ---------------------------------------------------------------- Massacre
MAY = [
    ("SS", ()),
    ("Japanese", ()),
    ("Partisan", ()),
    ("Russian", ()),
    ("KPA", ()),
    ("German", ("ss",)),
]


def _massacre_game(nat="German", traits=(), **captor_status):
    game = new_game(us="American", de=nat)
    add(game, "g1", DE, "squad", "4-6-7", traits=traits, **captor_status)
    add(game, "a1", US, "squad", "6-6-7", broken=True)
    phase(game, "RtPh", attacker=DE)
    ok(game, ev.Surrendered(units=["a1"], guard="g1"))
    return game


def test_the_reply_to_a_massacre_says_what_it_set_going():
    from stockade.core.rules.reminders import reminders

    game = _massacre_game("SS")
    phase(game, "PFPh", attacker=DE, turn=2)
    ok(game, ev.Massacred(units=["a1"], by="g1"))
    said = reminders(game.records[-1], game.state)
    assert any("has invoked No Quarter" in line for line in said), said
    assert any("ELR raised to 4" in line for line in said), said


@pytest.mark.parametrize("nat,traits", MAY)
def test_who_may_massacre(nat, traits):
    game = _massacre_game(nat, traits)
    phase(game, "PFPh", attacker=DE, turn=2)
    ok(game, ev.Massacred(units=["a1"], by="g1"))
    assert u(game, "a1").status == ELIMINATED
    assert game.state.sides[DE].massacred and game.state.sides[DE].no_quarter
    assert game.state.sides[US].elr == 4


def test_berserk_unit_of_any_nationality_may_massacre_and_calms_down():
    game = _massacre_game()
    status(game, "g1", berserk=True)
    phase(game, "PFPh", attacker=DE, turn=2)
    ok(game, ev.Massacred(units=["a1"], by="g1"))
    assert not u(game, "g1").berserk


def test_germans_may_not_massacre():
    game = _massacre_game()
    phase(game, "PFPh", attacker=DE, turn=2)
    refused(game, ev.Massacred(units=["a1"], by="g1"), "A20.4")


def test_massacre_not_in_melee():
    game = _massacre_game("SS")
    status(game, "g1", melee=True)
    phase(game, "PFPh", attacker=DE, turn=2)
    refused(game, ev.Massacred(units=["a1"], by="g1"), "A20.4")


def test_a_broken_unit_may_not_massacre():
    game = _massacre_game("Russian")
    phase(game, "PFPh", attacker=DE, turn=2)
    status(game, "g1", broken=True)
    refused(game, ev.Massacred(units=["a1"], by="g1"), "A20.4")
    assert u(game, "a1").status != ELIMINATED and not game.state.sides[DE].massacred


@pytest.mark.parametrize(
    "name,attacker,allowed",
    [
        ("PFPh", DE, True),
        ("AFPh", DE, True),
        ("DFPh", US, True),
        ("DFPh", DE, False),
        ("PFPh", US, False),
        ("MPh", DE, False),
        ("CCPh", DE, False),
    ],
)
def test_massacre_only_in_its_own_fire_phase(name, attacker, allowed):
    game = _massacre_game("Russian")
    phase(game, name, attacker=attacker, turn=2)
    event = ev.Massacred(units=["a1"], by="g1")
    if allowed:
        ok(game, event)
    else:
        refused(game, event, "A20.4")


def test_massacre_raises_enemy_elr_once_only_and_not_past_6():
    game = new_game(us="American", de="SS", us_elr=5)
    add(game, "g1", DE, "squad", "4-6-7")
    for h in ("a1", "a2"):
        add(game, h, US, "squad", "6-6-7", broken=True)
    phase(game, "RtPh", attacker=DE)
    ok(game, ev.Surrendered(units=["a1", "a2"], guard="g1"))
    phase(game, "PFPh", attacker=DE, turn=2)
    ok(game, ev.Massacred(units=["a1"], by="g1"))
    assert game.state.sides[US].elr == 6
    ok(game, ev.Massacred(units=["a2"], by="g1"))
    assert game.state.sides[US].elr == 6 and game.state.sides[US].elr_raised


def test_elr_max_6():
    game = new_game(us="American", de="SS", us_elr=6)
    add(game, "g1", DE, "squad", "4-6-7")
    add(game, "a1", US, "squad", "6-6-7", broken=True)
    phase(game, "RtPh", attacker=DE)
    ok(game, ev.Surrendered(units=["a1"], guard="g1"))
    phase(game, "PFPh", attacker=DE, turn=2)
    ok(game, ev.Massacred(units=["a1"], by="g1"))
    assert game.state.sides[US].elr == 6


def test_massacre_brings_no_quarter_penalties():
    game = _massacre_game("SS")
    add(game, "a2", US, "squad", "6-6-7", broken=True)
    phase(game, "PFPh", attacker=DE, turn=2)
    ok(game, ev.Massacred(units=["a1"], by="g1"))
    phase(game, "RtPh", attacker=DE, turn=2)
    refused(game, ev.Surrendered(units=["a2"], guard="g1"), "A20.3")


def test_massacre_of_a_prisoner_in_melee_is_refused():
    game = _massacre_game("SS")
    status(game, "a1", melee=True)
    phase(game, "PFPh", attacker=DE, turn=2)
    refused(game, ev.Massacred(units=["a1"], by="g1"), "A20.4")


# ---------------------------------------- abandoned vs escaped (A20.53, A20.55)
def test_abandoned_unit_eliminated_by_the_abandoning_side_is_a_massacre():
    game = with_prisoners()  # American (may not Massacre) guard a1 and German g1
    phase(game, "APh", attacker=US)
    ok(game, ev.Abandoned(units=["g1"]))
    ok(game, ev.Eliminated(handle="g1", cause="cc", by_side=US))
    assert game.state.sides[US].massacred and game.state.sides[US].no_quarter
    assert game.state.sides[DE].elr == 4


def test_abandoned_unit_eliminated_by_its_own_side_is_no_massacre():
    game = with_prisoners()
    phase(game, "APh", attacker=US)
    ok(game, ev.Abandoned(units=["g1"]))
    ok(game, ev.Eliminated(handle="g1", cause="fire-own", by_side=DE))
    assert not game.state.sides[US].massacred and not game.state.sides[DE].massacred


def test_escaped_unit_eliminated_by_the_former_captor_is_no_massacre():
    game = with_prisoners()
    ok(game, ev.Eliminated(handle="a1", cause="fire-enemy"))  # prisoners escape
    add(game, "a2", US, "squad", "6-6-7")
    ok(game, ev.Eliminated(handle="g1", cause="cc", by_side=US))
    assert not game.state.sides[US].massacred and game.state.sides[DE].elr == 3
    assert cvp(game.state, US) == 2 and cvp(game.state, DE) == 2


def test_mopping_up_is_refused_to_a_side_under_no_quarter():
    """Article, Conclusion: once NQ is in effect a side can no longer Mop Up (A20.3)."""
    from stockade.core.book.game import Game
    from stockade.core.model import events as ev
    from stockade.core.model.errors import Refusal

    game = Game.in_memory(
        "NQ", [ev.SideSpec("German", "German", 3), ev.SideSpec("American", "American", 4)]
    )
    game.submit(
        [
            ev.UnitEntered(
                handle="g1", side="German", unit_kind="squad", counter="4-6-7", broken=True
            )
        ]
    )
    game.submit([ev.UnitEntered(handle="a1", side="American", unit_kind="squad", counter="6-6-6")])
    game.submit([ev.PhaseSet(turn=1, attacker="American", phase="PFPh")])
    surrender = ev.Surrendered(units=["g1"], guard="a1", reason="mopup")
    game.check([surrender])  # allowed before No Quarter
    game.submit([ev.NoQuarterInvoked(side="American")])
    with pytest.raises(Refusal) as refused:
        game.check([surrender])
    assert refused.value.rule == "A20.3"
