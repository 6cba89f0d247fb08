"""The entries that may happen now (``offers``): the side panels' "may" lines as
commands ready to complete, each one the game would accept as it stands."""

from __future__ import annotations

from stockade.core.book.game import Game
from stockade.core.commands import execute, parse, run_script
from stockade.core.commands.offers import offers
from stockade.core.model import events as ev


def new_game(first: str = "Russian", second: str = "German") -> Game:
    return Game.in_memory("offers", [ev.SideSpec(first, first, 3), ev.SideSpec(second, second, 3)])


def lines(game: Game) -> list[str]:
    return [offer.line for offer in offers(game.state)]


def assert_each_whole_offer_is_accepted_as_it_stands(game: Game) -> None:
    """A whole offer is a command: its line reads back to it, and entered as offered it
    is recorded (then undone), never refused."""
    for offer in offers(game.state):
        if offer.left:
            continue
        assert parse(offer.line, game.state) == offer.command
        held = len(game.records)
        execute(game, offer.line)  # raises Refusal if the game would not take it
        execute(game, "undo")
        assert len(game.records) > held


def test_rtph_offers_surrender_to_a_captor_and_the_captors_reject():
    game = new_game()
    run_script(game, ["add Russian 4-4-7 4-4-7 at Q4", "add German 4-6-7 2-4-7 hs at Q5 broken"])
    assert lines(game) == []  # the RPh: nothing of A20 waits
    run_script(game, ["phase RtPh"])
    assert lines(game) == ["surrender g1 g2 to r1", "reject g1 g2 by Russian"]
    assert [o.rule for o in offers(game.state)] == ["A20.21", "A20.3"]
    assert_each_whole_offer_is_accepted_as_it_stands(game)


def test_a_stack_surrenders_as_one_so_each_location_is_one_offer():
    game = new_game()
    run_script(
        game,
        [
            "add Russian 4-4-7 at Q4",
            "add German 4-6-7 at Q5 broken",
            "add German 4-6-7 at Q6 broken",
            "phase RtPh",
        ],
    )
    assert lines(game) == [
        "surrender g1 to r1",
        "reject g1 by Russian",
        "surrender g2 to r1",
        "reject g2 by Russian",
    ]


def test_aph_offers_transfer_abandon_and_escort():
    game = new_game()
    run_script(
        game,
        [
            "add Russian 4-4-7 4-4-7 at Q4",
            "add German 4-6-7 at Q5 broken",
            "phase RtPh",
            "surrender g1 to r1",
            "next",
        ],
    )
    assert game.state.phase == "APh"
    assert lines(game) == ["transfer g1 to r2", "abandon g1", "escort r1"]
    assert_each_whole_offer_is_accepted_as_it_stands(game)


def test_a_transfer_is_offered_only_to_a_unit_that_may_take_the_prisoners():
    """A20.5: a bare ``transfer g1`` with nobody there to take g1 is no entry to
    offer; a taker that may not accept (pinned) is none either."""
    game = new_game()
    run_script(
        game,
        [
            "add Russian 4-4-7 at Q4",
            "add Russian 4-4-7 at R9",
            "add German 4-6-7 at Q5 broken",
            "phase RtPh",
            "surrender g1 to r1",
            "next",
        ],
    )
    assert game.state.phase == "APh"
    assert lines(game) == ["abandon g1", "escort r1"]
    run_script(game, ["move r2 Q4", "pin r2"])
    assert not any(line.startswith("transfer") for line in lines(game))
    assert_each_whole_offer_is_accepted_as_it_stands(game)


def test_ccph_offers_an_escape_and_its_likeliest_outcome():
    game = new_game()
    run_script(
        game,
        [
            "add Russian 4-4-7 at Q4",
            "add German 4-6-7 at Q5 broken",
            "phase RtPh",
            "surrender g1 to r1",
            "phase CCPh 1 German",
            "break r1",
        ],
    )
    # whole lines, one per outcome the escape's own check accepts: none stops short of
    # the outcome word (a bare "escape g1" is refused, asking how the attack ended)
    assert lines(game) == ["escape g1 ntcfail g1", "escape g1 melee", "escape g1 guard-dies"]
    assert not [o for o in offers(game.state) if o.left]
    assert_each_whole_offer_is_accepted_as_it_stands(game)


