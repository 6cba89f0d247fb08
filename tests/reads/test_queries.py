"""The core's pick-list queries (core.reads.queries), the roster projection (core.reads.roster) and
the CC capture entry (core.rules.cc_table.capture_entry): who may be picked, with the rule."""

from __future__ import annotations

from stockade.core.book.game import Game
from stockade.core.commands import execute, plan
from stockade.core.model import events as ev
from stockade.core.reads import queries
from stockade.core.reads.roster import roster
from stockade.core.rules.cc_table import ALL_CAPTURED, capture_entry, capture_result, defenders_in
from tests.reads.kit import PLAYTHROUGH_APH


def game_with(*lines: str, strict: bool = False) -> Game:
    game = Game.in_memory(
        "test",
        [ev.SideSpec("German", "German", 3), ev.SideSpec("American", "American", 4)],
        strict=strict,
    )
    for line in lines:
        execute(game, line)
    return game


UNITS = [
    "add German 4-6-7 as g1 at Q4",
    "add German 4-6-7 as g2 at Q4 broken",
    "add German 4-6-7 as g3 at R9",
    "add American 6-6-6 as a1 at Q4",
    "add American 6-6-6 as a2 at Q4",
    "add American 6-6-6 as a3 at T1",
]


def by_handle(choices):
    return {c.handle: c for c in choices}


def test_cc_capture_never_offers_the_attackers_own_side_or_itself():
    game = game_with(*UNITS, "phase CCPh 1 American", strict=True)  # g3 moves by no entry
    choices = queries.capture_defenders(game.state, "a1")
    found = by_handle(choices)
    assert "a1" not in found  # the attacker itself
    assert not found["a2"].legal and "captor's side" in found["a2"].reason
    assert found["g1"].legal and found["g2"].legal
    assert not found["g3"].legal and found["g3"].rule == "A20.22"  # another Location
    assert [c.handle for c in choices][:2] == ["g1", "g2"]  # legal first, by handle


def test_takeover_offers_only_friendly_units_in_the_location():
    game = game_with(
        *UNITS,
        "add American 6-6-6 as a4 at Q4 broken",
        "phase RtPh 1 American",
        "surrender g2 to a1",
        strict=True,  # a3 (in T1) and a4 (broken) are taken as the book holds them
    )
    found = by_handle(queries.takeover_guards(game.state, "a1"))
    legal = {h for h, c in found.items() if c.legal}
    assert legal == {"a2"}
    assert "in T1" in found["a3"].reason  # another Location
    assert not found["g1"].legal  # an enemy
    assert not found["a1"].legal  # the dying Guard itself
    assert "broken" in found["a4"].reason


def test_rearm_offers_the_guard_the_prisoner_just_killed():
    game = game_with(
        "add German 4-6-7 as g1 at Q4 broken",
        "add American 6-6-6 as a1 at Q4",
        "phase RtPh 1 American",
        "surrender g1 to a1",
        "break a1",
        "phase CCPh 1 German",
        "escape g1 guard-dies",
    )
    assert game.state.units["a1"].status == "eliminated"
    found = by_handle(queries.rearm_enemies(game.state, "g1", "cc"))
    assert found["a1"].legal, found["a1"].why
    execute(game, "rearm g1 cc a1 as 4-3-6")
    assert game.state.units["g1"].armed


def test_surrender_captors_are_the_other_side_with_the_rule():
    game = game_with(*UNITS, "phase RtPh 1 American")
    found = by_handle(queries.surrender_captors(game.state, ["g2"]))
    assert set(found) == {"a1", "a2", "a3"}
    assert all(c.legal for c in found.values())
    # typed in the MPh, ``surrender g2 to a1`` moves the clock to this RtPh and is
    # accepted: the list judges it there too
    game = game_with(*UNITS, "phase MPh 1 American")
    assert all(c.legal for c in queries.surrender_captors(game.state, ["g2"]))
    game = game_with(*UNITS, "phase APh 1 American")  # the RtPh is past: never back
    refused = queries.surrender_captors(game.state, ["g2"])
    assert not any(c.legal for c in refused) and refused[0].rule == "A20.21"


def test_transfer_guards_judged_by_the_transfer_check():
    game = game_with(
        *UNITS, "phase RtPh 1 American", "surrender g2 to a1", "phase APh 1 American", strict=True
    )
    found = by_handle(queries.transfer_guards(game.state, ["g2"]))
    assert found["a2"].legal and found["a2"].same_location
    assert not found["a1"].legal  # already guards it
    assert not found["a3"].legal and "T1" in found["a3"].reason


def test_roster_lists_every_unit_with_status_and_filters():
    game = game_with(*UNITS, "phase RtPh 1 American", "surrender g2 to a1")
    rows = {r.handle: r for r in roster(game.state)}
    assert rows["g1"].status == "Good Order" and rows["g1"].location == "Q4"
    assert rows["g2"].status == "prisoner of a1"
    assert [r.handle for r in roster(game.state, "prisoner")] == ["g2"]
    assert [r.handle for r in roster(game.state, "T1")] == ["a3"]
    assert [r.handle for r in roster(game.state, "german q4")] == ["g1", "g2"]


