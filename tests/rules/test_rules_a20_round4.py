"""Right to the rule, round 4: simultaneous capture (A20.221), rearming by size
(A20.551), one escape attempt per prisoner per CCPh (A20.55), and every refusal naming
its rule. Each requirement with an allowed and a refused case, or its automatic effect,
citing its rule; the panels, pickers and completion are asked the same questions in
tests/reads/test_queries_round4.py."""

from __future__ import annotations

from stockade.core.commands import execute, plan
from stockade.core.model import events as ev
from stockade.core.model.tracked_unit import ACTIVE, PRISONER, UNARMED
from tests.rules.kit import DE, US, add, new_game, ok, phase, refused, status, u, with_prisoners


# ------------------------------------------- A20.221: both sides capture in one CC
def _face_to_face(*extra: tuple[str, str, str, str]):
    """An American 7-4-7 squad a1 and a German 4-6-7 squad g1 alone in X5 (plus
    ``extra`` units there), in the American CCPh."""
    game = new_game()
    add(game, "a1", US, "squad", "7-4-7", "X5")
    add(game, "g1", DE, "squad", "4-6-7", "X5")
    for handle, side, kind, counter in extra:
        add(game, handle, side, kind, counter, "X5")
    phase(game, "CCPh")
    return game


def test_a20_221_both_captures_of_one_simultaneous_cc_are_recorded():
    game = _face_to_face()
    ok(game, ev.Captured(guard="a1", units=["g1"]))
    # g1 attacked in the same simultaneous CC: its capture of a1 is recorded too
    ok(game, ev.Captured(guard="g1", units=["a1"]))


def test_a20_221_sides_that_capture_each_other_are_exchanged_for_green_conscript_in_melee():
    # 004 A20.221, second sentence; the article's Example 10 (sample game ex10, `mutual`)
    game = _face_to_face()
    execute(game, "capture g1 by a1")
    outcome = execute(game, "capture a1 by g1")
    a1, g1 = u(game, "a1"), u(game, "g1")
    assert (a1.status, a1.armed, a1.counter, a1.guard) == (ACTIVE, True, "5-4-6", None)
    assert (g1.status, g1.armed, g1.counter, g1.guard) == (ACTIVE, True, "4-3-6", None)
    assert a1.melee and g1.melee and a1.location == g1.location == "X5"
    assert "A20.221" in outcome.message and "Green/Conscript" in outcome.message
    assert "Melee" in outcome.message
    # the same state as the one-entry `mutual a1 g1` of Example 10
    other = _face_to_face()
    execute(other, "mutual a1 g1")
    for h in ("a1", "g1"):
        mine, theirs = u(game, h), u(other, h)
        assert (mine.status, mine.counter, mine.melee) == (theirs.status, theirs.counter, True)
    assert not game.state.casualties  # nobody lost, nobody guarded


def test_a20_221_a_side_wholly_captured_makes_no_capture_but_the_other_sides_stands():
    # a2 is still there: the American capture of g1 stands; the German side was wholly
    # captured, so its capture of a1 is ineffectual and a1 stays as it was
    game = _face_to_face(("a2", US, "squad", "6-6-7"))
    ok(game, ev.Captured(guard="a1", units=["g1"]))
    outcome = execute(game, "capture a1 by g1")
    a1, g1 = u(game, "a1"), u(game, "g1")
    assert (a1.status, a1.armed, a1.counter) == (ACTIVE, True, "7-4-7")
    assert (g1.status, g1.guard) == (PRISONER, "a1")
    assert "g1's capture of a1 is ineffectual" in outcome.message
    assert "a1 stays as it was (A20.221)" in outcome.message
    assert outcome.change is not None and not outcome.change.units  # nothing changed


def test_a20_221_only_a_unit_captured_in_this_ccph_still_attacks():
    game = _face_to_face()
    ok(game, ev.Captured(guard="a1", units=["g1"]))
    phase(game, "CCPh", attacker=DE)  # a later CCPh: g1 is a prisoner, nothing more
    why = refused(game, ev.Captured(guard="g1", units=["a1"]), "A20.5")
    assert "prisoner" in why.text


