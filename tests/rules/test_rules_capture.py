"""Taking prisoners: RtPh surrender, capacity, who takes and who never surrenders,
No Quarter, Mopping Up, CC capture, mutual capture, recapture (A20.2-A20.3, A20.51,
A20.54, A12.153)."""

from __future__ import annotations

import pytest

from stockade.core.model import events as ev
from stockade.core.model.tracked_unit import ACTIVE, GONE, PRISONER, UNARMED
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


# ------------------------------------------------------------ RtPh surrender
def test_rtph_surrender_makes_unarmed_prisoner_above_guard():
    game = with_prisoners()
    g1 = u(game, "g1")
    assert g1.status == PRISONER and g1.guard == "a1" and not g1.armed
    assert g1.counter == "(1)-0-6" and g1.origins[0].counter == "4-6-7"


def test_rtph_surrender_only_in_the_rtph():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g1", DE, "squad", "4-6-7", broken=True)
    phase(game, "MPh")
    refused(game, ev.Surrendered(units=["g1"], guard="a1"), "A20.21")


def test_only_broken_units_surrender_in_the_rtph():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g1", DE, "squad", "4-6-7")
    phase(game, "RtPh")
    refused(game, ev.Surrendered(units=["g1"], guard="a1"), "A20.21")


def test_crew_prisoner_becomes_unarmed_hs_but_is_remembered_as_crew():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "c1", DE, "crew", "2-2-8", broken=True)
    phase(game, "RtPh")
    ok(game, ev.Surrendered(units=["c1"], guard="a1"))
    c1 = u(game, "c1")
    assert c1.unit_kind == "hs" and c1.us == 2
    assert c1.origins[0].unit_kind == "crew" and c1.origin_cvp == 2


def test_prisoner_smc_keeps_its_counter():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "l1", DE, "leader", "9-2", broken=True)
    phase(game, "RtPh")
    ok(game, ev.Surrendered(units=["l1"], guard="a1"))
    assert u(game, "l1").counter == "9-2" and u(game, "l1").us == 1


def test_captured_unit_loses_its_identity():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g1", DE, "squad", "4-6-8", traits=("elite",), broken=True)
    phase(game, "RtPh")
    ok(game, ev.Surrendered(units=["g1"], guard="a1"))
    assert u(game, "g1").traits == frozenset()


# ------------------------------------------------------------ capacity A20.51
def _smc_and(game, *units):
    add(game, "h1", US, "hero", "1-4-9")
    for handle, kind, counter in units:
        add(game, handle, DE, kind, counter, broken=True)
    phase(game, "RtPh")


def test_smc_guards_squad_and_hs():
    game = new_game()
    _smc_and(game, ("g1", "squad", "4-6-7"), ("g2", "hs", "2-4-7"))
    ok(game, ev.Surrendered(units=["g1", "g2"], guard="h1"))
    assert game.state.prisoner_load("h1") == 5


def test_smc_cannot_guard_three_hs_and_the_hint_suggests_the_exchange():
    game = new_game()
    _smc_and(game, ("g1", "hs", "2-4-7"), ("g2", "hs", "2-4-7"), ("g3", "hs", "2-4-7"))
    refusal = refused(game, ev.Surrendered(units=["g1", "g2", "g3"], guard="h1"), "A20.51")
    assert "exchange" in refusal.hint and "merge" in refusal.hint
    assert "US# 5" in refusal.text and "US# 6" in refusal.text


def test_merging_two_hs_makes_three_hs_fit_an_smc():
    game = new_game()
    _smc_and(game, ("g1", "hs", "2-4-7"), ("g2", "hs", "2-4-7"), ("c1", "crew", "2-2-8"))
    ok(
        game,
        ev.Surrendered(
            units=["g1", "g2", "c1"], guard="h1", merges=[ev.Merge(parts=["g2", "c1"], into="gx")]
        ),
    )
    assert game.state.prisoner_load("h1") == 5
    gx = u(game, "gx")
    assert gx.unit_kind == "squad" and gx.status == PRISONER
    assert [o.unit_kind for o in gx.origins] == ["hs", "crew"] and gx.origin_cvp == 3
    assert u(game, "g2").status == GONE


