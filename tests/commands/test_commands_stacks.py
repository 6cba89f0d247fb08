"""Fewer words at the table: ``@LOC`` in a units slot names the stack there (the units
the slot's picks allow, all of one side), and a required slot declared
``fill_when_single`` may be left out when the game allows one value (``rearm g4``).
The command holds the handles, so its line reads back; the reply says what was taken."""

from __future__ import annotations

import pytest

from stockade.core.book.game import Game
from stockade.core.commands import VERBS, complete, execute, help_text, parse, plan, run_script
from stockade.core.commands.fill import filled
from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal


def new_game(lines: list[str], strict: bool = False) -> Game:
    game = Game.in_memory(
        "stacks",
        [ev.SideSpec("British", "British", 4), ev.SideSpec("German", "German", 3)],
        strict=strict,
    )
    run_script(game, lines)
    return game


BOARD = [
    "add German 8-1 4-6-7 2-4-7 hs at P4",
    "add British 6-4-7 4-4-7 at Q4",
    "add British 4-5-7 at R5",
    "add German 4-6-7 4-6-7 at R5",
]


@pytest.fixture
def game() -> Game:
    """German 8-1 g1, 4-6-7 g2, 2-4-7 HS g3 in P4; British 6-4-7 b1, 4-4-7 b2 in Q4;
    British 4-5-7 b3 and German 4-6-7 g4, g5 in R5 (a CC Location)."""
    return new_game(BOARD)


@pytest.fixture
def strict_game() -> Game:
    """``game``, where no entry implies a board fact: a surrender takes only units
    broken in the book."""
    return new_game(BOARD, strict=True)


def reads_back(text: str, game: Game) -> tuple[str, ...]:
    """The handles ``text`` names in its units slot; its canonical line reads back."""
    command = parse(text, game.state)
    assert parse(str(command), game.state) == command
    return command.units  # type: ignore[attr-defined]


# ------------------------------------------------------------------ @LOC in H...
def test_break_at_a_location_breaks_the_stack_there(game):
    assert reads_back("break @P4", game) == ("g1", "g2", "g3")
    assert str(parse("break @p4", game.state)) == "break g1 g2 g3"  # any case
    assert plan("break @p4", game.state).notes == ["@P4: g1 g2 g3"]
    before = len(game.records)
    outcome = execute(game, "break @P4")
    assert outcome.message.splitlines()[0] == "@P4: g1 g2 g3"
    assert outcome.notes == ["@P4: g1 g2 g3"]
    assert len(game.records) - before == 3
    assert [game.state.units[h].broken for h in ("g1", "g2", "g3")] == [True] * 3
    assert not game.state.units["b1"].broken


def test_surrender_at_a_location_takes_the_broken_units_that_may_surrender(game):
    run_script(game, ["break g2 g3", "phase RtPh"])
    assert reads_back("surrender @P4 to b1", game) == ("g2", "g3")  # g1 is not broken
    outcome = execute(game, "surrender @P4 to b1")
    assert outcome.message.startswith("@P4: g2 g3\n")
    assert {u.handle for u in game.state.prisoners_of("b1")} == {"g2", "g3"}


def test_a_stack_names_the_units_the_rules_keep_out_of_it_with_the_rule():
    """SS facing Russians never surrender via the RtPh (A20.21): ``surrender @K5`` takes
    the rest of the stack and says which were left out, and why."""
    game = Game.in_memory(
        "stacks", [ev.SideSpec("German", "German", 3), ev.SideSpec("Russian", "Russian", 3)]
    )
    run_script(
        game,
        [
            "add German 4-6-7 +ss 4-6-7 4-6-7 at K5 broken",
            "add Russian 4-4-7 at K4",
            "phase RtPh 1 Russian",
        ],
    )
    out = execute(game, "surrender @K5 to r1")
    assert out.records[-1].units == ["g2", "g3"]
    assert out.message.splitlines()[0] == (
        "@K5: g2 g3; g1 left out: SS troops facing Russians never surrender via the RtPh (A20.21)"
    )