def test_a20_221_a_wholly_captured_sides_capture_of_a_third_unit_is_ineffectual():
    game = _face_to_face(("a2", US, "squad", "6-6-7"))
    ok(game, ev.Captured(guard="a1", units=["g1"]))
    # g1 attacked a2 in the same simultaneous CC; the Germans were wholly captured, so
    # a2 stays as it was, and a1's capture of g1 stands (the Americans still have a1)
    ok(game, ev.Captured(guard="g1", units=["a2"]))
    a2, g1 = u(game, "a2"), u(game, "g1")
    assert (a2.status, a2.armed, a2.counter) == (ACTIVE, True, "6-6-7")
    assert (g1.status, g1.guard) == (PRISONER, "a1")


def test_a20_221_a_capture_back_stands_while_its_side_still_fights_there():
    # both sides keep a unit in X5: both captures stand. a1, captured, frees g1 (a Guard
    # that is itself captured frees its own prisoners: Stockade's ruling, Captured
    # Guard); g1 is no Guard, so g2 takes the Guard position over a1 (A20.5)
    game = _face_to_face(("a2", US, "squad", "6-6-7"), ("g2", DE, "squad", "4-6-7"))
    ok(game, ev.Captured(guard="a1", units=["g1"]))
    ok(game, ev.Captured(guard="g1", units=["a1"]))
    a1, g1 = u(game, "a1"), u(game, "g1")
    assert (a1.status, a1.guard) == (PRISONER, "g2")
    assert g1.status == UNARMED and g1.unarmed_how == "escaped"


def test_a20_221_the_entry_that_completes_a_mutual_capture_says_what_changed():
    game = _face_to_face()
    ok(game, ev.Captured(guard="a1", units=["g1"]))
    outcome = execute(game, "capture a1 by g1")
    assert outcome.change is not None
    said = {(c.handle, c.field) for c in outcome.change.units}
    assert {("a1", "counter"), ("g1", "counter"), ("a1", "melee"), ("g1", "melee")} <= said


# ---------------------------------------------------- A20.551: rearming by size
def _squad_beside_a_dead_hs_guard():
    """g1, an unarmed German squad, attacked and eliminated its broken American HS Guard
    a1 in CC (the article's Example 17, with the 8-1 left out)."""
    game = with_prisoners(guard_kind="hs", guard_counter="3-4-7")
    phase(game, "PFPh", attacker=DE)
    status(game, "a1", broken=True)
    phase(game, "CCPh", attacker=DE)
    ok(game, ev.EscapeAttempted(units=["g1"], guard_eliminated=True, outcome="escaped"))
    return game


def test_a20_551_an_unarmed_squad_is_not_rearmed_by_a_hs_it_eliminated():
    game = _squad_beside_a_dead_hs_guard()
    why = refused(game, ev.Rearmed(handle="g1", how="cc", enemy="a1"), "A20.551")
    assert "equal or smaller size" in why.text
    # nothing splits it either: the old armed HS + unarmed HS is refused too
    split = ev.Rearmed(handle="g1", how="cc", enemy="a1", split_into=["g3", "g4"])
    refused(game, split, "A20.551")
    assert u(game, "g1").status == UNARMED and u(game, "g1").unit_kind == "squad"


def test_a20_551_the_rearm_verb_makes_no_split():
    game = _squad_beside_a_dead_hs_guard()
    (record,) = plan("rearm g1 cc a1", game.state).events
    assert isinstance(record, ev.Rearmed) and not record.split_into
    why = refused(game, record, "A20.551")
    assert "equal or smaller size" in why.text


