"""A prisoner never goes free or changes Guard silently: when its Guard is captured,
surrenders or is eliminated with none to take over, the reply names it, how it went
free and why (the rule, and Stockade's ruling where the rules are silent); when another
Guard takes it over without the player naming it, the reply says who holds it now and
why. Both read from the write's Change."""

from __future__ import annotations

import pytest

from stockade.core.commands import execute
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal
from tests.rules.kit import DE, US, add, ok, phase, status, with_prisoners


def test_a_captured_guard_frees_its_prisoner_and_the_reply_says_so():
    game = with_prisoners()  # a1 guards g1
    add(game, "g2", DE, "squad", "4-6-7")
    phase(game, "CCPh", attacker=DE)
    out = execute(game, "capture a1 by g2")
    [freed] = out.change.freed
    assert (freed.handle, freed.guard, freed.ruling) == ("g1", "a1", "Captured Guard")
    assert (
        "g1 goes free, escaped (unarmed): its Guard a1 is now a prisoner "
        "[A20.5; Stockade's ruling 'Captured Guard'" in out.message
    )


def test_a_guard_that_surrenders_frees_its_prisoner_and_the_reply_says_so():
    game = with_prisoners()  # a1 guards g1, American RtPh
    add(game, "g2", DE, "squad", "4-6-7", "Q5")
    status(game, "a1", broken=True)
    phase(game, "RtPh", attacker=DE)
    out = execute(game, "surrender a1 to g2")
    assert [f.handle for f in out.change.freed] == ["g1"]
    assert "g1 goes free" in out.message and "'Captured Guard'" in out.message


def test_a_guard_eliminated_with_none_to_take_over_frees_its_prisoner_in_the_reply():
    game = with_prisoners()
    phase(game, "PFPh", attacker=DE)
    out = execute(game, "eliminate a1 takeover -")
    [freed] = out.change.freed
    assert freed.ruling == "Guard eliminated"
    assert "g1 goes free, escaped (unarmed): its Guard a1 was eliminated" in out.message


def test_a_guard_taken_over_frees_no_one():
    game = with_prisoners()
    add(game, "a2", US, "squad", "6-6-7", "Q4")
    phase(game, "PFPh", attacker=DE)
    out = execute(game, "eliminate a1 takeover a2")
    assert out.change.freed == [] and "goes free" not in out.message
    [handed] = out.change.handed
    assert (handed.handle, handed.guard, handed.to) == ("g1", "a1", "a2")
    assert "g1 is held by a2 now: its Guard a1 was eliminated; a2 took over [A20.5]" in (
        out.message
    )


def test_a_transfer_names_its_own_prisoners_once():
    game = with_prisoners()
    add(game, "a2", US, "squad", "6-6-7", "Q5")
    out = execute(game, "transfer g1 to a2")
    assert out.change.handed == [] and "held by" not in out.message


def test_a_deployed_guard_says_which_hs_holds_each_prisoner():
    game = with_prisoners()
    out = execute(game, "deploy a1 as a1a a1b")
    [handed] = out.change.handed
    assert (handed.handle, handed.to) == ("g1", "a1a")
    assert "g1 is held by a1a now: its Guard a1 deployed into a1a+a1b; a prisoner not sent to" in (
        out.message
    )


def test_an_escape_names_its_own_escapers_once():
    game = with_prisoners()
    ok(game, ev.StatusChanged(handle="a1", broken=True))
    phase(game, "CCPh", attacker=DE)
    out = execute(game, "escape g1 guard-dies")
    assert out.change.freed == [] and "goes free" not in out.message


def test_a_redone_capture_names_the_prisoner_it_frees_again():
    game = with_prisoners()
    add(game, "g2", DE, "squad", "4-6-7")
    phase(game, "CCPh", attacker=DE)
    execute(game, "capture a1 by g2")
    execute(game, "undo")
    out = execute(game, "redo")
    assert [f.ruling for f in out.change.freed] == ["Captured Guard"]
    assert "g1 goes free, escaped (unarmed): its Guard a1 is now a prisoner" in out.message


def test_a_guard_split_by_a_capture_names_the_prisoners_its_free_hs_cannot_keep():
    from tests.rules.kit import new_game

    game = new_game()
    add(game, "g1", DE, "squad", "4-6-7", "Q4")
    for i in (1, 2, 3, 4):
        add(game, f"a{i}", US, "squad", "6-6-7", "Q4", broken=True)
    phase(game, "RtPh", attacker=US)
    execute(game, "surrender a1 a2 a3 a4 to g1")  # US# 12: more than a HS may guard
    add(game, "a9", US, "squad", "6-6-7", "Q4")
    phase(game, "CCPh", attacker=US)
    out = execute(game, "capture hs g1 by a9")
    assert [(f.guard, f.ruling) for f in out.change.freed] == [("g1", "Captured Guard")]
    freed = out.change.freed[0].handle
    said = f"{freed} goes free, escaped (unarmed): its Guard g1 was split by a capture"
    assert said in out.message
    kept = [h for h in ("a1", "a2", "a3", "a4") if h != freed]
    free_hs = out.change.handed[0].to
    assert [(h.handle, h.guard, h.to) for h in out.change.handed] == [
        (h, "g1", free_hs) for h in kept
    ]
    for h in kept:
        assert f"{h} is held by {free_hs} now: its Guard g1 was split by a capture" in out.message


