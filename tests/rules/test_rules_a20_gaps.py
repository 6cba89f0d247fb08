"""The gaps issue 11 found between A20 (seed 004) and the book, each with an allowed and
a refused case (or the automatic effect), citing its rule id."""

from __future__ import annotations

from stockade.core.commands import execute
from stockade.core.model import events as ev
from stockade.core.model.tracked_unit import ACTIVE, ELIMINATED, PRISONER, UNARMED
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


# ------------------------------------------- A20.22: who may attempt capture in CC
def test_a20_22_a_broken_unit_cannot_capture_in_cc():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7", broken=True)
    add(game, "a2", US, "squad", "6-6-7")
    add(game, "g1", DE, "squad", "4-6-7")
    phase(game, "CCPh")
    why = refused(game, ev.Captured(guard="a1", units=["g1"]), "A20.22")
    assert "broken" in why.text and "A11.16" in why.text
    ok(game, ev.Captured(guard="a2", units=["g1"]))
    assert u(game, "g1").guard == "a2"


def test_a20_22_a_broken_unit_cannot_recapture_either():
    game = with_prisoners()
    phase(game, "APh")
    ok(game, ev.Abandoned(units=["g1"]))
    add(game, "a2", US, "squad", "6-6-7", broken=True)
    phase(game, "CCPh")
    refused(game, ev.Recaptured(units=["g1"], guard="a2"), "A20.22")
    ok(game, ev.Recaptured(units=["g1"], guard="a1"))


def test_a20_551_an_unarmed_unit_captures_in_cc_and_is_rearmed_in_the_same_entry():
    game = with_prisoners()  # a1 guards g1
    phase(game, "APh")
    ok(game, ev.Abandoned(units=["g1"]))  # g1: a free unarmed German squad in Q4
    add(game, "a2", US, "squad", "6-6-7")
    phase(game, "CCPh", attacker=DE)
    ok(game, ev.Captured(guard="g1", units=["a2"]))
    g1 = u(game, "g1")
    assert g1.status == ACTIVE and g1.armed and g1.counter == "4-3-6"  # German Green squad
    assert u(game, "a2").status == PRISONER and u(game, "a2").guard == "g1"
    assert u(game, "a2").rearm_spent and "A20.551" in g1.note


def test_a20_551_an_unarmed_captor_needs_an_armed_enemy_of_its_size():
    game = with_prisoners()
    phase(game, "APh")
    ok(game, ev.Abandoned(units=["g1"]))
    add(game, "a3", US, "leader", "8-0")  # an SMC enemy rearms no MMC
    phase(game, "CCPh", attacker=DE)
    why = refused(game, ev.Captured(guard="g1", units=["a3"]), "A20.551")
    assert "equal or smaller size" in why.text and "Unarmed captor" in why.text
    add(game, "a4", US, "hs", "3-3-7")  # a HS-size one rearms no squad either
    refused(game, ev.Captured(guard="g1", units=["a4"]), "A20.551")


def test_a20_551_unarmed_capture_reply_names_the_rearm():
    game = with_prisoners()
    phase(game, "APh")
    ok(game, ev.Abandoned(units=["g1"]))
    add(game, "a2", US, "squad", "6-6-7")
    phase(game, "CCPh", attacker=DE)
    message = execute(game, "capture a2 by g1").message
    assert "g1 is rearmed as 4-3-6" in message and "A20.551" in message


# --------------------------------------- A20.5: taking over is not optional (Ex. 15)
def test_a20_5_takeover_dash_is_refused_while_a_unit_can_take_over():
    game = with_prisoners()
    add(game, "a2", US, "hs", "3-3-7")
    why = refused(game, ev.Eliminated(handle="a1", cause="sniper", takeover="-"), "A20.5")
    assert why.text.startswith("a2 in Q4 can accept") and why.hint.startswith("takeover a2")
    ok(game, ev.Eliminated(handle="a1", cause="sniper", takeover="a2"))
    assert u(game, "g1").guard == "a2"


def test_a20_5_takeover_dash_is_accepted_when_none_can():
    game = with_prisoners()
    add(game, "a2", US, "hs", "3-3-7", broken=True)  # a broken HS cannot accept (Ex. 15)
    ok(game, ev.Eliminated(handle="a1", cause="sniper", takeover="-"))
    assert u(game, "g1").status == UNARMED and u(game, "g1").unarmed_how == "escaped"


