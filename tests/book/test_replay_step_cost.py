"""A replay step costs what changed in the step, not the size of the game.

``state_at`` makes a read-only view of the game at an entry. Its cost is held by
counting (no timing): the bytes one step allocates (tracemalloc's peak during the
call) on a game of 100 entries and on one of 2,000, both ending in the same entries
and stepped to the same places among them. A view that shares the unit table and the
casualty lines with the other views allocates the same on both. Planted and seen to
fail at these sizes (the bound is 1.1x + 256 bytes): a new table for every view, 6.6x
(5.1 kB against 34 kB); the view's own copy of the casualty lines, 2.6x. 10,000
entries told them apart no better and cost five times as much to build.
"""

from __future__ import annotations

import gc
import tracemalloc
from collections import Counter

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bench.generate import generate
from stockade.core.book.game import Game
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal
from tests.book.state_kit import check_index, dump, fresh_fold

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


def test_a_step_allocates_the_same_at_100_and_at_2000_entries():
    games = {n: _game(n) for n in (100, 2_000)}
    assert len(games[2_000].state.units) > 20 * len(games[100].state.units) // 2
    steps: dict[int, list[int]] = {n: [] for n in games}
    for n, game in games.items():
        game.state_at(game.effective[-3].seq)  # the first view after a change may pay more
        for back in (1, 5, 9, 17):
            steps[n].append(_step_bytes(game, back))
    for short, long in zip(steps[100], steps[2_000], strict=True):
        # what a step changes is the same in both games: its view's bytes too
        assert long <= short * 1.1 + 256, steps


# -- every promise of the copying views stays: a view equals a fresh fold, and never moves


@pytest.fixture(scope="module")
def campaign():
    """A generated campaign of 600 entries (prisoners, Guards, casualties, undo, redo
    and strikes in it)."""
    return generate(600, seed=13)


LIVE_OPS = ("undo", "redo", "strike", "unstrike", "undo_to", "submit")


def _live_op(game: Game, op: str, i: int) -> None:
    eff = [r.seq for r in game.effective]
    if op == "undo":
        game.undo()
    elif op == "redo":
        game.redo()
    elif op == "strike":
        game.strike(eff[-1 - i % min(len(eff), 60)], "test")
    elif op == "unstrike":
        struck = sorted(game.timeline.struck)
        if struck:
            game.unstrike(struck[i % len(struck)])
    elif op == "undo_to":
        game.undo_to(eff[-1 - i % min(len(eff), 30)])
    else:
        unit = [u for u in game.state.units.values() if u.status == "active"]
        if unit:
            pick = unit[i % len(unit)]
            game.submit([ev.StatusChanged(handle=pick.handle, location=f"Q{i}", pinned=True)])


def test_views_at_random_depths_equal_fresh_folds_and_never_move(campaign):
    """Views made at random depths, several between two changes of the live game (they
    share one table), then undo, redo, strike, unstrike, undo_to and new entries: each
    view equals a fresh fold of the entries up to its own when made, its indexes agree
    with a scan of its units, and every view made so far still reads as it did. A
    refused op proves nothing: most must be accepted."""
    moved: Counter[str] = Counter()
    refused: Counter[str] = Counter()

    # one sequence that gives every op something to act on, run beside the random ones
    every_op = [(op, 3, [2, 40, 7]) for op in ("submit", "undo", "redo", "strike", "unstrike")]
    every_op.append(("undo_to", 5, [0, 120]))

    @settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
    @example(steps=every_op)
    @given(
        steps=st.lists(
            st.tuples(
                st.sampled_from(LIVE_OPS),
                st.integers(0, 10_000),
                st.lists(st.integers(0, 10_000), min_size=1, max_size=4),
            ),
            min_size=1,
            max_size=6,
        )
    )
    def views_hold(steps):
        game = Game.load(campaign.records)
        kept = []
        for op, i, depths in steps:
            eff = [r.seq for r in game.effective]
            for d in depths:
                seq = eff[-1 - d % min(len(eff), 300)]
                view = game.state_at(seq)
                expected, _ = fresh_fold([r for r in game.effective if r.seq <= seq])
                assert dump(view) == dump(expected), seq
                check_index(view)
                kept.append((view, dump(view)))
            try:
                _live_op(game, op, i)
                moved[op] += 1
            except Refusal:
                refused[op] += 1
            for view, then in kept:
                assert dump(view) == then
                check_index(view)
        assert dump(game.state) == dump(Game.load(game.records).state)

    views_hold()
    assert set(moved) == set(LIVE_OPS), moved
    assert sum(moved.values()) > sum(refused.values()), (moved, refused)


def test_a_view_is_read_only():
    game = _game(100)
    view = game.state_at(game.effective[-5].seq)
    with pytest.raises(TypeError):
        view.units["zz"] = view.units["u0"]
    with pytest.raises((TypeError, AttributeError)):
        view.casualties.append(view.casualties[0])
    mine = view.clone()  # a clone is the caller's to change
    mine.units.pop("zz")
    assert "zz" in view.units and "zz" not in mine.units
