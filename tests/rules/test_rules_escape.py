"""Escape (A20.55), Withdrawal and Infiltration, rearming (A20.551), scrounging
(A20.552)."""

from __future__ import annotations

import pytest

from stockade.core.model import events as ev
from stockade.core.model.tracked_unit import ACTIVE, ELIMINATED, UNARMED
from stockade.core.rules.escape import will_escape_refusal
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


def _prisoners_of(nat="German", captor="American", n=1, guard_kind="hs", guard_counter="3-3-7"):
    game = new_game(us=captor, de=nat)
    if nat != "Japanese":
        return with_prisoners(game, n=n, guard_kind=guard_kind, guard_counter=guard_counter)
    add(game, "a1", US, guard_kind, guard_counter)  # Japanese are taken only in CC
    for i in range(1, n + 1):
        add(game, f"g{i}", DE, "squad", "4-4-7")
    phase(game, "CCPh")
    ok(game, ev.Captured(guard="a1", units=[f"g{i}" for i in range(1, n + 1)]))
    return game


# -------------------------------------------------------------------- escape
def test_escape_vs_a_broken_guard_in_the_ccph_forms_melee():
    game = _prisoners_of(n=2)
    status(game, "a1", broken=True)
    phase(game, "CCPh")
    ok(game, ev.EscapeAttempted(units=["g1", "g2"], ntc_failed=["g2"], outcome="melee"))
    assert u(game, "a1").melee and u(game, "g1").melee


def test_escape_only_in_the_ccph():
    game = _prisoners_of()
    status(game, "a1", broken=True)
    phase(game, "AFPh")
    refused(game, ev.EscapeAttempted(units=["g1"], outcome="melee"), "A20.55")


def test_escape_outside_melee_needs_a_broken_guard():
    game = _prisoners_of()
    phase(game, "CCPh")
    refused(game, ev.EscapeAttempted(units=["g1"], outcome="melee"), "A20.55")


def test_in_melee_no_ntc_and_the_guard_need_not_be_broken():
    game = _prisoners_of()
    status(game, "a1", melee=True)
    phase(game, "CCPh")
    refused(game, ev.EscapeAttempted(units=["g1"], ntc_failed=["g1"]), "A20.55")
    ok(game, ev.EscapeAttempted(units=["g1"], outcome="melee"))


def test_outcome_must_match_what_happened():
    game = _prisoners_of()
    status(game, "a1", broken=True)
    phase(game, "CCPh")
    refused(game, ev.EscapeAttempted(units=["g1"], outcome="no-effect"), "A20.55")
    refused(game, ev.EscapeAttempted(units=["g1"], outcome="escaped"), "A20.55")
    refused(game, ev.EscapeAttempted(units=["g1"], ntc_failed=["g1"], outcome="melee"), "A20.55")


def test_prisoners_killed_escaping_count_normal():
    game = _prisoners_of(n=2)
    status(game, "a1", broken=True)
    phase(game, "CCPh")
    ok(game, ev.EscapeAttempted(units=["g1", "g2"], killed=["g2"], outcome="melee"))
    assert u(game, "g2").status == ELIMINATED
    line = game.state.casualties[-1]
    assert (line.multiplier, line.rule) == (1, "A20.55")
    assert not game.state.sides[US].no_quarter  # no penalty to the captor


def test_escape_by_eliminating_the_guard():
    game = _prisoners_of(n=2)
    status(game, "a1", broken=True)
    phase(game, "CCPh")
    ok(
        game,
        ev.EscapeAttempted(
            units=["g1", "g2"], ntc_failed=["g2"], guard_eliminated=True, outcome="escaped"
        ),
    )
    assert u(game, "a1").status == ELIMINATED and cvp(game.state, DE) == 1
    for h in ("g1", "g2"):
        assert u(game, h).status == UNARMED and u(game, h).unarmed_how == "escaped"