# ----------------------------------------------- A20.55: escape needs an empty Location
def _broken_guard_with_friend(friend_broken: bool = False):
    game = with_prisoners()
    add(game, "a2", US, "hs", "3-3-7", broken=friend_broken)
    status(game, "a1", broken=True)
    phase(game, "CCPh", attacker=DE)
    return game


def test_a20_55_escape_is_refused_while_another_enemy_unit_is_in_the_location():
    game = _broken_guard_with_friend()
    escape = ev.EscapeAttempted(units=["g1"], guard_eliminated=True, outcome="escaped")
    why = refused(game, escape, "A20.55")
    assert "a2" in why.text and "takeover a2" in why.hint
    # what happened instead: the Guard died and a2 takes the prisoners over (A20.5)
    ok(game, ev.Eliminated(handle="a1", cause="cc", takeover="a2"))
    assert u(game, "g1").status == PRISONER and u(game, "g1").guard == "a2"


def test_a20_55_escape_succeeds_when_only_prisoners_remain():
    game = with_prisoners()
    status(game, "a1", broken=True)
    phase(game, "CCPh", attacker=DE)
    ok(game, ev.EscapeAttempted(units=["g1"], guard_eliminated=True, outcome="escaped"))
    assert u(game, "g1").status == UNARMED and u(game, "g1").unarmed_how == "escaped"
    # the Guard killed by its prisoners counts its normal CVP, citing the sub-rule
    (line,) = [c for c in game.state.casualties if c.unit == "a1"]
    assert (line.multiplier, line.rule) == (1, "A26.21")


def test_a20_55_even_a_broken_enemy_unit_keeps_the_escape_from_succeeding():
    game = _broken_guard_with_friend(friend_broken=True)
    escape = ev.EscapeAttempted(units=["g1"], guard_eliminated=True, outcome="escaped")
    why = refused(game, escape, "A20.55")
    assert "takeover -" in why.hint  # a broken HS cannot take them (Example 15)


# ------------------------------------------------ A20.221: simultaneous CC, automatic
def _cc_capture_then(game=None):
    game = game or new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g1", DE, "squad", "4-6-7", traits=("elite",))
    add(game, "g2", DE, "squad", "4-6-7")
    phase(game, "CCPh")
    ok(game, ev.Captured(guard="a1", units=["g1"]))
    return game


def test_a20_221_captor_side_wiped_out_in_the_same_ccph_voids_its_capture():
    game = _cc_capture_then()
    message = execute(game, "eliminate a1 by cc").message
    g1 = u(game, "g1")
    assert g1.status == ACTIVE and g1.armed and g1.counter == "4-6-7"
    assert g1.unit_kind == "squad" and g1.traits == frozenset({"elite"})
    assert "A20.221" in message and "g1 is Germans 4-6-7 again, armed" in message
    assert u(game, "a1").status == ELIMINATED


def test_a20_221_captor_captured_in_the_same_ccph_voids_its_capture():
    game = _cc_capture_then()
    ok(game, ev.Captured(guard="g2", units=["a1"]))
    assert u(game, "g1").status == ACTIVE and u(game, "g1").armed
    assert u(game, "a1").status == PRISONER and u(game, "a1").guard == "g2"


def test_a20_221_does_not_apply_when_the_captor_side_still_has_a_unit_there():
    game = new_game()
    add(game, "a2", US, "squad", "6-6-7")
    game = _cc_capture_then(game)
    ok(game, ev.Eliminated(handle="a1", cause="cc", takeover="a2"))
    assert u(game, "g1").status == PRISONER and u(game, "g1").guard == "a2"


def test_a20_221_does_not_reach_back_to_an_earlier_phase():
    game = _cc_capture_then()
    phase(game, "CCPh", attacker=DE)  # the next Player Turn's CCPh
    ok(game, ev.Eliminated(handle="a1", cause="cc"))
    assert u(game, "g1").status == UNARMED  # freed as escaped, not given back (A20.5)


# ---------------------------------- published ruling: broken Guard in Melee, captures
def _guard_in_melee():
    game = with_prisoners()
    add(game, "a2", US, "squad", "6-6-7")
    status(game, "a1", broken=True)
    status(game, "a1", melee=True)
    phase(game, "CCPh", attacker=DE)
    return game


def test_a20_55_ruling_a_broken_guard_in_melee_with_its_prisoners_cannot_rally():
    game = _guard_in_melee()
    phase(game, "RPh", attacker=US, turn=2)
    refused(game, ev.StatusChanged(handle="a1", broken=False), "A20.55")
    status(game, "a1", melee=False)
    ok(game, ev.StatusChanged(handle="a1", broken=False))
    assert not u(game, "a1").broken