def test_a20_551_a_hs_is_rearmed_by_an_armed_enemy_of_its_size_or_larger():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g1", DE, "hs", "2-4-7", broken=True)
    phase(game, "RtPh")
    ok(game, ev.Surrendered(units=["g1"], guard="a1"))
    phase(game, "APh")
    ok(game, ev.Abandoned(units=["g1"]))  # g1: a free unarmed German HS in Q4
    status(game, "a1", location="R9")
    add(game, "a3", US, "squad", "6-6-7")
    phase(game, "CCPh", attacker=DE)
    ok(game, ev.Eliminated(handle="a3", cause="cc"))
    ok(game, ev.Rearmed(handle="g1", how="cc", enemy="a3"))  # HS <= squad
    assert (u(game, "g1").status, u(game, "g1").counter) == (ACTIVE, "2-3-6")


def test_a20_551_an_unarmed_squad_cannot_capture_only_hs_it_would_not_be_rearmed_by():
    # the capture needs an armed Guard (A20.5): a squad a HS cannot rearm stays unarmed,
    # so it cannot guard what it took (Stockade's ruling, Unarmed captor)
    game = with_prisoners()
    phase(game, "APh")
    ok(game, ev.Abandoned(units=["g1"]))
    status(game, "a1", location="R9")
    add(game, "a2", US, "hs", "3-3-7", "Q4")
    phase(game, "CCPh", attacker=DE)
    why = refused(game, ev.Captured(guard="g1", units=["a2"]), "A20.551")
    assert "Unarmed captor" in why.text and "eliminate a2 by cc" in why.hint
    (record,) = plan("capture a2 by g1", game.state).events
    assert isinstance(record, ev.Captured) and not record.rearm_split


# ---------------------------------------- A20.55: one escape attempt per CCPh
def _broken_guard_in_ccph():
    game = with_prisoners()
    status(game, "a1", broken=True)
    phase(game, "CCPh", attacker=DE)
    return game


def test_a20_55_a_prisoner_that_failed_its_ntc_makes_no_second_attempt_that_ccph():
    game = _broken_guard_in_ccph()
    ok(game, ev.EscapeAttempted(units=["g1"], ntc_failed=["g1"], outcome="no-effect"))
    again = ev.EscapeAttempted(units=["g1"], ntc_failed=["g1"], outcome="no-effect")
    why = refused(game, again, "A20.55")
    assert "already attempted escape in this CCPh" in why.text and "later CCPh" in why.text
    kill = ev.EscapeAttempted(units=["g1"], guard_eliminated=True, outcome="escaped")
    refused(game, kill, "A20.55")
    refused(game, ev.EscapeAttempted(units=["g1"], outcome="melee"), "A20.55")
    assert u(game, "g1").status == PRISONER


def test_a20_55_a_later_ccph_may_try_again():
    game = _broken_guard_in_ccph()
    ok(game, ev.EscapeAttempted(units=["g1"], ntc_failed=["g1"], outcome="no-effect"))
    phase(game, "CCPh", attacker=US, turn=2)
    ok(game, ev.EscapeAttempted(units=["g1"], guard_eliminated=True, outcome="escaped"))
    assert u(game, "g1").status == UNARMED


def test_a20_55_a_prisoner_left_out_of_an_attempt_may_still_make_its_own():
    game = with_prisoners(n=2)
    status(game, "a1", broken=True)
    phase(game, "CCPh", attacker=DE)
    ok(game, ev.EscapeAttempted(units=["g1"], ntc_failed=["g1"], outcome="no-effect"))
    ok(game, ev.EscapeAttempted(units=["g2"], outcome="melee"))
    assert u(game, "g2").melee


# ------------------------------------------------ every refusal names its rule
def test_a20_51_an_exchange_of_hs_under_two_guards_names_its_rule():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "a2", US, "squad", "6-6-7")
    add(game, "g1", DE, "hs", "2-4-7", broken=True)
    add(game, "g2", DE, "hs", "2-4-7", broken=True)
    phase(game, "RtPh")
    ok(game, ev.Surrendered(units=["g1"], guard="a1", others_why="g2 surrenders to a2"))
    ok(game, ev.Surrendered(units=["g2"], guard="a2", others_why="g1 is a1's"))
    phase(game, "RPh", turn=2)
    why = refused(game, ev.Exchanged(parts=["g1", "g2"], into="g9"), "A20.51")
    assert "different Guards" in why.text