@pytest.mark.parametrize("nat", ["Italian", "Japanese", "Hungarian", "Romanian"])
def test_italians_japanese_axis_minors_do_not_attempt_escape(nat):
    game = _prisoners_of(nat=nat)
    status(game, "a1", broken=True)
    phase(game, "CCPh")
    refused(game, ev.EscapeAttempted(units=["g1"], outcome="melee"), "A20.55")


def test_axis_minors_escape_in_own_borders_vs_russians_only():
    game = _prisoners_of(nat="Hungarian", captor="Russian")
    status(game, "a1", broken=True)
    phase(game, "CCPh")
    ok(game, ev.EscapeAttempted(units=["g1"], outcome="melee", own_borders=True))
    game = _prisoners_of(nat="Hungarian", captor="American")
    status(game, "a1", broken=True)
    phase(game, "CCPh")
    refused(game, ev.EscapeAttempted(units=["g1"], outcome="melee", own_borders=True), "A20.55")
    game = _prisoners_of(nat="Italian", captor="Russian")
    status(game, "a1", broken=True)
    phase(game, "CCPh")
    refused(game, ev.EscapeAttempted(units=["g1"], outcome="melee", own_borders=True), "A20.55")


def test_only_infantry_escapes():
    game = _prisoners_of()
    p = u(game, "g1")
    assert will_escape_refusal(game.state, p) is None
    p.traits = frozenset({"cavalry"})  # a non-Infantry prisoner, as the check sees it
    refusal = will_escape_refusal(game.state, p)
    assert refusal is not None and refusal.rule == "A20.55"
    assert refusal.text.startswith("only Infantry")


# ------------------------------------------------- withdrawal / infiltration
def test_withdrawal_from_melee_escapes():
    game = _prisoners_of()
    status(game, "a1", melee=True)
    phase(game, "CCPh")
    ok(game, ev.EscapedBy(units=["g1"], route="withdrawal"))
    assert u(game, "g1").unarmed_how == "escaped"


def test_a_withdrawal_reminds_the_player_to_record_where_the_unit_went():
    from stockade.core.rules.reminders import reminders

    game = _prisoners_of()
    status(game, "a1", melee=True)
    phase(game, "CCPh")
    ok(game, ev.EscapedBy(units=["g1"], route="withdrawal"))
    said = reminders(game.records[-1], game.state)
    assert any("A11.2" in line and "move g1 LOC" in line for line in said), said


def test_withdrawal_needs_a_melee():
    game = _prisoners_of()
    phase(game, "CCPh")
    refused(game, ev.EscapedBy(units=["g1"], route="withdrawal"), "A20.55")


def test_italians_do_not_withdraw_either():
    game = _prisoners_of(nat="Italian")
    status(game, "a1", melee=True)
    phase(game, "CCPh")
    refused(game, ev.EscapedBy(units=["g1"], route="withdrawal"), "A20.55")


def test_guard_infiltrating_away_leaves_escaped_not_abandoned_units():
    game = _prisoners_of()
    status(game, "a1", melee=True)
    phase(game, "CCPh")
    ok(game, ev.EscapedBy(units=["a1"], route="guard-infiltrated"))
    g1 = u(game, "g1")
    assert g1.unarmed_how == "escaped" and not g1.abandoned_by


# ------------------------------------------------------------------- rearming
def _escaped(n=1, guard_kind="hs", guard_counter="3-3-7"):
    game = _prisoners_of(n=n, guard_kind=guard_kind, guard_counter=guard_counter)
    status(game, "a1", broken=True)
    phase(game, "CCPh")
    ok(
        game,
        ev.EscapeAttempted(
            units=[f"g{i}" for i in range(1, n + 1)], guard_eliminated=True, outcome="escaped"
        ),
    )
    return game


def test_rearm_after_eliminating_the_guard_in_cc_one_per_enemy():
    game = _escaped(n=2, guard_kind="squad", guard_counter="6-6-7")
    ok(game, ev.Rearmed(handle="g1", how="cc", enemy="a1"))
    assert u(game, "g1").status == ACTIVE and u(game, "g1").counter == "4-3-6"
    refused(game, ev.Rearmed(handle="g2", how="cc", enemy="a1"), "A20.551")