def test_a20_22_ruling_prisoners_in_melee_may_be_captured_by_another_unit():
    game = _guard_in_melee()
    ok(game, ev.Captured(guard="a2", units=["g1"]))
    g1 = u(game, "g1")
    assert g1.status == PRISONER and g1.guard == "a2" and not g1.melee


def test_a20_22_ruling_prisoners_not_in_melee_are_not_captured_by_another_unit():
    game = with_prisoners()
    add(game, "a2", US, "squad", "6-6-7")
    phase(game, "CCPh", attacker=DE)
    refused(game, ev.Captured(guard="a2", units=["g1"]), "A20.22")


# --------------------------------------------------- A20.21: stacks surrender whole
def test_a20_21_a_stack_surrenders_whole_or_says_why_not():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g1", DE, "squad", "4-6-7", "Q5", broken=True)
    add(game, "g2", DE, "hs", "2-4-7", "Q5", broken=True)
    phase(game, "RtPh")
    why = refused(game, ev.Surrendered(units=["g1"], guard="a1"), "A20.21")
    assert why.text.startswith("g2 is broken in Q5 too")
    ok(game, ev.Surrendered(units=["g1"], guard="a1", others_why="g2 has a legal rout path"))
    message = execute(game, "undo").message
    assert "undone" in message
    ok(game, ev.Surrendered(units=["g1", "g2"], guard="a1"))


def test_a20_21_a_stack_is_rejected_whole_or_says_why_not():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g1", DE, "squad", "4-6-7", "Q5", broken=True)
    add(game, "g2", DE, "hs", "2-4-7", "Q5", broken=True)
    phase(game, "RtPh")
    refused(game, ev.SurrenderRejected(units=["g1"], by_side=US), "A20.21")
    ok(game, ev.SurrenderRejected(units=["g1", "g2"], by_side=US))


def test_a20_21_units_that_never_surrender_are_not_part_of_the_stack():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g1", DE, "squad", "4-6-7", "Q5", broken=True)
    add(game, "g2", DE, "squad", "4-6-7", "Q5", traits=("fanatic",), broken=True)
    phase(game, "RtPh")
    ok(game, ev.Surrendered(units=["g1"], guard="a1"))


def test_a20_21_the_reason_is_recorded_and_shown():
    game = new_game()
    execute(game, "add American 6-6-7 at Q4")
    execute(game, "add German 4-6-7 4-6-7 at Q5 broken")
    execute(game, "phase rtph")
    message = execute(game, 'surrender g1 to a1 because "g2 can rout to P5"').message
    assert game.records[-1].others_why == "g2 can rout to P5"
    assert "the rest of the stack does not surrender: g2 can rout to P5 (A20.21)" in message


# --------------------------------------- A20.21: the Disrupted claim is checked
def test_a20_21_disrupted_claim_is_checked_against_the_state():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g1", DE, "squad", "4-6-7", broken=True)
    phase(game, "RtPh")
    why = refused(game, ev.Surrendered(units=["g1"], guard="a1", reason="disrupted"), "A20.21")
    assert (
        "not recorded as Disrupted" in why.text
        and why.hint == "if it is, record it first: disrupt g1"
    )
    status(game, "g1", disrupted=True)
    ok(game, ev.Surrendered(units=["g1"], guard="a1", reason="disrupted"))


def test_a20_21_encircled_and_hob_are_recorded_as_claims():
    game = new_game()
    execute(game, "add American 6-6-7 at Q4")
    execute(game, "add German 4-6-7 at Q5 broken")
    execute(game, "phase rtph")
    message = execute(game, "surrender g1 to a1 encircled").message
    assert game.records[-1].reason == "encircled"
    assert "recorded as the players' claim: g1 is Encircled" in message


# --------------------------------------------- A20.51: an escaped crew is an unarmed HS
def test_a20_51_ruling_an_escaped_crew_counts_as_the_hs_it_is():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "c1", DE, "crew", "2-2-8", broken=True)
    phase(game, "RtPh")
    ok(game, ev.Surrendered(units=["c1"], guard="a1"))
    assert u(game, "c1").origin_cvp == 2  # a prisoner crew is still a crew for VP (A20.5)
    status(game, "a1", broken=True)
    phase(game, "CCPh", attacker=DE)
    ok(game, ev.EscapeAttempted(units=["c1"], guard_eliminated=True, outcome="escaped"))
    c1 = u(game, "c1")
    assert c1.origin_cvp == 1 and c1.origins[0].unit_kind == "hs"
    assert "escaped: now a HS" in c1.origins[0].counter  # shown in the tally
    before = cvp(game.state, US)
    ok(game, ev.Eliminated(handle="c1", cause="fire-enemy"))
    assert cvp(game.state, US) - before == 1