def test_capture_at_a_location_takes_the_enemies_the_attacker_may_capture(game):
    run_script(game, ["phase CCPh"])
    command = parse("capture @R5 by b3", game.state)
    assert command.units == ("g4", "g5") and str(command) == "capture g4 g5 by b3"
    outcome = execute(game, "capture @R5 by b3")
    assert [r for r in outcome.records if isinstance(r, ev.Captured)][0].units == ["g4", "g5"]


def test_escape_and_transfer_at_a_location_take_the_prisoners_there(game):
    run_script(game, ["phase CCPh", "capture g4 g5 by b3", "add British 4-5-7 at R5"])
    assert reads_back("transfer @R5 to b4", game) == ("g4", "g5")
    run_script(game, ["break b3", "phase CCPh 1 German"])
    command = parse("escape @R5 ntcfail g5 guard-dies", game.state)
    assert str(command) == "escape g4 g5 ntcfail g5 guard-dies"
    assert parse(str(command), game.state) == command


def test_an_escape_at_a_location_typed_before_the_ccph_takes_the_prisoners_there(game):
    # the escape moves the clock to the CCPh (A20.55): the stack is judged there too
    run_script(game, ["phase CCPh", "capture g4 g5 by b3", "break b3", "phase PFPh 1 German"])
    outcome = execute(game, "escape @R5 ntcfail g5 guard-dies")
    assert game.state.phase == "CCPh"
    assert [r.units for r in outcome.records if isinstance(r, ev.EscapeAttempted)] == [["g4", "g5"]]


def test_melee_at_a_location_takes_both_sides_there(game):
    """A Melee is between both sides' units in one Location (A11): ``melee @R5`` takes
    b3 with g4 and g5, where a one-side verb would be refused."""
    assert reads_back("melee @R5", game) == ("b3", "g4", "g5")
    assert plan("melee @R5", game.state).notes == ["@R5: b3 g4 g5"]


def test_melee_at_a_location_of_one_side_is_refused_with_the_rule(game):
    with pytest.raises(InputRefusal) as refused:
        parse("melee @P4", game.state)
    text = str(refused.value)
    assert text.startswith("A11: a Melee is between both sides' units in one Location")
    assert "only German units fit" in text


def test_melee_at_a_location_takes_the_unarmed_units_an_entry_failed_to_recapture():
    """A20.54: unarmed units an entering unit failed to recapture in the MPh are "in
    Melee thereafter": ``melee @R5`` takes the unarmed g1 with b1, not b1 alone."""
    lines = ["add British 4-5-7 at R5", "add German 4-6-7 at R5", "capture g1 by b1"]
    game = new_game([*lines, "turn", "turn", "abandon g1", "phase MPh"])
    assert game.state.units["g1"].status == "unarmed"
    assert set(reads_back("melee @R5", game)) == {"b1", "g1"}


def test_stacks_and_handles_mix_each_unit_once(game):
    assert reads_back("break g3 @P4 @Q4", game) == ("g3", "g1", "g2", "b1", "b2")


def test_a_location_holding_both_sides_is_refused_naming_them_by_side(game):
    with pytest.raises(InputRefusal) as refused:
        parse("break @R5", game.state)
    text = str(refused.value)
    assert "both sides" in text and "British b3 (4-5-7@R5)" in text
    assert "German g4 (4-6-7@R5), g5 (4-6-7@R5)" in text


def test_a_location_with_nothing_that_fits_is_refused_saying_why(strict_game):
    game = strict_game
    with pytest.raises(InputRefusal, match="no unit stands in Z9"):
        parse("break @Z9", game.state)
    run_script(game, ["phase RtPh"])
    with pytest.raises(InputRefusal) as refused:
        parse("surrender @P4 to b1", game.state)
    text = str(refused.value)
    assert "none of the units in P4 fits" in text and "g1 (8-1@P4)" in text
    assert "only broken units surrender" in text