def test_rearm_hs_enemy_does_not_rearm_an_unarmed_squad_nor_split_it():
    game = _escaped()  # the Guard was a HS
    refusal = refused(game, ev.Rearmed(handle="g1", how="cc", enemy="a1"), "A20.551")
    assert "equal or smaller size" in refusal.text
    split = ev.Rearmed(handle="g1", how="cc", enemy="a1", split_into=["g1a", "g1b"])
    refused(game, split, "A20.551")
    assert u(game, "g1").status == UNARMED and "g1a" not in game.state.units


def test_rearm_smc_enemy_does_not_rearm_a_hs():
    game = new_game()
    add(game, "l1", US, "leader", "8-0")
    add(game, "g1", DE, "hs", "2-4-7", broken=True)
    phase(game, "RtPh")
    ok(game, ev.Surrendered(units=["g1"], guard="l1"))
    ok(game, ev.Eliminated(handle="l1", cause="sniper"))
    refused(game, ev.Rearmed(handle="g1", how="alone", enemy="l1"), "A20.551")


def test_rearm_of_an_enemy_not_taken_is_refused():
    game = _escaped(n=1, guard_kind="squad", guard_counter="6-6-7")
    add(game, "a2", US, "squad", "6-6-7")
    refused(game, ev.Rearmed(handle="g1", how="cc", enemy="a2"), "A20.551")


def test_rearm_alone_only_with_no_other_enemy_present():
    game = with_prisoners()
    add(game, "a2", US, "squad", "6-6-7", loc="R5")
    ok(game, ev.Eliminated(handle="a1", cause="fire-enemy"))
    ok(game, ev.Rearmed(handle="g1", how="alone", enemy="a1"))
    game = with_prisoners()
    add(game, "a2", US, "squad", "6-6-7", broken=True)  # broken: cannot take over
    ok(game, ev.Eliminated(handle="a1", cause="fire-enemy"))
    refused(game, ev.Rearmed(handle="g1", how="alone", enemy="a1"), "A20.551")


def test_rearm_when_an_armed_enemy_surrenders_to_a_friendly_unit():
    game = with_prisoners()
    phase(game, "APh")
    ok(game, ev.Abandoned(units=["g1"]))
    add(game, "g5", DE, "squad", "4-6-7", loc="R5")
    add(game, "a5", US, "squad", "6-6-7", loc="Q4", broken=True)
    phase(game, "RtPh", attacker=DE, turn=2)
    ok(game, ev.Surrendered(units=["a5"], guard="g5"))
    ok(game, ev.Rearmed(handle="g1", how="surrender", enemy="a5"))
    assert u(game, "g1").armed and not u(game, "g1").abandoned_by


def test_rearm_refused_when_the_enemy_surrendered_to_someone_else():
    game = with_prisoners()
    phase(game, "APh")
    ok(game, ev.Abandoned(units=["g1"]))
    add(game, "a5", US, "squad", "6-6-7", loc="Q4")
    refused(game, ev.Rearmed(handle="g1", how="surrender", enemy="a5"), "A20.551")


def test_escaped_smc_is_armed_and_needs_no_rearm():
    game = new_game()
    add(game, "a1", US, "hs", "3-3-7")
    add(game, "l1", DE, "leader", "8-1", broken=True)
    phase(game, "RtPh")
    ok(game, ev.Surrendered(units=["l1"], guard="a1"))
    ok(game, ev.Eliminated(handle="a1", cause="fire-enemy"))
    assert u(game, "l1").armed and u(game, "l1").status == ACTIVE
    refused(game, ev.Rearmed(handle="l1", how="alone", enemy="a1"), "A20.551")


# ------------------------------------------------------------------ scrounging
def _unarmed(n=1):
    game = with_prisoners(n=n)
    phase(game, "APh")
    ok(game, ev.Abandoned(units=[f"g{i}" for i in range(1, n + 1)]))
    return game


