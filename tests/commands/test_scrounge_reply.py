"""The reply to a Scrounging DR says what it did: the unit rearmed as its new counter,
or still unarmed (A20.552), as the reply to a rearm does."""

from __future__ import annotations

from stockade.core.book.game import Game
from stockade.core.commands import execute
from stockade.core.model import events as ev


def abandoned() -> Game:
    """g1 (German 4-6-7) abandoned unarmed in Q4 by its Guard a1; the German MPh."""
    game = Game.in_memory(
        "t", [ev.SideSpec("American", "American", 3), ev.SideSpec("German", "German", 3)]
    )
    for line in [
        "add American 6-6-6 as a1 at Q5",
        "add German 4-6-7 as g1 at Q4 broken",
        "phase RtPh 1 American",
        "surrender g1 to a1",
        "phase APh 1 American",
        "abandon g1",
        "phase MPh 1 German",
    ]:
        execute(game, line)
    return game


def test_a_scrounging_2_says_the_unit_rearmed_and_as_what() -> None:
    game = abandoned()
    said = execute(game, "scrounge g1 2").message
    assert "g1 is rearmed as 4-3-6 (A20.552)" in said, said


def test_a_failed_scrounging_dr_says_the_unit_stays_unarmed() -> None:
    game = abandoned()
    said = execute(game, "scrounge g1 5").message
    assert "g1 stays unarmed: only a DR of 2 rearms (A20.552)" in said, said