def test_a_single_unit_slot_keeps_at_loc_as_the_one_unit_there(game):
    run_script(game, ["phase CCPh"])
    with pytest.raises(InputRefusal, match="fits 3 units"):
        parse("capture g4 by @R5", game.state)  # one unit: "@R5" must be the only one
    run_script(game, ["add British 9-1 at S1"])
    assert parse("capture g4 by @S1", game.state).by == "b4"


# ------------------------------------------------------------- a left-out slot
def _escaped() -> Game:
    """g4 and g5, prisoners of the British b3 in R5, attack it in the CCPh: g5 fails its
    NTC, g4 eliminates it; only g4 may rearm, and only by CC from b3 (A20.551)."""
    return new_game(
        [
            "add British 4-5-7 at R5",
            "add German 4-6-7 4-6-7 at R5",
            "phase CCPh",
            "capture g1 g2 by b1",
            "break b1",
            "phase CCPh 1 German",
            "escape g1 g2 ntcfail g2 guard-dies",
        ]
    )


def test_rearm_with_one_legal_way_and_enemy_fills_them_in():
    game = _escaped()
    assert parse("rearm g1", game.state) == parse("rearm g1 cc b1", game.state)
    assert parse("rearm g1 cc", game.state) == parse("rearm g1 cc b1", game.state)
    outcome = execute(game, "rearm g1")
    assert outcome.message.splitlines()[0] == (
        "filled in: how cc, armed enemy b1 (the only choice the game allows)"
    )
    rearmed = [r for r in outcome.records if isinstance(r, ev.Rearmed)]
    assert [(r.handle, r.how, r.enemy) for r in rearmed] == [("g1", "cc", "b1")]
    assert plan("rearm g1 cc b1", game.state).notes == []


def test_rearm_with_several_ways_is_refused_naming_each_line():
    game = new_game(
        [
            "add British 4-5-7 at Q4",
            "add German 4-6-7 2-4-7 hs at P4 broken",
            "phase RtPh",
            "surrender g1 g2 to b1",
            "phase CCPh 2 German",
            "eliminate b1 by cc",  # in CC, and no other enemy there: both ways fit
        ]
    )
    before = len(game.records)
    with pytest.raises(InputRefusal) as refused:
        execute(game, "rearm g1")
    assert "2 ways fit: rearm g1 cc b1 or rearm g1 alone b1" in str(refused.value)
    assert len(game.records) == before
    assert parse("rearm g1 alone", game.state) == parse("rearm g1 alone b1", game.state)


def test_rearm_with_nothing_to_fill_is_refused_with_the_rule():
    game = _escaped()
    with pytest.raises(InputRefusal) as refused:
        parse("rearm g2", game.state)
    assert "nothing fits the how and armed enemy left out" in str(refused.value)
    assert "g2 did not attack" in str(refused.value)
    with pytest.raises(InputRefusal, match="rearm H cc"):
        parse("rearm g1 b1", game.state)  # a second word is the how, never guessed


def test_help_tells_the_player_both():
    assert "@P4 alone is every unit in P4" in help_text("break")
    rearm = help_text("rearm")
    assert VERBS["rearm"].usage in rearm and "leave out how and armed enemy" in rearm
    assert "@P4 is the stack there" in help_text()


def test_a_surrender_at_a_location_takes_only_the_captors_enemies(game):
    # a broken British HS in P4 too: it is on the captor's side, so not of the stack
    run_script(game, ["break g2 g3", "add British 2-4-7 hs at P4 broken", "phase RtPh"])
    assert reads_back("surrender @P4 to b1", game) == ("g2", "g3")


def test_rearm_after_fire_fills_only_alone():
    # a Guard shot in the RtPh was not eliminated in CC (A20.551): only "alone" fits
    game = new_game(
        [
            "add British 4-5-7 Q5",
            "add German 4-6-7 Q5 broken",
            "phase RtPh",
            "surrender g1 to b1",
            "eliminate b1 by German",
        ]
    )
    assert parse("rearm g1", game.state) == parse("rearm g1 alone b1", game.state)