def test_a_split_guard_standing_whole_again_takes_back_what_its_free_hs_held():
    from tests.rules.kit import new_game

    game = new_game()
    add(game, "g1", DE, "squad", "4-6-7", "Q4")
    for i in (1, 2):
        add(game, f"a{i}", US, "squad", "6-6-7", "Q4", broken=True)
    phase(game, "RtPh", attacker=US)
    execute(game, "surrender a1 a2 to g1")
    add(game, "a9", US, "squad", "6-6-7", "Q4")
    phase(game, "CCPh", attacker=US)
    split = execute(game, "capture hs g1 by a9")
    free_hs = split.change.handed[0].to
    assert [(h.handle, h.to) for h in split.change.handed] == [("a1", free_hs), ("a2", free_hs)]
    out = execute(game, "eliminate a9 by cc")  # A20.221: the capture of g1's HS is void
    assert [(h.handle, h.guard, h.to, h.rule) for h in out.change.handed] == [
        ("a1", free_hs, "g1", "A20.221"),
        ("a2", free_hs, "g1", "A20.221"),
    ]
    assert "a1 is held by g1 now: g1 stands whole again" in out.message
    # the captured HS left play as g1 stood whole: it is not a prisoner set free
    assert out.change.freed == [] and "goes free" not in out.message


def test_a_prisoner_killed_by_its_own_sides_fire_is_not_told_as_freed():
    game = with_prisoners(n=2)  # a1 guards g1 and g2
    phase(game, "PFPh", attacker=DE)
    out = execute(game, "eliminate g1 by own")
    assert game.state.units["g1"].status == "eliminated"
    assert game.state.units["g2"].guard == "a1"  # the other prisoner is still held
    assert out.change.freed == [] and "goes free" not in out.message


def test_a_massacred_prisoner_is_not_told_as_freed():
    game = with_prisoners(n=2)  # a1 guards g1 and g2
    add(game, "a2", US, "squad", "6-6-7", "Q4")
    status(game, "a2", berserk=True)  # a berserk unit must Massacre them (A20.4)
    phase(game, "PFPh", attacker=US)
    out = execute(game, "massacre g1 g2 by a2")
    assert {game.state.units[h].status for h in ("g1", "g2")} == {"eliminated"}
    assert out.change.freed == [] and "goes free" not in out.message


def _captured_each_other():
    from tests.rules.kit import new_game

    game = new_game()
    add(game, "g1", DE, "squad", "4-6-7", "Q4")
    add(game, "a1", US, "squad", "6-6-7", "Q4")
    phase(game, "CCPh", attacker=US)
    execute(game, "capture g1 by a1")
    return game


def test_sides_that_captured_each_other_are_told_exchanged_not_given_back():
    game = _captured_each_other()
    out = execute(game, "capture a1 by g1")  # A20.221: both wholly captured
    g1 = game.state.units["g1"]
    assert g1.armed and g1.guard is None and g1.melee
    [freed] = out.change.freed
    assert (freed.handle, freed.rule) == ("g1", "A20.221")
    assert "exchanged for" in freed.how and "captured each other" in freed.why
    assert "void" not in out.message and "given back" not in out.message
    # told once, by the entry's own line for it
    assert [line for line in out.message.splitlines() if "g1 " in line and "A20.221" in line] == [
        f"  g1 is {g1.side} {g1.counter}, armed: A20.221: all units in Q4 captured each other "
        "in simultaneous CC; exchanged for its Green/Conscript counter (A20.551); both sides "
        "remain in Melee"
    ]
    execute(game, "undo")
    redone = execute(game, "redo")  # the redo's reply has only the freed line to tell it
    assert (
        f"g1 goes free, exchanged for {g1.counter} (Green/Conscript), armed: all units in Q4 "
        "captured each other in simultaneous CC [A20.221]" in redone.message
    )


def test_a_mutual_capture_names_its_own_units_once():
    from tests.rules.kit import new_game

    game = new_game()
    add(game, "g1", DE, "squad", "4-6-7", "Q4", broken=True)
    add(game, "a1", US, "squad", "6-6-7", "Q4")
    add(game, "a2", US, "squad", "6-6-7", "Q4")
    phase(game, "RtPh", attacker=US)
    execute(game, "surrender g1 to a1")
    phase(game, "CCPh", attacker=US)
    out = execute(game, "mutual g1 a2")
    assert out.change.freed == [] and "goes free" not in out.message
    assert "void" not in out.message


def test_the_only_unit_able_to_take_over_is_implied_not_asked_for():
    game = with_prisoners()  # a1 guards g1 in Q4
    add(game, "a2", US, "squad", "6-6-7", "Q4")
    phase(game, "PFPh", attacker=DE)
    out = execute(game, "eliminate a1")
    [record] = out.records
    assert isinstance(record, ev.Eliminated) and record.takeover == "a2"
    assert game.state.units["g1"].guard == "a2"
    assert out.message.splitlines()[0] == (
        "implied: a2 takes over the prisoners of a1, the only unit there able to (A20.5)"
    )


def test_a_choice_of_units_to_take_over_is_still_asked_for():
    game = with_prisoners()
    add(game, "a2", US, "squad", "6-6-7", "Q4")
    add(game, "a3", US, "squad", "6-6-7", "Q4")
    phase(game, "PFPh", attacker=DE)
    with pytest.raises(Refusal) as refused:
        execute(game, "eliminate a1")
    assert refused.value.rule == "A20.5" and "a2, a3" in str(refused.value)
