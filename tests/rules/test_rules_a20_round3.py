"""Issue 21 (right to the rule, round 3) and the Melee's life cycle (issue 20): each
requirement with an allowed and a refused case, or its automatic effect, citing its rule."""

from __future__ import annotations

from stockade.core.commands import execute
from stockade.core.model import events as ev
from stockade.core.model.tracked_unit import ACTIVE, ELIMINATED, GONE, PRISONER, UNARMED
from tests.rules.kit import (
    DE,
    US,
    add,
    new_game,
    ok,
    phase,
    refused,
    status,
    u,
    with_prisoners,
)


def _abandoned_in_q4():
    """g1, a German squad abandoned by its American Guard a1 in Q4 (American APh)."""
    game = with_prisoners()
    phase(game, "APh")
    ok(game, ev.Abandoned(units=["g1"]))
    return game


# ------------------------------ A20.5 / A20.54: unarmed units and Known enemy units
def test_a20_54_an_unarmed_unit_may_not_enter_a_known_enemy_occupied_location():
    game = _abandoned_in_q4()
    add(game, "a2", US, "squad", "6-6-7", "N4")
    phase(game, "MPh", attacker=DE)
    why = refused(game, ev.StatusChanged(handle="g1", location="N4"), "A20.54")
    assert "a2" in why.text and "A20.5," in why.text  # A20.5's last sentence says it too
    ok(game, ev.StatusChanged(handle="g1", location="N5"))  # an empty Location
    assert u(game, "g1").location == "N5"


def test_a20_5_a_freed_prisoner_may_not_enter_a_location_holding_an_enemy_unit():
    game = with_prisoners()  # a1 guards g1 in Q4
    add(game, "a3", US, "hs", "3-3-7", "R4")
    ok(game, ev.Eliminated(handle="a1", cause="fire-enemy"))  # g1 freed, as escaped
    assert u(game, "g1").status == UNARMED
    phase(game, "MPh", attacker=DE)
    why = refused(game, ev.StatusChanged(handle="g1", location="R4"), "A20.54")
    assert "A20.5" in str(why)
    # an armed unit of the same side may enter it
    add(game, "g7", DE, "squad", "4-6-7", "Q4")
    ok(game, ev.StatusChanged(handle="g7", location="R4"))


# --------------------------------------- A20.54: a unit in Melee moves no farther
def test_a20_54_a_failed_mph_recapture_is_a_melee_and_the_unit_moves_no_farther():
    game = _abandoned_in_q4()
    add(game, "g5", DE, "squad", "4-6-7", "P4")
    phase(game, "MPh", attacker=DE)
    # g5 enters Q4, attacks g1's captor... here: the American a1 recaptures in its MPh
    phase(game, "MPh", attacker=US, turn=2)
    ok(game, ev.StatusChanged(handle="a1", location="Q4"))
    # the immediate CC fails: the players record the Melee (docs/rulings.md)
    ok(game, [ev.StatusChanged(handle="a1", melee=True), ev.StatusChanged(handle="g1", melee=True)])
    refused(game, ev.StatusChanged(handle="a1", location="Q5"), "A20.54")
    refused(game, ev.StatusChanged(handle="g1", location="Q5"), "A20.54")
    # in the CCPh it may try Withdrawal (A11.2): the move leaves the Melee behind
    phase(game, "CCPh", attacker=US, turn=2)
    ok(game, ev.StatusChanged(handle="a1", location="Q5"))
    assert not u(game, "a1").melee
    assert not u(game, "g1").melee  # nothing left to fight in Q4: its Melee ended too


# ---------------------------------- A20.55: Withdrawal in a *subsequent* CCPh
def test_a20_55_withdrawal_only_in_a_ccph_after_the_one_that_made_the_melee():
    game = with_prisoners()
    status(game, "a1", broken=True)
    phase(game, "CCPh")
    ok(game, ev.EscapeAttempted(units=["g1"], outcome="melee"))  # the Guard survives
    assert u(game, "a1").melee and u(game, "g1").melee
    why = refused(game, ev.EscapedBy(units=["g1"], route="withdrawal"), "A20.55")
    assert "subsequent CCPh" in why.text
    phase(game, "CCPh", attacker=DE)  # the German Player Turn's CCPh: a subsequent one
    ok(game, ev.EscapedBy(units=["g1"], route="withdrawal"))
    assert u(game, "g1").status == UNARMED and u(game, "g1").unarmed_how == "escaped"


