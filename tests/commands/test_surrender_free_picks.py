"""The surrender form's "Free as Unarmed" picker offers only what the command accepts:
a captor frees only the excess over its capacity (A20.21, A20.51), so a stack that fits
under it has nothing to free (the picker offered every unit of it, and the command
then refused each)."""

from __future__ import annotations

from stockade.core.book.game import Game
from stockade.core.commands import execute, picks, run_script
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal


def _game(*lines: str) -> Game:
    game = Game.in_memory(
        "free", [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]
    )
    run_script(game, list(lines))
    return game


def test_a_stack_that_fits_under_its_captor_offers_nothing_to_free():
    game = _game("add American 3-4-7 hs at T4", "add German 4-6-7 8-1 at T5 broken")
    values = {"units": ["g1", "g2"], "to": "a1"}
    offered = picks.surrendering_among(game.state, values)
    assert {c.handle for c in offered} == {"g1", "g2"}
    assert not any(c.legal for c in offered)
    assert all(c.rule == "A20.21" and "fit" in c.reason for c in offered), offered
    for handle in ("g1", "g2"):
        try:
            execute(game, f"surrender g1 g2 to a1 free {handle}")
        except Refusal as refusal:
            assert refusal.rule == "A20.21"
        else:
            raise AssertionError(f"freeing {handle} was accepted")


def test_over_capacity_each_unit_of_the_stack_may_be_picked_to_free():
    # a 8-0 leader guards US# 5 at most: a 4-6-7 and a 2-4-7 (US# 5) fit, three do not
    game = _game("add American 8-0 at T4", "add German 4-6-7 4-6-7 at T5 broken")
    values = {"units": ["g1", "g2"], "to": "a1"}
    offered = picks.surrendering_among(game.state, values)
    assert {c.handle for c in offered if c.legal} == {"g1", "g2"}
    execute(game, "surrender g1 g2 to a1 free g2")
