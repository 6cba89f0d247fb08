"""The bench's generated logs are legal under today's rules: the generator's own
strikes (a mistaken move taken back) never leave a later entry that no longer holds,
so ``stockade check`` finds a generated log sound."""

from __future__ import annotations

from bench.generate import SIDES, Driver
from stockade.core.book.game import Game
from stockade.core.model import events as ev


def test_the_generator_never_strikes_a_move_a_later_entry_stands_on() -> None:
    """G2 moved away from A7 before G1, its Guard neighbour, was eliminated with no one
    to take over its prisoner. Striking that move would put G2 back in A7, where A20.5
    makes it take over: the elimination would no longer hold. The driver picks no such
    move."""
    game = Game.in_memory("gen", SIDES, first_attacker=SIDES[0].name)
    game.submit(
        [
            ev.UnitEntered(
                handle="G1", side="Germans", unit_kind="squad", counter="4-6-7", location="A7"
            )
        ]
    )
    game.submit(
        [
            ev.UnitEntered(
                handle="G2", side="Germans", unit_kind="squad", counter="4-6-7", location="A7"
            )
        ]
    )
    game.submit(
        [
            ev.UnitEntered(
                handle="A1", side="Americans", unit_kind="squad", counter="6-6-6", location="A8"
            )
        ]
    )
    game.submit([ev.StatusChanged(handle="A1", broken=True)])
    game.submit([ev.PhaseSet(turn=1, attacker="Germans", phase="RtPh")])
    game.submit([ev.Surrendered(units=["A1"], guard="G1")])
    game.submit([ev.StatusChanged(handle="G2", location="A8")])
    game.submit([ev.Eliminated(handle="G1", cause="fire-enemy", by_side="Americans", takeover="-")])
    assert not game.conflicts
    driver = Driver(game, seed=1)
    assert driver._strike_a_move() == "skip"
    assert not game.conflicts and not game.timeline.struck