def test_an_escape_is_offered_only_with_the_outcomes_its_check_accepts():
    """In Melee (no NTC) and with another Russian beside the Guard, the escape cannot
    end with the Guard dead and no enemy left (A20.55): only the Melee line is offered."""
    game = new_game()
    run_script(
        game,
        [
            "add Russian 4-4-7 4-4-7 at Q4",
            "add German 4-6-7 at Q5 broken",
            "phase RtPh",
            "surrender g1 to r1",
            "phase CCPh 1 German",
            "melee r1 g1",
        ],
    )
    assert lines(game) == ["escape g1 melee"]
    assert_each_whole_offer_is_accepted_as_it_stands(game)


# a Russian Guard r1 with its prisoner g1 in its own fire phase
GUARD_IN_ITS_PFPH = [
    "add Russian 4-4-7 at Q4",
    "add German 4-6-7 at Q5 broken",
    "phase RtPh",
    "surrender g1 to r1",
    "phase PFPh 2 Russian",
]


def test_fire_phase_offers_the_massacre_the_rules_allow():
    game = new_game()
    run_script(game, GUARD_IN_ITS_PFPH)
    assert lines(game) == ["massacre g1 by r1"]
    assert_each_whole_offer_is_accepted_as_it_stands(game)


def test_a_broken_guard_is_not_offered_a_massacre():
    """A Massacre is made as if using a SW (A20.4): a broken Guard cannot make it."""
    game = new_game()
    run_script(game, [*GUARD_IN_ITS_PFPH, "break r1"])
    assert not [line for line in lines(game) if line.startswith("massacre")]


def test_mph_scrounge_leaves_the_dr_to_the_player_and_recapture_names_who_may():
    game = new_game()
    run_script(
        game,
        [
            "add Russian 4-4-7 4-4-7 at Q4",
            "add German 4-6-7 at Q5 broken",
            "phase RtPh",
            "surrender g1 to r1",
            "next",
            "abandon g1",
            "phase MPh 1 German",
        ],
    )
    [scrounge] = offers(game.state)
    assert scrounge.line == "scrounge g1 " and scrounge.left == "roll"
    assert parse(scrounge.line + "2", game.state).verb == "scrounge"
    run_script(game, ["phase MPh 2 Russian"])
    assert lines(game)[0].startswith("recapture g1 by r")
    assert_each_whole_offer_is_accepted_as_it_stands(game)


def test_a_hex_that_had_its_scrounging_dr_is_not_offered_another():
    """One Scrounging DR per hex per MPh (A20.552): the offer comes from the scrounge's
    own check, so once the hex has rolled, no unit there is offered a scrounge the
    entry would refuse."""
    game = new_game()
    run_script(
        game,
        [
            "add Russian 4-4-7 at Q4",
            "add German 4-6-7 2-4-7 hs at Q4 broken",
            "phase RtPh",
            "surrender g1 g2 to r1",
            "next",
            "abandon g1 g2",
            "phase MPh 1 German",
        ],
    )
    assert [line for line in lines(game) if line.startswith("scrounge")] == [
        "scrounge g1 ",
        "scrounge g2 ",
    ]
    execute(game, "scrounge g1 7")  # no luck: the hex has had its DR
    assert not [line for line in lines(game) if line.startswith("scrounge")]


def test_a_rearm_is_offered_with_the_enemy_and_the_way():
    game = new_game()
    run_script(
        game,
        [
            "add Russian 4-4-7 at Q4",
            "add German 4-6-7 at Q5 broken",
            "phase RtPh",
            "surrender g1 to r1",
            "phase CCPh 1 German",
            "break r1",
            "escape g1 guard-dies",
        ],
    )
    assert "rearm g1 cc r1" in lines(game)
    assert_each_whole_offer_is_accepted_as_it_stands(game)


def test_nothing_is_offered_once_the_game_has_ended():
    game = new_game()
    run_script(game, ["add Russian 4-4-7 at Q4", "add German 4-6-7 at Q5 broken", "phase RtPh"])
    assert lines(game)
    run_script(game, ["end now"])
    assert lines(game) == []
