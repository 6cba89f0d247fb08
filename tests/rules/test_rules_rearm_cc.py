"""Who is rearmed by a Guard its prisoners eliminate in CC (A20.551): "One attacking
Unarmed friendly unit ... for each armed enemy unit it eliminated/captured in CC"."""

from __future__ import annotations

from stockade.core.model import events as ev
from stockade.core.model.tracked_unit import ACTIVE, UNARMED
from stockade.core.reads import queries, views
from tests.rules.kit import DE, US, add, new_game, ok, phase, refused, status, u


def _guard_killed(ntc_failed: tuple[str, ...] = ("g5",), units=("g4", "g5")):
    """A broken American Guard squad a1 holding a German squad g4 and HS g5 in Q4 (the
    player's game: a 4-6-7 and a 2-4-7 vs a broken Guard); the prisoners named in
    ``units`` attack it in the CCPh, those in ``ntc_failed`` fail their NTC, and the
    others eliminate it."""
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g4", DE, "squad", "4-6-7", broken=True)
    add(game, "g5", DE, "hs", "2-4-7", broken=True)
    phase(game, "RtPh")
    ok(game, ev.Surrendered(units=["g4", "g5"], guard="a1"))
    status(game, "a1", broken=True)
    phase(game, "CCPh", attacker=DE)
    ok(
        game,
        ev.EscapeAttempted(
            units=list(units),
            ntc_failed=list(ntc_failed),
            guard_eliminated=True,
            outcome="escaped",
        ),
    )
    return game


def test_a20_551_a_prisoner_that_failed_its_ntc_is_not_rearmed_by_the_guard_kill():
    game = _guard_killed()
    refusal = refused(game, ev.Rearmed(handle="g5", how="cc", enemy="a1"), "A20.551")
    assert "g5 did not attack Americans 6-6-7 (a1)" in str(refusal) and "g4" in str(refusal)
    ok(game, ev.Rearmed(handle="g4", how="cc", enemy="a1"))
    assert u(game, "g4").status == ACTIVE and u(game, "g5").status == UNARMED


def test_a20_551_the_guard_killed_in_cc_is_not_a_rearm_by_other_means():
    game = _guard_killed()
    refused(game, ev.Rearmed(handle="g5", how="alone", enemy="a1"), "A20.551")
    refusal = refused(game, ev.Rearmed(handle="g4", how="alone", enemy="a1"), "A20.551")
    assert refusal.hint == "rearm g4 cc a1"


def test_a20_551_a_prisoner_that_did_not_join_the_escape_is_not_rearmed():
    game = _guard_killed(ntc_failed=(), units=("g4",))
    refused(game, ev.Rearmed(handle="g5", how="cc", enemy="a1"), "A20.551")
    ok(game, ev.Rearmed(handle="g4", how="cc", enemy="a1"))


def test_a20_551_of_several_attackers_one_of_the_players_choice_is_rearmed():
    game = _guard_killed(ntc_failed=())
    ok(game, ev.Rearmed(handle="g5", how="cc", enemy="a1"))  # the HS, not the squad
    assert u(game, "g5").status == ACTIVE
    refused(game, ev.Rearmed(handle="g4", how="cc", enemy="a1"), "A20.551")


def test_a20_551_the_pickers_offer_only_the_prisoner_that_attacked():
    game = _guard_killed()
    units = {c.handle: c for c in queries.rearmable_units(game.state)}
    assert units["g4"].legal and not units["g5"].legal, units
    assert units["g5"].why.startswith("A20.551: g5 did not attack Americans"), units["g5"].why
    enemies = {c.handle: c for c in queries.rearm_enemies(game.state, "g5", "cc")}
    assert not enemies["a1"].legal and "did not attack" in enemies["a1"].reason
    assert {c.handle: c for c in queries.rearm_enemies(game.state, "g4", "cc")}["a1"].legal
    panel = views.side_panel(game.state, DE)
    said = {r.unit.handle: r.now for r in panel.rearm}
    assert said["g4"] == ["rearm from a1 (6-6-7): g4 eliminated it in CC (A20.551)"]
    assert said["g5"] == []


def test_a20_551_the_unit_list_says_why_an_unarmed_unit_is_greyed():
    game = _guard_killed()
    ok(game, ev.Rearmed(handle="g4", how="cc", enemy="a1"))
    units = {c.handle: c for c in queries.rearmable_units(game.state)}
    assert "(a1) has already rearmed an unarmed unit" in units["g5"].why
    status(game, "g5", location="R5")  # nothing was lost in R5
    units = {c.handle: c for c in queries.rearmable_units(game.state)}
    assert not units["g5"].legal and "in R5 this phase" in units["g5"].why


def _guard_shot(cause: ev.EliminationCause = "fire-enemy", when: ev.Phase = "RtPh"):
    """A German squad g1 surrenders to the American a1 in the RtPh; a1 is then
    eliminated (``cause``) in ``when``: g1 is freed, unarmed, alone in Q4."""
    game = new_game()
    add(game, "a1", US, "squad", "6-6-6")
    add(game, "g1", DE, "squad", "4-6-7", broken=True)
    phase(game, "RtPh")
    ok(game, ev.Surrendered(units=["g1"], guard="a1"))
    if when != "RtPh":
        phase(game, when)
    ok(game, ev.Eliminated(handle="a1", cause=cause, by_side=DE))
    assert u(game, "g1").status == UNARMED
    return game


def test_a20_551_a_guard_killed_by_fire_rearms_alone_not_by_cc():
    game = _guard_shot()
    refusal = refused(game, ev.Rearmed(handle="g1", how="cc", enemy="a1"), "A20.551")
    assert "not eliminated in CC" in str(refusal), refusal
    assert refusal.hint == "rearm g1 alone a1"
    ways = [(e.handle, how) for e, how in views.rearm_ways(game.state, u(game, "g1"))]
    assert ways == [("a1", "alone")]
    enemies = {c.handle: c for c in queries.rearm_enemies(game.state, "g1", "cc")}
    assert not enemies["a1"].legal
    ok(game, ev.Rearmed(handle="g1", how="alone", enemy="a1"))


def test_a20_551_what_proves_a_cc_loss():
    # "by cc", or a loss with no cause given in a CCPh, is a loss in CC
    for cause, when in (("cc", "RtPh"), ("other", "CCPh")):
        ok(_guard_shot(cause, when), ev.Rearmed(handle="g1", how="cc", enemy="a1"))
    # fire in the CCPh (e.g. a sniper) is not
    refused(_guard_shot("sniper", "CCPh"), ev.Rearmed(handle="g1", how="cc", enemy="a1"), "A20.551")