def test_a20_51_an_abandoned_crew_keeps_its_crew_value():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "c1", DE, "crew", "2-2-8", broken=True)
    phase(game, "RtPh")
    ok(game, ev.Surrendered(units=["c1"], guard="a1"))
    phase(game, "APh")
    ok(game, ev.Abandoned(units=["c1"]))
    assert u(game, "c1").origin_cvp == 2


# ---------------------------------------------------- vehicles entered by their name
def test_a20_22_a_vehicle_entered_by_name_cannot_be_captured():
    game = new_game()
    message = execute(game, "add German StuG vehicle cvp=4 at Q4").message
    assert "StuG" in message
    stug = u(game, "g1")
    assert stug.unit_kind == "vehicle" and stug.cvp == 4 and stug.counter == "StuG"
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g2", DE, "squad", "4-6-7")
    phase(game, "CCPh")
    refused(game, ev.Captured(guard="a1", units=["g1"]), "A20.22")
    ok(game, ev.Captured(guard="a1", units=["g2"]))


def test_a20_551_a_vehicle_entered_by_name_blocks_a_rearm_by_other_means():
    game = with_prisoners()
    phase(game, "APh")
    ok(game, ev.Abandoned(units=["g1"]))
    add(game, "a2", US, "squad", "6-6-7")
    ok(game, ev.Eliminated(handle="a2", cause="fire-enemy"))
    execute(game, "add American Sherman vehicle cvp=3 at Q4")
    refused(game, ev.Rearmed(handle="g1", how="alone", enemy="a2"), "A20.551")
    ok(game, ev.Eliminated(handle="a1", cause="fire-enemy"))
    ok(game, ev.Eliminated(handle="a3", cause="fire-enemy"))  # the Sherman
    ok(game, ev.Rearmed(handle="g1", how="alone", enemy="a2"))


def test_a_vehicle_name_must_be_one_plain_word():
    game = new_game()
    refused(
        game,
        ev.UnitEntered(handle="g1", side=DE, unit_kind="vehicle", counter="Stu G!"),
        "input",
    )


# ------------------------------------------------- A20.24: SW left behind, reminded
def test_a20_24_surrender_and_capture_replies_remind_of_the_sw_left_behind():
    game = new_game()
    execute(game, "add American 6-6-7 6-6-7 at P4")
    execute(game, "add German 4-6-7 at P4 broken")
    execute(game, "add German 4-6-7 at P4")
    execute(game, "phase rtph")
    message = execute(game, "surrender g1 to a1").message
    assert "any SW g1 had stay in P4, unpossessed: the captor must Recover them (A20.24" in message
    execute(game, "phase ccph")
    message = execute(game, "capture g2 by a2").message
    assert "g2" in message and "any SW" not in message  # said once: see the next test


def test_a20_24_the_sw_reminder_is_said_on_each_sides_first_capture_only():
    """No SW was entered (Stockade tracks none): after every capture the reminder read
    as if some had been. It is said the first time a side's units are taken."""
    game = new_game()
    execute(game, "add American 6-6-7 6-6-7 at P4")
    execute(game, "add German 4-6-7 at P4 broken")
    execute(game, "add German 4-6-7 4-6-7 at P4")
    execute(game, "phase rtph")
    first = execute(game, "surrender g1 to a1").message
    assert "any SW g1 had stay in P4" in first and "first time" in first
    execute(game, "phase ccph")
    assert "any SW" not in execute(game, "capture g2 by a2").message
    theirs = execute(game, "capture a1 by g3").message  # the Americans' first loss
    assert "any SW a1 had stay in P4" in theirs


# ------------------------------------------------ Stockade's ruling: a captured Guard
def test_ruling_a_guard_captured_in_cc_frees_its_own_prisoners_as_escaped():
    game = with_prisoners()  # a1 guards g1 (taken in the RtPh, not this CCPh)
    add(game, "g2", DE, "squad", "4-6-7")
    add(game, "a2", US, "squad", "6-6-7", "Q9")
    phase(game, "CCPh", attacker=DE)
    ok(game, ev.Captured(guard="g2", units=["a1"]))
    g1 = u(game, "g1")
    assert g1.status == UNARMED and g1.unarmed_how == "escaped"
    assert "its Guard a1 was captured" in g1.note