def test_the_rearm_reply_says_what_the_unit_became():
    # A20.551: a Green/Conscript unit of its size; the entry keeps which counter
    game = new_game(
        [
            "add British 4-5-7 Q5",
            "add German 4-6-7 Q5 broken",
            "phase RtPh",
            "surrender g1 to b1",
            "eliminate b1 by German",
        ]
    )
    outcome = execute(game, "rearm g1")
    assert (
        "(g1) rearmed as 4-3-6, with no other enemy unit in its Location once" in outcome.message
    ), outcome.message
    assert game.records[-1].counter == "4-3-6"


# ------------------------------------------------- a form's left-out fields
def test_a_form_is_filled_by_the_rule_the_bar_fills_by():
    """``fill.filled``: the rearm form's How and enemy, empty, take the one way the game
    allows (as ``rearm g1`` does), with the bar's note; one the player chose stays."""
    game = _escaped()
    empty = {"unit": "g1", "how": "", "enemy": "", "as_": ""}
    found = filled("rearm", empty, game.state)
    assert found is not None and found.values == {"how": "cc", "enemy": "b1"}
    assert found.note == execute(game, "rearm g1").message.splitlines()[0]
    game = _escaped()
    found = filled("rearm", {**empty, "how": "cc"}, game.state)
    assert found is not None and found.values == {"enemy": "b1"}
    assert found.note.startswith("filled in: armed enemy b1")
    assert filled("rearm", {**empty, "unit": "G1"}, game.state) is not None  # read as typed


def test_a_form_is_not_filled_while_the_game_allows_none_or_several():
    game = _escaped()
    empty = {"unit": "g1", "how": "", "enemy": "", "as_": ""}
    assert filled("rearm", {**empty, "unit": ""}, game.state) is None  # the unit first
    assert filled("rearm", {**empty, "unit": "g2"}, game.state) is None  # g2 did not attack
    assert filled("rearm", {**empty, "unit": "zz"}, game.state) is None  # unreadable
    assert filled("rearm", {**empty, "how": "alone"}, game.state) is None  # not alone
    assert filled("rearm", {**empty, "how": "cc", "enemy": "b1"}, game.state) is None
    two = new_game(
        [
            "add British 4-5-7 at Q4",
            "add German 4-6-7 2-4-7 hs at P4 broken",
            "phase RtPh",
            "surrender g1 g2 to b1",
            "phase CCPh 2 German",
            "eliminate b1 by cc",
        ]
    )
    assert filled("rearm", empty, two.state) is None  # cc or alone: the player says
    found = filled("rearm", {**empty, "how": "alone"}, two.state)
    assert found is not None and found.values == {"enemy": "b1"}


# ------------------------------------------------------ completion of @LOC
def test_completion_offers_the_stacks_a_units_slot_may_take(game):
    # after the handles; R5 holds units of both sides, which @R5 would be refused for
    assert complete("break ", game.state)[-2:] == ["@P4", "@Q4"]
    assert complete("break @", game.state) == ["@P4", "@Q4"]
    assert complete("break @q", game.state) == ["@Q4"]
    # not a stack already given, nor one whose units are all named
    assert "@P4" not in complete("break @P4 ", game.state)
    assert "@P4" not in complete("break g1 g2 g3 ", game.state)
    assert "@P4" in complete("break g1 ", game.state)
    for offer in complete("break ", game.state):
        if offer.startswith("@"):
            parse(f"break {offer}", game.state)  # each offer reads


def test_completion_offers_only_stacks_the_picks_allow(strict_game):
    game = strict_game
    assert not [w for w in complete("surrender ", game.state) if w.startswith("@")]
    run_script(game, ["break g2 g3", "phase RtPh"])
    # the 8-1 in P4 is not broken: P4's stack is g2 and g3, and it is offered
    assert [w for w in complete("surrender ", game.state) if w.startswith("@")] == ["@P4"]
    assert complete("surrender @", game.state) == ["@P4"]
    assert parse("surrender @P4 to b1", game.state).units == ("g2", "g3")
    assert complete("capture g4 by @", game.state) == []  # one unit: not a units slot