# ------------------------------------------------- A20.551: "rearmed immediately"
def _alone_with_an_eliminated_enemy():
    """g1 abandoned in Q4 with the American HS a3; the German Player Turn begins."""
    game = _abandoned_in_q4()
    status(game, "a1", location="R9")
    add(game, "a3", US, "squad", "6-6-7", "Q4")
    return game


def test_a20_551_rearm_alone_is_made_in_the_phase_of_the_loss():
    game = _alone_with_an_eliminated_enemy()
    phase(game, "PFPh", attacker=DE, turn=1)
    ok(game, ev.Eliminated(handle="a3", cause="fire-enemy"))
    phase(game, "MPh", attacker=DE, turn=1)
    why = refused(game, ev.Rearmed(handle="g1", how="alone", enemy="a3"), "A20.551")
    assert "immediately" in why.text and "PFPh" in why.text


def test_a20_551_rearm_alone_in_the_same_phase_is_accepted():
    game = _alone_with_an_eliminated_enemy()
    phase(game, "PFPh", attacker=DE, turn=1)
    ok(game, ev.Eliminated(handle="a3", cause="fire-enemy"))
    ok(game, ev.Rearmed(handle="g1", how="alone", enemy="a3", counter="4-3-6"))
    assert u(game, "g1").status == ACTIVE and u(game, "g1").counter == "4-3-6"


def test_a20_551_the_views_stop_offering_a_rearm_after_its_phase():
    from stockade.core.reads.queries import rearm_enemies
    from stockade.core.reads.views import side_panel

    game = _alone_with_an_eliminated_enemy()
    phase(game, "PFPh", attacker=DE, turn=1)
    ok(game, ev.Eliminated(handle="a3", cause="fire-enemy"))
    offers = side_panel(game.state, DE).rearm[0].now
    assert any("a3" in line and "A20.551" in line for line in offers)
    phase(game, "MPh", attacker=DE, turn=1)
    offers = side_panel(game.state, DE).rearm[0].now
    assert not any("rearm from a3" in line for line in offers)
    choice = next(c for c in rearm_enemies(game.state, "g1", "alone") if c.handle == "a3")
    assert not choice.legal and choice.rule == "A20.551" and "immediately" in choice.reason


# ---------------------------- A20.221: the capturing side wiped out in the same CCPh
def test_a20_221_a_one_hs_capture_made_void_gives_the_squad_back_whole():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7", "Q4")
    add(game, "g1", DE, "squad", "4-6-7", "Q4")
    phase(game, "CCPh")
    ok(game, ev.Captured(guard="a1", split="g1", hs_captured="g8", hs_free="g9"))
    assert u(game, "g8").status == PRISONER and u(game, "g9").status == ACTIVE
    ok(game, ev.Eliminated(handle="a1", cause="cc"))  # the Americans' last unit there
    g1 = u(game, "g1")
    assert g1.status == ACTIVE and g1.armed and g1.counter == "4-6-7" and g1.location == "Q4"
    assert u(game, "g8").status == GONE and u(game, "g9").status == GONE
    assert "A20.221" in g1.note
    armed_here = [x.handle for x in game.state.active_at("Q4")]
    assert armed_here == ["g1"]


# ------------------------------------------------------- the Melee's life cycle
def test_a_melee_ends_when_no_opposing_armed_unit_remains_and_the_reply_says_so():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7", "Q4")
    add(game, "g1", DE, "squad", "4-6-7", "Q4")
    add(game, "g2", DE, "hs", "2-4-7", "Q4")
    phase(game, "CCPh")
    ok(game, ev.Captured(guard="a1", split="g1", hs_captured="g8", hs_free="g9"))
    assert u(game, "a1").melee and u(game, "g9").melee
    ok(game, ev.Eliminated(handle="g2", cause="cc"))
    assert u(game, "a1").melee  # g9 still fights
    outcome = execute(game, "eliminate g9 by cc")
    assert not u(game, "a1").melee
    assert u(game, "a1").melee_end_seq == outcome.records[0].seq
    assert "Melee in Q4 has ended" in outcome.message and "ruling" in outcome.message
    assert outcome.change is not None
    said = {(c.handle, c.field, c.after) for c in outcome.change.units}
    assert ("a1", "melee", "") in said


