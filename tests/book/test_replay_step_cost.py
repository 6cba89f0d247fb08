"""A replay step costs what changed in the step, not the size of the game.

``state_at`` makes a read-only view of the game at an entry. Its cost is held by
counting (no timing): the bytes one step allocates (tracemalloc's peak during the
call) on a game of 100 entries and on one of 10,000, both ending in the same entries
and stepped to the same places among them. A view that copies the unit table or the
casualty lines allocates ~100x more on the long game; one that shares them with the
other views allocates the same.
"""

from __future__ import annotations

import gc
import tracemalloc

from stockade.core.book.game import Game
from stockade.core.model import events as ev

SIDES = [ev.SideSpec("German", "German"), ev.SideSpec("Russian", "Russian")]
TAIL = 24


def _game(entries: int) -> Game:
    """``entries`` entries: units entering, every other one eliminated (a casualty
    line each), then the same ``TAIL`` entries: a squad entering and moving."""
    game = Game.in_memory("Steps", SIDES, first_attacker="German")
    for n in range((entries - TAIL) // 2):
        side = SIDES[n % 2].name
        game.submit(
            [
                ev.UnitEntered(
                    handle=f"u{n}",
                    side=side,
                    unit_kind="squad",
                    counter="4-6-7",
                    location=f"A{n % 50}",
                )
            ]
        )
        if n % 2:
            game.submit(
                [ev.Eliminated(handle=f"u{n}", cause="fire-enemy", by_side=SIDES[(n + 1) % 2].name)]
            )
        else:
            game.submit([ev.StatusChanged(handle=f"u{n}", pinned=True)])
    game.submit(
        [
            ev.UnitEntered(
                handle="zz", side="German", unit_kind="squad", counter="4-6-7", location="Z0"
            )
        ]
    )
    for i in range(TAIL - 1):
        game.submit([ev.StatusChanged(handle="zz", location=f"Z{i + 1}", pinned=bool(i % 2))])
    return game


def _step_bytes(game: Game, back: int) -> int:
    """The peak bytes allocated while making the view ``back`` entries before the last."""
    seq = game.effective[-1 - back].seq
    gc.collect()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        start = tracemalloc.get_traced_memory()[0]
        view = game.state_at(seq)
        peak = tracemalloc.get_traced_memory()[1] - start
    finally:
        tracemalloc.stop()
    assert view.units["zz"].location == f"Z{TAIL - 1 - back}"
    return peak


def test_a_step_allocates_the_same_at_100_and_at_10000_entries():
    games = {n: _game(n) for n in (100, 10_000)}
    assert len(games[10_000].state.units) > 100 * len(games[100].state.units) // 2
    steps: dict[int, list[int]] = {n: [] for n in games}
    for n, game in games.items():
        game.state_at(game.effective[-3].seq)  # the first view after a change may pay more
        for back in (1, 5, 9, 17):
            steps[n].append(_step_bytes(game, back))
    for short, long in zip(steps[100], steps[10_000], strict=True):
        # what a step changes is the same in both games: its view's bytes too
        assert long <= short * 1.1 + 256, steps
