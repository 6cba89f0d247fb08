"""``add`` as a player sets up: a side's counters in several Locations in one line, the
Location with or without ``at``, and a counter whose print is ambiguous (2-4-7: HS,
crew or hero?) taking the kind the player gave it before for that side."""

from __future__ import annotations

import pytest

from stockade.core.book.game import Game
from stockade.core.commands import parse, run_script
from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal


def new_game() -> Game:
    return Game.in_memory(
        "set-up", [ev.SideSpec("British", "British", 4), ev.SideSpec("German", "German", 3)]
    )


def placed(game: Game) -> list[tuple[str, str, str, str]]:
    return [(u.handle, u.counter, u.unit_kind, u.location) for u in game.state.units.values()]


def test_one_line_places_counters_in_several_locations() -> None:
    game = new_game()
    run_script(game, ["add b 4-5-8 4-5-8 Q5 4-5-8 R6", "add g 8-1 4-6-7 2-4-7 hs at P4 4-6-7 R5"])
    assert placed(game) == [
        ("b1", "4-5-8", "squad", "Q5"),
        ("b2", "4-5-8", "squad", "Q5"),
        ("b3", "4-5-8", "squad", "R6"),
        ("g1", "8-1", "leader", "P4"),
        ("g2", "4-6-7", "squad", "P4"),
        ("g3", "2-4-7", "hs", "P4"),
        ("g4", "4-6-7", "squad", "R5"),
    ]


def test_one_location_places_every_counter_wherever_it_stands() -> None:
    game = new_game()
    command = parse("add b 4-5-8 Q5 4-5-8", game.state)
    assert str(command) == "add British 4-5-8 4-5-8 at Q5"
    assert str(parse("add b 4-5-8 at Q5 4-5-8 at Q5", game.state)) == str(command)


def test_several_locations_print_back_as_the_same_command() -> None:
    game = new_game()
    command = parse("add b 4-5-8 x2 Q5 9-1 4-5-8 R6", game.state)
    assert str(command) == "add British 4-5-8 x2 at Q5 9-1 4-5-8 at R6"
    assert parse(str(command), game.state) == command


def test_a_counter_after_the_last_of_several_locations_is_refused() -> None:
    game = new_game()
    with pytest.raises(InputRefusal, match="'8-1' has no Location after it"):
        parse("add b 4-5-8 Q5 4-5-8 R6 8-1", game.state)
    assert placed(game) == []


def test_an_ambiguous_counter_takes_the_kind_told_earlier_in_the_line() -> None:
    game = new_game()
    run_script(game, ["add g 2-4-7 hs P4 2-4-7 R5"])
    assert [u.unit_kind for u in game.state.units.values()] == ["hs", "hs"]


def test_an_ambiguous_counter_takes_the_kind_of_the_sides_units_in_the_game() -> None:
    game = new_game()
    run_script(game, ["add g 2-4-7 hs at P4", "add g 2-4-7 at R5"])
    assert str(parse("add g 2-4-7 at R6", game.state)) == "add German 2-4-7 hs at R6"
    # the other side never told: still asked
    with pytest.raises(InputRefusal, match="may be a squad, a HS, a crew or a hero"):
        parse("add b 2-4-7 at Q5", game.state)


def test_an_ambiguous_counter_told_two_ways_is_asked_again() -> None:
    game = new_game()
    run_script(game, ["add g 2-4-7 hs at P4", "add g 2-4-7 crew at R5"])
    with pytest.raises(InputRefusal, match="may be a squad, a HS, a crew or a hero"):
        parse("add g 2-4-7 at R6", game.state)


def test_broken_marks_the_run_it_stands_in_when_a_line_has_several_locations() -> None:
    game = new_game()
    run_script(
        game,
        [
            "add b 4-5-8 Q5 4-5-8 P4 broken",  # after a Location: the run just placed
            "add g 4-6-7 broken 2-4-7 hs R5 4-6-7 R6",  # inside a run: that run
        ],
    )
    assert {h: u.broken for h, u in game.state.units.items()} == {
        "b1": False,
        "b2": True,
        "g1": True,
        "g2": True,
        "g3": False,
    }
    command = parse("add b 4-5-8 Q5 broken 4-5-8 x2 R6", game.state)
    assert str(command) == "add British 4-5-8 at Q5 broken 4-5-8 x2 at R6"
    assert parse(str(command), game.state) == command


def test_broken_with_one_location_marks_every_counter() -> None:
    game = new_game()
    run_script(game, ["add g 4-6-7 broken 8-1 at P4"])
    assert [u.broken for u in game.state.units.values()] == [True, True]


@pytest.mark.parametrize(
    "line, location",
    [
        ("add b 4-5-8 at Q15 R15 4-5-8 S15", "R15"),
        ("add b 4-5-8 Q14 at R14", "R14"),
        ("add g 4-6-7 P4 P5", "P5"),
    ],
)
def test_a_location_with_no_counter_before_it_is_refused(line: str, location: str) -> None:
    game = new_game()
    with pytest.raises(InputRefusal, match=f"'{location}' has no counter before it"):
        parse(line, game.state)


def test_a_name_out_of_place_is_told_how_a_vehicle_is_written() -> None:
    game = new_game()
    with pytest.raises(InputRefusal) as refused:
        parse("add b StuG P4", game.state)
    assert "NAME vehicle cvp=N" in str(refused.value)


def test_a_vehicle_without_its_cvp_is_asked_for_it() -> None:
    game = new_game()
    with pytest.raises(InputRefusal, match="a vehicle's CVP is on its counter"):
        parse("add g StuG vehicle P4", game.state)
    run_script(game, ["add g StuG vehicle cvp=4 P4"])
    assert [(u.counter, u.cvp) for u in game.state.units.values()] == [("StuG", 4)]


def test_a_trait_given_twice_is_refused() -> None:
    game = new_game()
    with pytest.raises(InputRefusal, match="'\\+fanatic' is given twice for 4-6-7"):
        parse("add g 4-6-7 +fanatic +fanatic P4", game.state)


def test_a_nationality_s_half_squad_print_is_read_as_its_hs() -> None:
    """An American 3-3-6 can only be the 6-6-6's HS (core/data/nationalities.toml
    lists the HS prints of a nationality); a German 3-3-6 is still asked."""
    game = Game.in_memory(
        "hs", [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]
    )
    run_script(game, ["add American 3-3-6 at O5"])
    [a5] = game.state.units.values()
    assert a5.unit_kind == "hs"
    with pytest.raises(InputRefusal, match="may be a squad, a HS, a crew or a hero"):
        parse("add German 3-3-6 at Q5", game.state)
