"""Counters as references: a unit is named by its handle or as the board shows it
(``4-6-7@P4``, a unique prefix); an ambiguous name is answered with the candidates; new
handles never read like another unit's."""

from __future__ import annotations

import pytest

from stockade.core.book.game import Game
from stockade.core.commands import execute, run_script
from stockade.core.commands.handles import look_alike, resolve_unit
from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal, Refusal


@pytest.fixture
def game() -> Game:
    """American 6-6-6 a1 and 9-1 a2 in Q4; German 4-6-7 g1 in P4, 4-6-7 g2 and 2-4-7
    HS g3 in Q5 (broken)."""
    g = Game.in_memory(
        "t", [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]
    )
    run_script(
        g,
        [
            "add American 6-6-6 9-1 at Q4",
            "add German 4-6-7 at P4",
            "add German 4-6-7 2-4-7 hs at Q5 broken",
        ],
    )
    return g


@pytest.mark.parametrize(
    "word, handle",
    [
        ("g1", "g1"),
        ("G2", "g2"),
        ("4-6-7@P4", "g1"),
        ("4-6-7@p4", "g1"),
        ("4-6-7@Q", "g2"),
        ("9-1", "a2"),
        ("9-", "a2"),
        ("2-4", "g3"),
        ("6-6-6@Q4", "a1"),
        ("@P4", "g1"),
    ],
)
def test_a_unit_is_named_as_the_board_shows_it(game, word, handle):
    assert resolve_unit(game.state, word) == handle


def test_an_ambiguous_counter_is_answered_with_the_candidates(game):
    with pytest.raises(Refusal) as refused:
        resolve_unit(game.state, "4-6-7")
    text = str(refused.value)
    assert "fits 2 units" in text and "4-6-7@P4 (g1)" in text and "4-6-7@Q5 (g2)" in text
    assert isinstance(refused.value, InputRefusal)


def test_no_such_counter_says_what_to_type(game):
    with pytest.raises(Refusal, match="no unit on the board is '5-4-8@Q4'"):
        resolve_unit(game.state, "5-4-8@Q4")


def test_a_command_takes_the_counter_and_its_location(game):
    execute(game, "phase RtPh")
    outcome = execute(game, "surrender 4-6-7@Q5 2-4-7 to 6-6-6")
    assert game.state.units["g2"].guard == "a1" and game.state.units["g3"].guard == "a1"
    assert "(g2)" in outcome.message


def test_a_refused_reference_records_nothing(game):
    before = len(game.records)
    with pytest.raises(Refusal):
        execute(game, "break 4-6-7")
    assert len(game.records) == before


@pytest.mark.parametrize(
    "a, b, alike",
    [("al", "a1", True), ("gl", "g1", True), ("go", "g0", True), ("a1", "a2", False)],
)
def test_look_alike_handles(a, b, alike):
    assert look_alike(a, b) is alike


def test_a_chosen_handle_that_reads_like_another_is_refused(game):
    with pytest.raises(Refusal, match="reads like a1"):
        execute(game, "add American 9-1 as al at Q5")


def test_a_made_handle_skips_one_that_reads_like_a_chosen_one(game):
    execute(game, "add German 8-1 as gs at R1")  # reads like g5, the next number
    execute(game, "add German 8-1 at R1")
    assert "g4" in game.state.units and "g5" not in game.state.units
    execute(game, "add German 8-1 at R1")
    assert "g6" in game.state.units


def test_twins_in_one_location_are_told_to_be_typed_by_handle(game):
    execute(game, "add German 2-4-7 hs at Q5")
    with pytest.raises(Refusal, match="they stand together: type their handles"):
        resolve_unit(game.state, "2-4-7@Q5")


def test_a_vehicle_is_named_by_its_name_as_printed():
    game = Game.in_memory(
        "vehicles", [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]
    )
    run_script(game, ["add German StuG vehicle cvp=4 at P9", "add German 4-6-7 at P9"])
    assert resolve_unit(game.state, "stug") == "g1"
    run_script(game, ["add German StuG vehicle cvp=4 at Q9"])
    with pytest.raises(InputRefusal, match="'StuG' fits 2 units"):
        resolve_unit(game.state, "StuG")


def test_a_location_typed_in_lower_case_reads_as_the_board_names_it(game):
    from stockade.core.commands.handles import Context

    ctx = Context(game.state)
    assert ctx.location("p4") == "P4" and ctx.location("q5") == "Q5"
    assert ctx.location("z9") == "z9"  # no unit there: as typed


def test_a_location_typed_in_lower_case_keeps_the_boards_spelling(game):
    execute(game, "add German 9-1 as zz9 at p4")  # units stand in P4: the same hex
    assert game.state.units["zz9"].location == "P4"
    execute(game, "move zz9 q5")
    assert game.state.units["zz9"].location == "Q5"


def test_a_location_written_as_a_stack_reads_as_its_hex(game):
    execute(game, "add German 9-1 as zz8 at R9")
    execute(game, "move zz8 @p4")
    assert game.state.units["zz8"].location == "P4"
