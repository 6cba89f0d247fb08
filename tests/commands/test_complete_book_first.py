"""Tab completion offers first the units an entry takes as the book stands; a unit
legal only with board facts the entry would imply (a Good Order captor made broken
to surrender, its broken enemy rallied) comes after them."""

from __future__ import annotations

from stockade.core.book.game import Game
from stockade.core.commands import complete, run_script
from stockade.core.model import events as ev


def test_the_broken_stack_is_offered_to_surrender_before_the_good_order_captor():
    game = Game.in_memory(
        "ex17", [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]
    )
    run_script(
        game,
        ["add American 3-4-7 hs at T4", "add German 4-6-7 8-1 at T5 broken 2-4-7 hs at U5 broken"],
    )
    handles = [w for w in complete("surrender ", game.state) if not w.startswith("@")]
    assert handles[:3] == ["g1", "g2", "g3"], handles
    assert "a1" in handles  # still offered: the entry may imply it broken
