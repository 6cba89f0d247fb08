"""Requirements of the A20 conformance matrix (core/data/conformance.toml) that no
other test proved while citing their rule: each test here expects the refusal, or the
effect, with the rule id the program gives (or, where the program shows no rule for an
effect, states the rule in its assertion)."""

from __future__ import annotations

from stockade.core.commands import execute
from stockade.core.model import events as ev
from stockade.core.model.tracked_unit import ACTIVE, PRISONER, UNARMED
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


def _lines(game, handle):
    return [c for c in game.state.casualties if c.unit == handle]


def test_a20_21_surrender_makes_the_unit_that_captors_prisoner_and_says_so():
    game = new_game()
    execute(game, "add American 6-6-7 at Q4")
    execute(game, "add German 4-6-7 at Q5 broken")
    execute(game, "phase rtph")
    message = execute(game, "surrender g1 to a1").message
    assert message.startswith("Germans 4-6-7 (g1) surrendered to Americans 6-6-7 (a1)")
    assert "[A20.21]" in message
    assert u(game, "g1").status == PRISONER and u(game, "g1").guard == "a1"


def test_a20_21_failure_to_rout_is_no_no_quarter():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g2", DE, "squad", "4-6-7")  # in Melee with a1 in Q4 (A11)
    status(game, "a1", melee=True)
    add(game, "g1", DE, "squad", "4-6-7", "Q5", broken=True)
    phase(game, "RtPh")
    refused(game, ev.Surrendered(units=["g1"], guard="a1"), "A20.21")  # captor in Melee
    ok(game, ev.Eliminated(handle="g1", cause="rout", by_side=US))
    assert not game.state.sides[US].no_quarter, "A20.21: no No Quarter penalty"


def test_a20_22_one_hs_only_of_a_squad():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g1", DE, "hs", "2-4-7")
    add(game, "g2", DE, "squad", "4-6-7")
    phase(game, "CCPh")
    split = ev.Captured(guard="a1", split="g1", hs_captured="g8", hs_free="g9")
    refused(game, split, "A20.22")  # a HS is taken whole
    ok(game, ev.Captured(guard="a1", split="g2", hs_captured="g8", hs_free="g9"))
    assert u(game, "g8").status == PRISONER and u(game, "g9").status == ACTIVE


def test_a20_221_both_sides_rearmed_stay_in_melee():
    game = with_prisoners()  # American a1 guards German g1 in Q4
    add(game, "g2", DE, "squad", "4-6-7")
    phase(game, "RtPh", attacker=DE)
    ok(game, ev.Surrendered(units=["a1"], guard="g2", reason="hob"))  # a1's g1 freed
    add(game, "a5", US, "squad", "6-6-7", broken=True)
    phase(game, "RtPh")
    ok(game, ev.Surrendered(units=["a5"], guard="g2", reason="hob"))
    phase(game, "CCPh")
    # g2 and an American squad wiped each other out; what is left: a1, a5 and g1
    message = execute(game, "mutual a1 a5 g1").message
    assert "[A20.221]" in message
    assert all(u(game, h).melee and u(game, h).armed for h in ("a1", "a5", "g1"))


def test_a20_3_the_other_sides_acceptance_is_unaffected():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g1", DE, "squad", "4-6-7", "Q5", broken=True)
    add(game, "g2", DE, "squad", "4-6-7", "Q6")
    add(game, "a2", US, "squad", "6-6-7", "Q7", broken=True)
    add(game, "g3", DE, "squad", "4-6-7", "Q8", broken=True)
    phase(game, "RtPh")
    ok(game, ev.SurrenderRejected(units=["g1"], by_side=US))
    refused(game, ev.Surrendered(units=["g3"], guard="a1"), "A20.3")
    ok(game, ev.Surrendered(units=["a2"], guard="g2"))  # Germans may still accept


def test_a20_4_massacre_books_the_victims_and_raises_the_enemy_elr():
    game = _russians_holding_g1()
    ok(game, ev.Massacred(units=["g1"], by="r1"))
    [line] = _lines(game, "g1")
    assert line.rule == "A20.4" and line.multiplier == 1
    assert game.state.sides[DE].elr == 4 and game.state.sides["RU"].no_quarter


def _russians_holding_g1():
    from stockade.core.book.game import Game

    game = Game.in_memory("M", [ev.SideSpec("RU", "Russian", 4), ev.SideSpec(DE, "German", 3)])
    add(game, "r1", "RU", "squad", "4-4-7")
    add(game, "g1", DE, "squad", "4-6-7", broken=True)
    phase(game, "RtPh", "RU")
    ok(game, ev.Surrendered(units=["g1"], guard="r1"))
    phase(game, "PFPh", "RU", 2)
    return game


def test_a20_5_captured_as_an_unarmed_counter_of_its_size():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g1", DE, "squad", "4-6-7", "Q5", broken=True)
    add(game, "c1", DE, "crew", "2-2-8", "Q6", broken=True)
    phase(game, "RtPh")
    ok(game, ev.Surrendered(units=["g1"], guard="a1"))
    ok(game, ev.Surrendered(units=["c1"], guard="a1"))
    g1, c1 = u(game, "g1"), u(game, "c1")
    assert (g1.counter, g1.us, g1.armed) == ("(1)-0-6", 3, False), "A20.5: unarmed squad"
    assert (c1.counter, c1.us, c1.unit_kind) == ("(1)-0-6", 2, "hs"), "A20.5: unarmed HS"


