"""A prisoner never goes free silently: when its Guard is captured, surrenders or is
eliminated with none to take over, the reply names it, how it went free and why (the
rule, and Stockade's ruling where the rules are silent), read from the write's Change."""

from __future__ import annotations

from stockade.core.commands import execute
from stockade.core.model import events as ev
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