def test_scrounge_at_the_end_of_its_own_mph_a_2_rearms():
    game = _unarmed()
    phase(game, "MPh", attacker=DE, turn=1)
    ok(game, ev.Scrounged(handle="g1", roll=2))
    assert u(game, "g1").armed and u(game, "g1").counter == "4-3-6"


def test_scrounge_other_rolls_fail_and_one_dr_per_hex_per_mph():
    game = _unarmed(n=2)
    phase(game, "MPh", attacker=DE, turn=1)
    ok(game, ev.Scrounged(handle="g1", roll=5))
    assert not u(game, "g1").armed
    refused(game, ev.Scrounged(handle="g2", roll=2), "A20.552")
    status(game, "g2", location="R5")
    ok(game, ev.Scrounged(handle="g2", roll=2))
    phase(game, "MPh", attacker=DE, turn=2)
    ok(game, ev.Scrounged(handle="g1", roll=7))


@pytest.mark.parametrize("name,attacker", [("RPh", DE), ("MPh", US), ("APh", DE)])
def test_scrounge_refused_outside_its_own_mph(name, attacker):
    game = _unarmed()
    phase(game, name, attacker=attacker, turn=2)
    refused(game, ev.Scrounged(handle="g1", roll=2), "A20.552")


def test_scrounge_a_wreck_dr_1_to_3_arms_up_to_a_hs():
    game = _unarmed()
    phase(game, "MPh", attacker=DE, turn=1)
    refused(game, ev.Scrounged(handle="g1", roll=3, wreck=True), "D10.5")
    ok(game, ev.Scrounged(handle="g1", roll=3, wreck=True, split_into=["g1a", "g1b"]))
    assert u(game, "g1a").armed and u(game, "g1a").counter == "2-3-6"
    assert u(game, "g1b").status == UNARMED


def test_scrounge_a_wreck_dr_4_fails():
    game = _unarmed()
    phase(game, "MPh", attacker=DE, turn=1)
    ok(game, ev.Scrounged(handle="g1", roll=4, wreck=True))
    assert not u(game, "g1").armed


def test_a_prisoner_does_not_scrounge():
    game = with_prisoners()
    phase(game, "MPh", attacker=DE, turn=1)
    refused(game, ev.Scrounged(handle="g1", roll=2), "A20.552")


# ------------------------------------------- no escape in the CCPh of the capture
def _captured_this_ccph(melee: bool = False):
    """g1 taken by a1's CC capture in this American CCPh; a1 then broken (or in Melee
    with another German), so that only the phase of the capture stands in the way."""
    game = new_game()
    add(game, "a1", US, "squad", "6-6-6")
    add(game, "g1", DE, "squad", "4-6-7")
    phase(game, "CCPh")
    ok(game, ev.Captured(guard="a1", units=["g1"]))
    status(game, "a1", melee=True) if melee else status(game, "a1", broken=True)
    return game


@pytest.mark.parametrize("melee", [False, True])
def test_no_escape_in_the_ccph_of_the_capture(melee):
    """A20.55 with A20.221 (docs/rulings.md): the prisoner's CC of this phase was
    simultaneous with its capture (recorded as `capture a1 by g1`); it attacks its
    Guard from a later CCPh on."""
    game = _captured_this_ccph(melee)
    why = refused(game, ev.EscapeAttempted(units=["g1"], outcome="melee"), "A20.55")
    assert "captured in this CCPh" in str(why) and "later CCPh" in str(why)
    phase(game, "CCPh", attacker=DE)
    ok(game, ev.EscapeAttempted(units=["g1"], outcome="melee"))


def test_a_prisoner_captured_this_ccph_is_not_offered_escape():
    from stockade.core.commands.offers import offers
    from stockade.core.reads.queries import escapers

    game = _captured_this_ccph()
    assert not [o.line for o in offers(game.state) if o.line.startswith("escape")]
    [g1] = [c for c in escapers(game.state) if c.handle == "g1"]
    assert not g1.legal and "captured in this CCPh" in g1.why