def test_a20_5_crews_are_kept_on_the_side_record_for_vp():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "c1", DE, "crew", "2-2-8", broken=True)
    phase(game, "RtPh")
    ok(game, ev.Surrendered(units=["c1"], guard="a1"))
    ok(game, ev.GameEnded())
    [line] = _lines(game, "c1")
    assert (line.rule, line.base, line.multiplier, line.unit_kind) == ("A20.1", 2, 2, "crew")


def test_a20_5_no_enemy_left_the_prisoners_go_free():
    game = with_prisoners()
    message = execute(game, "eliminate a1 by sniper takeover -").message
    first, *freed = message.splitlines()
    assert first.endswith("its prisoners go free [A20.5]")
    assert [line.split()[0] for line in freed] == ["g1"]  # each one named
    assert u(game, "g1").status == UNARMED


def test_a20_51_a_captured_crew_is_an_unarmed_hs_exchanged_like_one():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "c1", DE, "crew", "2-2-8", broken=True)
    add(game, "g2", DE, "hs", "2-4-7", broken=True)
    phase(game, "RtPh")
    ok(game, ev.Surrendered(units=["c1", "g2"], guard="a1"))
    message = execute(game, "exchange c1 g2 as g9").message
    assert "exchanged for one squad (g9) [A20.51]" in message
    assert u(game, "g9").unit_kind == "squad"
    assert u(game, "g9").origin_cvp == 2 + 1  # the crew is still remembered for VP (A20.5)


def test_a20_54_cc_against_the_guard_leaves_its_prisoners():
    game = with_prisoners()
    add(game, "a2", US, "squad", "6-6-7")
    phase(game, "CCPh", attacker=DE)
    ok(game, ev.Eliminated(handle="a1", cause="cc", takeover="a2"))
    g1 = u(game, "g1")
    assert g1.status == PRISONER and g1.guard == "a2", "A20.54: CC vs the Guard spares them"
    assert not _lines(game, "g1")


def test_a20_55_an_escaped_prisoner_counts_only_if_eliminated_later():
    game = with_prisoners()
    status(game, "a1", broken=True)
    phase(game, "CCPh", attacker=DE)
    ok(game, ev.EscapeAttempted(units=["g1"], guard_eliminated=True, outcome="escaped"))
    assert not _lines(game, "g1")
    ok(game, ev.Eliminated(handle="g1", cause="fire-enemy", by_side=US))
    [line] = _lines(game, "g1")
    assert (line.rule, line.multiplier, line.base) == ("A20.55", 1, 2)


def test_a20_55_ex_a_prisoner_that_does_not_attack_stays_guarded():
    """A20.55 EX: a 2-4-7 HS and a broken crew Guard with three prisoner squads; two
    pass the NTC; neither side succeeds: Melee; the third squad stays under guard; next
    CCPh one withdraws."""
    game = new_game(us="Russian")
    add(game, "g1", DE, "hs", "2-4-7", "Q4")
    add(game, "g2", DE, "crew", "2-2-8", "Q4")
    for handle in ("a1", "a2", "a3"):
        add(game, handle, US, "squad", "4-4-7", "Q5", broken=True)
    phase(game, "RtPh", attacker=DE)
    ok(game, ev.Surrendered(units=["a1", "a2", "a3"], guard="g2"))
    status(game, "g2", broken=True)
    phase(game, "CCPh", attacker=US)
    message = execute(game, "escape a1 a2 a3 ntcfail a3 melee").message
    assert message.endswith("[A20.55]")
    assert u(game, "a1").melee and u(game, "a2").melee and u(game, "g2").melee
    a3 = u(game, "a3")
    assert a3.status == PRISONER and a3.guard == "g2", "A20.55 EX: not involved at all"
    phase(game, "CCPh", attacker=US, turn=2)
    ok(game, ev.EscapedBy(units=["a1"], route="withdrawal"))
    assert u(game, "a1").status == UNARMED and u(game, "a2").status == PRISONER


def test_a20_552_scrounging_asks_for_an_unknown_counter():
    game = new_game()
    add(game, "g1", DE, "squad", "4-6-7")
    add(game, "a1", US, "hs", "3-3-7", broken=True)
    phase(game, "RtPh", attacker=DE)
    ok(game, ev.Surrendered(units=["a1"], guard="g1"))
    phase(game, "APh", attacker=DE)
    ok(game, ev.Abandoned(units=["a1"]))
    phase(game, "MPh", attacker=US, turn=2)
    refused(game, ev.Scrounged(handle="a1", roll=2), "A20.551")  # no American HS known
    ok(game, ev.Scrounged(handle="a1", roll=2, counter="3-3-6"))
    assert u(game, "a1").counter == "3-3-6" and u(game, "a1").armed