def test_capture_entry_at_the_kill_number_takes_one_of_the_defenders_choice():
    game = game_with(
        "add German 2-4-7 hs as g1 at Q4",
        "add German 2-4-7 hs as g2 at Q4",
        "add American 6-6-6 as a1 at Q4",
    )
    # 3-1: Kill# 8; DR 7 + capture DRM +1 = 8: at the Kill Number for both HS.
    results = capture_result("3-1", 7, 0, defenders_in(game.state, ["g1", "g2"]))
    entry = capture_entry(results)
    assert entry.several_at_kill_number and entry.empty
    assert capture_entry(results, "g2").taken == ("g2",)
    below = capture_result("3-1", 6, 0, defenders_in(game.state, ["g1", "g2"]))
    assert all(r.result == ALL_CAPTURED for r in below)
    assert capture_entry(below).taken == ("g1", "g2")


def test_completion_offers_name_counter_and_location():
    from stockade.core.commands.complete import complete, offer_label, offers_line

    game = game_with(*UNITS, "phase RtPh 1 American", "surrender g2 to a1")
    assert offer_label("a3", game.state) == "a3 6-6-6 T1"
    assert offer_label("g2", game.state) == "g2 4-6-7 prisoner Q4"
    assert offer_label("to", game.state) == "to"
    line = offers_line(complete("transfer ", game.state), game.state, width=40)
    assert line.startswith("g2 4-6-7 prisoner Q4") and "more" in line


def test_cc_capture_attackers_leave_out_broken_units_and_offer_free_unarmed_ones():
    """A broken unit may not attack in CC (A11.16), so the capture check refuses it: the
    attacker list greys it with that reason (it offered it). A free unarmed unit may
    capture and is rearmed by it (A20.551): the list offers it (it left it out). In a
    strict game: elsewhere the capture implies a broken attacker rallied, and the list
    still judges the book as it stands."""
    game = game_with(
        *UNITS,
        "add American 6-6-6 as a4 at R5 broken",
        "add German 4-6-7 as g5 at R6",
        "phase RtPh 1 German",
        "surrender a4 to g5",
        "phase APh 1 German",
        "abandon a4",
        "phase CCPh 1 German",
        strict=True,
    )
    found = by_handle(queries.capture_attackers(game.state))
    assert not found["g2"].legal and found["g2"].rule == "A20.22"
    assert "broken" in found["g2"].reason
    assert found["a4"].legal  # unarmed, free, in R6 with the armed g5
    assert found["g1"].legal and found["a1"].legal
    # the capture check agrees with the list, both ways
    execute(game, "capture g5 by a4 as 5-3-6")
    assert game.state.units["g5"].guard == "a4"
    try:
        execute(game, "capture a1 by g2")
    except Exception as refusal:
        assert "broken" in str(refusal)
    else:  # pragma: no cover - the check let a broken unit capture
        raise AssertionError("a broken unit captured")


def _british_game(*lines: str, strict: bool = False) -> Game:
    game = Game.in_memory(
        "test",
        [ev.SideSpec("British", "British", 3), ev.SideSpec("German", "German", 3)],
        strict=strict,
    )
    for line in lines:
        execute(game, line)
    return game


def test_cc_capture_lists_judge_in_the_ccph_the_entry_moves_the_clock_to():
    """In the APh, ``capture g4 g5 by b3`` moves the clock to the CCPh and is accepted;
    the defender list judged it in the APh and refused both (A20.22 "now APh")."""
    game = _british_game(*PLAYTHROUGH_APH)
    assert game.state.phase == "APh"
    found = by_handle(queries.capture_defenders(game.state, "b3"))
    assert found["g4"].legal and found["g5"].legal, (found["g4"].why, found["g5"].why)
    assert game.state.phase == "APh"  # judging moved nothing
    # nor did it tie the units to another tracker: a preview of the entry (the form's
    # verdict: the clock move and the capture, applied and taken back) leaves g4 free
    game.check(list(plan("capture g4 g5 by b3", game.state).events))
    assert game.state.units["g4"].status == "active" and game.state.phase == "APh"
    execute(game, "capture g4 g5 by b3")  # the command agrees
    assert game.state.phase == "CCPh" and game.state.units["g4"].guard == "b3"


def test_cc_capture_attackers_are_only_units_with_an_enemy_they_may_capture():
    """b1 and b2 in Q5 stand only with their own prisoners (not in Melee): the list
    offered them, and all 5 units; only R5 holds a CC now."""
    game = _british_game(*PLAYTHROUGH_APH, strict=True)  # b1, b2 advance by no entry
    found = by_handle(queries.capture_attackers(game.state))
    assert {h for h, c in found.items() if c.legal} == {"b3", "g4", "g5"}
    assert found["b1"].rule == "A20.22" and "Q5" in found["b1"].reason
    assert "not in Melee" in found["b2"].reason


def test_recapture_guards_judged_by_the_recapture_check():
    game = game_with(
        *UNITS,
        "phase RtPh 1 American",
        "surrender g2 to a1",
        "phase APh 1 American",
        "abandon g2",
        strict=True,  # a3 in T1 advances by no entry
    )
    found = by_handle(queries.recapture_guards(game.state, ["g2"]))
    assert found["a2"].legal and found["a2"].same_location  # judged in the CCPh it moves to
    assert not found["g1"].legal and found["g1"].rule  # g2's own side: refused, with its rule
    assert not found["a3"].legal  # in T1, not in g2's Location
    assert queries.recapture_guards(game.state, ["g2"])[0].legal  # the legal ones first
