"""The tally's "by Game Turn" lists every Game Turn, those without casualties too, in
every export."""

from __future__ import annotations

from stockade.core.book.game import Game
from stockade.core.book.tally import tally
from stockade.core.commands import run_script
from stockade.core.model import events as ev
from stockade.core.reads.tally_formats import to_bbcode


def test_every_game_turn_is_listed_even_without_casualties():
    game = Game.in_memory(
        "t", [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]
    )
    run_script(
        game,
        [
            "add American 6-6-6 at Q4",
            "add German 4-6-7 4-6-7 at Q5",
            "eliminate g1 by enemy",  # Game Turn 1
            "phase RPh 4 American",
            "eliminate g2 by enemy",  # Game Turn 4; Turns 2 and 3: nothing
        ],
    )
    t = tally(game.state)
    assert list(t.sides["American"].by_turn) == [1, 2, 3, 4]
    assert t.sides["American"].by_turn[2] == 0
    bb = to_bbcode(t)
    assert "T2: 0" in bb and "T3: 0" in bb