def test_merge_must_be_of_two_hs():
    game = new_game()
    _smc_and(game, ("g1", "squad", "4-6-7"), ("g2", "hs", "2-4-7"))
    refused(
        game,
        ev.Surrendered(
            units=["g1", "g2"], guard="h1", merges=[ev.Merge(parts=["g1", "g2"], into="gx")]
        ),
        "A20.51",
    )


def test_squad_guards_fifteen_not_eighteen():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    for i in range(1, 7):
        add(game, f"g{i}", DE, "squad", "4-6-7", broken=True)
    phase(game, "RtPh")
    refused(game, ev.Surrendered(units=[f"g{i}" for i in range(1, 7)], guard="a1"), "A20.51")
    stack = [f"g{i}" for i in range(1, 7)]
    ok(game, ev.Surrendered(units=stack, guard="a1", freed=["g6"]))  # A20.21: the excess
    assert game.state.prisoner_load("a1") == 15


def test_excess_over_capacity_is_freed_as_unarmed():
    game = new_game()
    _smc_and(game, ("g1", "hs", "2-4-7"), ("g2", "hs", "2-4-7"), ("g3", "hs", "2-4-7"))
    ok(game, ev.Surrendered(units=["g1", "g2", "g3"], guard="h1", freed=["g3"]))
    g3 = u(game, "g3")
    assert g3.status == UNARMED and g3.unarmed_how == "freed" and not g3.abandoned_by


def test_freeing_a_unit_that_fits_is_refused():
    game = new_game()
    _smc_and(game, ("g1", "squad", "4-6-7"), ("g2", "hs", "2-4-7"))
    refused(game, ev.Surrendered(units=["g1", "g2"], guard="h1", freed=["g2"]), "A20.21")


# ---------------------------------------------------- who may take prisoners
def _rtph_pair(melee=False, **guard_status):
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7", **guard_status)
    add(game, "g1", DE, "squad", "4-6-7", broken=True)
    if melee:  # with an enemy in its Location (A11): g1 stands there
        status(game, "a1", melee=True)
    phase(game, "RtPh")
    return game


def test_berserk_unit_takes_no_prisoners():
    refused(_rtph_pair(berserk=True), ev.Surrendered(units=["g1"], guard="a1"), "A20.2")


def test_vehicle_takes_no_prisoners():
    game = new_game()
    add(game, "t1", US, "vehicle", "4-6-7")
    add(game, "g1", DE, "squad", "4-6-7", broken=True)
    phase(game, "RtPh")
    refused(game, ev.Surrendered(units=["g1"], guard="t1"), "A20.2")


def test_unit_in_melee_takes_no_rtph_surrender():
    refused(_rtph_pair(melee=True), ev.Surrendered(units=["g1"], guard="a1"), "A20.21")


def test_broken_unit_takes_no_rtph_surrender():
    refused(_rtph_pair(broken=True), ev.Surrendered(units=["g1"], guard="a1"), "A20.21")


def test_unarmed_unit_takes_no_prisoners():
    game = with_prisoners()
    phase(game, "APh")
    ok(game, ev.Abandoned(units=["g1"]))
    add(game, "g9", DE, "squad", "4-6-7")
    add(game, "a9", US, "squad", "6-6-7", broken=True)
    phase(game, "RtPh")
    refused(game, ev.Surrendered(units=["a9"], guard="g1"), "A20.5")


def test_lone_leader_takes_a_surrender():
    game = new_game()
    add(game, "l1", US, "leader", "8-0")
    add(game, "g1", DE, "squad", "4-6-7", broken=True)
    phase(game, "RtPh")
    ok(game, ev.Surrendered(units=["g1"], guard="l1"))


def test_berserk_unit_is_never_captured():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g1", DE, "squad", "4-6-7", berserk=True)
    phase(game, "CCPh")
    refused(game, ev.Captured(guard="a1", units=["g1"]), "A20.2")


# ----------------------------------------------------- who never surrenders
NEVER = [
    ("Partisan", (), "American", "A20.21"),
    ("Gurkha", (), "German", "A20.21"),
    ("Japanese", (), "American", "A20.21"),
    ("German", ("commissar",), "American", "A20.21"),
    ("German", ("fanatic",), "American", "A20.21"),
    ("SS", (), "Russian", "A20.21"),
    ("German", ("ss",), "Russian", "A20.21"),
]