def test_a_melee_of_prisoners_attacking_their_guard_lasts_while_they_fight():
    game = with_prisoners()
    add(game, "g3", DE, "squad", "4-6-7", "Q4")
    status(game, "a1", broken=True)
    phase(game, "CCPh")
    ok(game, ev.EscapeAttempted(units=["g1"], outcome="melee"))
    ok(game, ev.Eliminated(handle="g3", cause="cc"))  # an armed enemy gone; g1 still fights
    assert u(game, "a1").melee and u(game, "g1").melee


def test_a_melee_set_by_a_cc_capture_no_longer_blocks_a_transfer_once_over():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7", "Q4")
    add(game, "a2", US, "squad", "6-6-7", "Q4")
    add(game, "g1", DE, "squad", "4-6-7", "Q4")
    phase(game, "CCPh")
    ok(game, ev.Captured(guard="a1", split="g1", hs_captured="g8", hs_free="g9"))
    ok(game, ev.Eliminated(handle="g9", cause="cc"))
    assert not u(game, "a1").melee
    phase(game, "RPh", turn=2)
    ok(game, ev.Transferred(units=["g8"], to_guard="a2"))
    assert u(game, "g8").guard == "a2"
    assert u(game, "g9").status == ELIMINATED


# ------------------------------- an unarmed captor: one rule with `rearm ... cc`
def test_a20_551_an_unarmed_squad_capturing_a_hs_is_refused_as_rearm_cc_is():
    game = _abandoned_in_q4()  # g1: a free unarmed German squad in Q4
    status(game, "a1", location="R9")
    add(game, "a2", US, "hs", "3-3-7", "Q4")
    phase(game, "CCPh", attacker=DE)
    why = refused(game, ev.Captured(guard="g1", units=["a2"]), "A20.551")
    assert "equal or smaller size" in why.text and "Unarmed captor" in why.text
    # the same enemy on the other path: `rearm g1 cc a2` is refused for the same reason
    ok(game, ev.Eliminated(handle="a2", cause="cc"))
    why = refused(game, ev.Rearmed(handle="g1", how="cc", enemy="a2"), "A20.551")
    assert "equal or smaller size" in why.text


# ------------------------------------------------- every refusal names its rule
def test_a20_3_rejecting_a_prisoner_held_since_an_earlier_turn_names_the_rule():
    game = with_prisoners()  # g1 surrendered to a1 in the American RtPh of turn 1
    phase(game, "RtPh", attacker=US, turn=2)
    why = refused(game, ev.SurrenderRejected(units=["g1"], by_side=US), "A20.3")
    assert "prisoner" in why.text
    refused(game, ev.Surrendered(units=["g1"], guard="a1"), "A20.21")


# ------------------------ A20.54: "Prisoners/Unarmed units ... count double"
def test_a20_54_a_free_unarmed_unit_eliminated_by_its_own_sides_fire_counts_double():
    game = _abandoned_in_q4()  # g1: abandoned, a free unarmed German squad (2 CVP)
    ok(game, ev.Eliminated(handle="g1", cause="fire-own", by_side=DE))
    line = game.state.casualties[-1]
    assert (line.credited, line.base, line.multiplier, line.rule) == (US, 2, 2, "A20.54")
    game = _abandoned_in_q4()
    ok(game, ev.Eliminated(handle="g1", cause="fire-enemy", by_side=US))
    assert game.state.casualties[-1].multiplier == 1  # enemy fire: normal


def test_a20_54_a_free_unarmed_unit_reduced_by_its_own_sides_fire_counts_double():
    game = _abandoned_in_q4()
    ok(game, ev.CasualtyReduced(handle="g1", cause="fire-own", by_side=DE))
    line = game.state.casualties[-1]
    assert (line.multiplier, line.rule) == (2, "A20.54")


def test_a20_55_the_escape_offer_names_withdrawal_only_from_a_later_ccph():
    from stockade.core.reads.views import side_panel

    game = with_prisoners()
    status(game, "a1", broken=True)
    phase(game, "CCPh")
    ok(game, ev.EscapeAttempted(units=["g1"], outcome="melee"))
    (offer,) = side_panel(game.state, DE).escape  # its attack this CCPh is made
    assert not offer.allowed and "A20.55" in offer.why and "Withdrawal" in offer.why
    assert "later CCPh" in offer.why
    phase(game, "CCPh", attacker=DE)
    (offer,) = side_panel(game.state, DE).escape
    assert "tries Withdrawal" in offer.why