def _never_game(victim_nat, traits, captor_nat, victim_kind="squad"):
    game = new_game(us=captor_nat, de=victim_nat)
    add(game, "a1", US, "squad", "6-6-7")
    counter = "9-1" if victim_kind == "leader" else "4-6-7"
    add(game, "g1", DE, victim_kind, counter, traits=traits, broken=True)
    return game


@pytest.mark.parametrize("victim,traits,captor,rule", NEVER)
def test_never_surrenders_in_the_rtph(victim, traits, captor, rule):
    game = _never_game(victim, traits, captor)
    phase(game, "RtPh")
    refused(game, ev.Surrendered(units=["g1"], guard="a1"), rule)


@pytest.mark.parametrize("victim,traits,captor,rule", NEVER)
def test_mopping_up_still_captures_them(victim, traits, captor, rule):
    game = _never_game(victim, traits, captor)
    phase(game, "PFPh", attacker=US)
    ok(game, ev.Surrendered(units=["g1"], guard="a1", reason="mopup"))
    assert u(game, "g1").status == PRISONER


def test_ss_facing_americans_do_surrender():
    game = _never_game("SS", (), "American")
    phase(game, "RtPh")
    ok(game, ev.Surrendered(units=["g1"], guard="a1"))


def test_hob_surrender_of_a_never_surrendering_unit_is_refused_as_berserk():
    game = _never_game("Japanese", (), "American")
    phase(game, "DFPh")
    refused(game, ev.Surrendered(units=["g1"], guard="a1", reason="hob"), "A15.5")


def test_disrupted_unit_surrenders_in_any_phase():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g1", DE, "squad", "4-6-7", broken=True, disrupted=True)
    phase(game, "MPh")
    ok(game, ev.Surrendered(units=["g1"], guard="a1", reason="disrupted"))


def test_mopping_up_only_in_the_attackers_pfph():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g1", DE, "squad", "4-6-7", broken=True)
    phase(game, "PFPh", attacker=DE)
    refused(game, ev.Surrendered(units=["g1"], guard="a1", reason="mopup"), "A12.153")
    phase(game, "MPh", attacker=US)
    refused(game, ev.Surrendered(units=["g1"], guard="a1", reason="mopup"), "A12.153")


# --------------------------------------------------------------- No Quarter
def test_no_quarter_rejection_eliminates_and_bars_later_surrenders():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g1", DE, "squad", "4-6-7", broken=True)
    add(game, "g2", DE, "squad", "4-6-7", broken=True)
    phase(game, "RtPh")
    ok(game, ev.SurrenderRejected(units=["g1"], by_side=US, others_why="g2 can rout away"))
    assert u(game, "g1").status == "eliminated"
    assert game.state.sides[US].no_quarter
    assert cvp(game.state, US) == 2
    refused(game, ev.Surrendered(units=["g2"], guard="a1"), "A20.3")
    # ...and a second rejection has nothing to reject: they no longer surrender to it
    refused(game, ev.SurrenderRejected(units=["g2"], by_side=US), "A20.3")


def test_no_quarter_does_not_affect_the_other_sides_acceptance():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g1", DE, "squad", "4-6-7", broken=True)
    add(game, "g2", DE, "squad", "4-6-7")
    add(game, "a2", US, "squad", "6-6-7", broken=True)
    phase(game, "RtPh")
    ok(game, ev.SurrenderRejected(units=["g1"], by_side=US))
    ok(game, ev.Surrendered(units=["a2"], guard="g2"))


def test_no_quarter_by_ssr():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g1", DE, "squad", "4-6-7", broken=True)
    ok(game, ev.NoQuarterInvoked(side=US))
    phase(game, "RtPh")
    refused(game, ev.Surrendered(units=["g1"], guard="a1"), "A20.3")


def test_rejection_only_of_a_rtph_or_disrupted_surrender():
    game = new_game()
    add(game, "g1", DE, "squad", "4-6-7", broken=True)
    phase(game, "MPh")
    refused(game, ev.SurrenderRejected(units=["g1"], by_side=US), "A20.3")


# --------------------------------------------------------------- CC capture
def _cc(melee=False, **guard_status):
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7", **guard_status)
    add(game, "g1", DE, "squad", "4-6-7")
    add(game, "g2", DE, "squad", "4-2-6")
    if melee:  # with an enemy in its Location (A11)
        status(game, "a1", melee=True)
    phase(game, "CCPh")
    return game


def test_cc_capture_all():
    game = _cc()
    ok(game, ev.Captured(guard="a1", units=["g1", "g2"]))
    assert {p.handle for p in game.state.prisoners_of("a1")} == {"g1", "g2"}


def test_cc_capture_one_hs_of_a_squad():
    game = _cc()
    ok(
        game,
        ev.Captured(
            guard="a1",
            units=["g2"],
            split="g1",
            hs_captured="g1a",
            hs_free="g1b",
            hs_counter="2-4-7",
        ),
    )
    assert u(game, "g1").status == GONE
    assert u(game, "g1a").status == PRISONER and u(game, "g1a").unit_kind == "hs"
    free = u(game, "g1b")
    assert free.status == ACTIVE and free.armed and free.unit_kind == "hs" and free.melee
    assert u(game, "a1").melee


def test_cc_capture_one_hs_can_merge_with_another_prisoner_hs():
    game = new_game()
    add(game, "h1", US, "hero", "1-4-9")
    add(game, "g1", DE, "squad", "4-6-7")
    add(game, "g2", DE, "hs", "2-4-7")
    add(game, "g3", DE, "hs", "2-4-7")
    phase(game, "CCPh")
    event = ev.Captured(
        guard="h1", units=["g2", "g3"], split="g1", hs_captured="g1a", hs_free="g1b"
    )
    refused(game, event, "A20.51")
    ok(
        game,
        ev.Captured(
            guard="h1",
            units=["g2", "g3"],
            split="g1",
            hs_captured="g1a",
            hs_free="g1b",
            merges=[ev.Merge(parts=["g3", "g1a"], into="gx")],
        ),
    )
    assert game.state.prisoner_load("h1") == 5


def test_cc_capture_only_in_the_ccph():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g1", DE, "squad", "4-6-7")
    phase(game, "AFPh")
    refused(game, ev.Captured(guard="a1", units=["g1"]), "A20.22")


def test_cc_capture_by_a_unit_in_melee_is_allowed():
    game = _cc(melee=True)
    ok(game, ev.Captured(guard="a1", units=["g1"]))


def test_cc_capture_of_a_manned_afv_is_refused():
    game = _cc()
    add(game, "t1", DE, "vehicle", "4-6-7")
    refused(game, ev.Captured(guard="a1", units=["t1"]), "A20.22")


def test_cc_capture_by_berserk_or_vehicle_is_refused():
    refused(_cc(berserk=True), ev.Captured(guard="a1", units=["g1"]), "A20.2")
    game = _cc()
    add(game, "t1", US, "vehicle", "4-6-7")
    refused(game, ev.Captured(guard="t1", units=["g1"]), "A20.2")


def test_cc_capture_of_units_elsewhere_is_refused():
    game = _cc()
    add(game, "g9", DE, "squad", "4-6-7", loc="R5")
    refused(game, ev.Captured(guard="a1", units=["g9"]), "A20.22")


# ------------------------------------------------------------ mutual capture
def test_mutual_capture_rearms_everyone_left_as_green_conscript_in_melee():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g1", DE, "squad", "4-6-7")
    phase(game, "CCPh")
    ok(game, ev.MutualCapture(units=["a1", "g1"]))
    a1, g1 = u(game, "a1"), u(game, "g1")
    assert (a1.counter, g1.counter) == ("5-4-6", "4-3-6")  # A20.221, article Example 10
    assert a1.melee and g1.melee and a1.armed and g1.armed


def test_mutual_capture_only_in_the_ccph():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    phase(game, "MPh")
    refused(game, ev.MutualCapture(units=["a1"]), "A20.221")


def test_mutual_capture_asks_for_an_unknown_rearm_counter():
    game = new_game(us="British")
    add(game, "a1", US, "squad", "4-4-7")
    phase(game, "CCPh")
    refusal = refused(game, ev.MutualCapture(units=["a1"]), "A20.551")
    assert "a1" in refusal.hint
    ok(game, ev.MutualCapture(units=["a1"], counters={"a1": "4-3-6"}))


# ----------------------------------------------------------------- recapture
def _abandoned():
    game = with_prisoners()
    phase(game, "APh")
    ok(game, ev.Abandoned(units=["g1"]))
    add(game, "a2", US, "squad", "6-6-7", loc="Q4")
    return game


def test_recapture_by_entering_in_the_mph():
    game = _abandoned()
    phase(game, "MPh", attacker=US, turn=2)
    ok(game, ev.Recaptured(units=["g1"], guard="a2"))
    assert u(game, "g1").status == PRISONER and u(game, "g1").guard == "a2"
    assert not u(game, "g1").abandoned_by


def test_recapture_in_the_mph_only_by_the_moving_side():
    game = _abandoned()
    phase(game, "MPh", attacker=DE, turn=1)
    refused(game, ev.Recaptured(units=["g1"], guard="a2"), "A20.54")


def test_recapture_is_of_free_unarmed_units_only():
    game = with_prisoners()
    add(game, "g5", DE, "squad", "4-6-7")
    phase(game, "CCPh")
    refused(game, ev.Recaptured(units=["g5"], guard="a1"), "A20.54")


def test_recapture_not_in_other_phases():
    game = _abandoned()
    phase(game, "DFPh", attacker=DE)
    refused(game, ev.Recaptured(units=["g1"], guard="a2"), "A20.54")


def test_board_questions_verdict_per_a20_21():
    from stockade.core.rules.board_questions import board_verdict

    assert board_verdict("rtph", {})[0] is None
    assert board_verdict("rtph", {"adjacent": "no", "free_rout": "no"})[0] is False
    stopped, why = board_verdict("rtph", {"adjacent": "yes", "free_rout": "yes"})
    assert stopped is False and why.startswith("A20.21")
    assert board_verdict("rtph", {"adjacent": "yes", "free_rout": "no"})[0] is True
    # Disrupted / Encircled / HOB: a free rout path does not save them (A20.21).
    for reason in ("encircled", "disrupted", "hob"):
        assert board_verdict(reason, {"adjacent": "yes"})[0] is True
        assert board_verdict(reason, {"adjacent": "no"})[0] is False
    assert board_verdict("mopup", {})[0] is True


# ------------------------------------- CC capture over the captor's capacity
def _leader_and_two_squads():
    """A German 8-1 (US# 1: guards US# 5) in CC with two American squads (US# 6)."""
    game = new_game()
    add(game, "g7", DE, "leader", "8-1")
    add(game, "a5", US, "squad", "6-6-6")
    add(game, "a6", US, "squad", "6-6-6")
    phase(game, "CCPh", attacker=DE)
    return game


def test_a20_22_cc_capture_over_capacity_is_refused_offering_the_excess_freed():
    """A20.22: "all defending units are captured"; A20.5: the Guard "guards all those
    units it can handle" and the rest are free. Refused without the excess named, and
    the hint offers it (it used to say "capture fewer with this unit")."""
    game = _leader_and_two_squads()
    refusal = refused(game, ev.Captured(guard="g7", units=["a5", "a6"]), "A20.51")
    assert "US# 5" in refusal.text and "US# 6" in refusal.text
    assert "free a6" in refusal.hint and "A20.22" in refusal.hint and "A20.5" in refusal.hint


def test_a20_5_cc_capture_frees_the_excess_as_unarmed():
    game = _leader_and_two_squads()
    ok(game, ev.Captured(guard="g7", units=["a5", "a6"], freed=["a5"]))
    a5, a6 = u(game, "a5"), u(game, "a6")
    assert a6.status == PRISONER and a6.guard == "g7"
    assert a5.status == UNARMED and a5.unarmed_how == "freed" and not a5.armed
    assert a5.counter == "(1)-0-6" and a5.guard is None
    assert game.state.prisoner_load("g7") == 3


def test_a20_5_cc_capture_may_free_only_what_the_guard_cannot_hold():
    """The player's words contradict the rule: a unit that fits is not freed."""
    game = _leader_and_two_squads()
    refused(game, ev.Captured(guard="g7", units=["a5", "a6"], freed=["a5", "a6"]), "A20.5")
    refused(game, ev.Captured(guard="g7", units=["a5"], freed=["a5"]), "A20.5")
    refused(game, ev.Captured(guard="g7", units=["a5"], freed=["a6"]), "input")
