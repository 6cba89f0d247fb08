"""The undo journal (core.book.game): per-event pre-images instead of state snapshots.

Taking events back with the recorded pre-images, and the read-only views made by
``state_at``, must give exactly what a fresh fold from the start gives, at any depth;
the prisoner index must agree with a scan of the units; a view must not move when the
live game changes afterwards.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from stockade.core.book.game import Game
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal
from stockade.core.model.state import GameState
from tests.book.state_kit import (
    campaign_with_conflicts,
    check_index,
    dump,
    fold_into,
    fresh_fold,
)

# One worker runs this module's tests (pyproject.toml: --dist loadgroup), so the
# campaigns are generated once.
pytestmark = pytest.mark.xdist_group("test_core_undo_journal")


@pytest.fixture(scope="module")
def big():
    """1,500 entries: rollbacks and views across the old 256-event snapshot boundaries."""
    return campaign_with_conflicts(1500)


@pytest.fixture(scope="module")
def campaign():
    """600 entries, for the random history ops: every op reaches at most 400 entries
    back (:func:`_history_op`), so each of its targets is in reach as in a longer
    campaign, and the fresh fold after every op costs less than half as much."""
    return campaign_with_conflicts(600)


def test_rollback_at_random_depths_equals_a_fresh_fold(big):
    game = Game.load(big.records)
    original = dump(game.state)
    rng = random.Random(5)
    n = len(game.effective)
    # across the old 256-event snapshot boundaries, and deep
    for position in [n - 1, n - 2, n - 7, n - 255, n - 256, n - 257, 512, 256, 1] + [
        rng.randrange(1, n) for _ in range(6)
    ]:
        tail = game.effective[position:]
        game.projection.rollback(position)
        state, conflicts = fresh_fold(game.effective)
        assert dump(game.state) == dump(state), position
        assert set(game.conflicts) == conflicts
        check_index(game.state)
        for record in tail:  # and forward again
            game.projection.append(record)
        assert dump(game.state) == original
        check_index(game.state)


def test_state_at_equals_a_fresh_fold_and_never_moves(big):
    game = Game.load(big.records)
    rng = random.Random(9)
    seqs = [r.seq for r in game.effective]
    picks = [seqs[-1], seqs[-2], seqs[-40], seqs[len(seqs) // 2], seqs[3], 1] + [
        rng.choice(seqs) for _ in range(6)
    ]
    views = []
    for seq in picks:
        view = game.state_at(seq)
        expected, _ = fresh_fold([r for r in game.effective if r.seq <= seq])
        assert dump(view) == dump(expected), seq
        check_index(view)
        views.append((view, dump(view)))
    # the live game moves on: undo, redo, strike, unstrike, new entries, undo_to
    live_unit = next(u for u in game.state.units.values() if u.status == "active")
    game.submit([ev.StatusChanged(handle=live_unit.handle, location="ZZ9", pinned=True)])
    game.undo()
    game.redo()
    target = next(r.seq for r in reversed(game.effective) if isinstance(r, ev.StatusChanged))
    game.strike(target, "test")
    game.unstrike(target)
    game.undo_to(seqs[-30])
    for view, before in views:
        assert dump(view) == before
        check_index(view)  # its indexes, built before the live game moved, still hold
    assert dump(game.state) == dump(Game.load(game.records).state)
    check_index(game.state)


def test_multi_event_check_leaves_the_state_as_it_was(big):
    game = Game.load(big.records)
    before = dump(game.state)
    active = [u for u in game.state.units.values() if u.status == "active"][:2]
    # accepted pair: checked on the live state, then taken back
    game.check(
        [
            ev.StatusChanged(handle=active[0].handle, location="ZZ1", broken=True),
            ev.StatusChanged(handle=active[1].handle, pinned=True),
        ]
    )
    assert dump(game.state) == before
    # refused in the middle: taken back too
    with pytest.raises(Refusal):
        game.check(
            [
                ev.UnitEntered(
                    handle="zz-new", side=game.state.attacker, unit_kind="squad", counter="4-6-7"
                ),
                ev.StatusChanged(handle="no-such-unit", pinned=True),
            ]
        )
    assert dump(game.state) == before
    assert "zz-new" not in game.state.units
    check_index(game.state)


HISTORY_OPS = ("undo", "redo", "strike", "unstrike", "undo_to", "state_at", "preview")


def test_random_history_ops_equal_a_fresh_fold(campaign):
    """Random undo, redo, strike, unstrike, undo_to, state_at and preview_strike: after
    each, the game equals a fresh fold of its records. An op the game refuses proves
    nothing, so the test counts what was accepted: each kind at least once, and more
    accepted than refused (if the game started refusing them, this fails)."""
    accepted: Counter[str] = Counter()
    refused: Counter[str] = Counter()

    # one sequence that gives every op something to act on, always run beside the
    # random ones: whether a random draw happens to put a redo after an undo is chance
    every_op = [(op, 3) for op in ("undo", "redo", "strike", "unstrike", "undo_to")]
    every_op += [("state_at", 7), ("preview", 5)]

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
    @example(ops=every_op)
    @given(
        ops=st.lists(
            st.tuples(st.sampled_from(HISTORY_OPS), st.integers(0, 10_000)), min_size=1, max_size=12
        )
    )
    def ops_equal_a_fresh_fold(ops):
        game = Game.load(campaign.records)
        for op, i in ops:
            try:
                if _history_op(game, op, i):
                    accepted[op] += 1
            except Refusal:
                refused[op] += 1
            fresh = Game.load(game.records)
            assert dump(game.state) == dump(fresh.state)
            assert game.conflicts.keys() == fresh.conflicts.keys()
            assert list(game.conflicts) == list(fresh.conflicts)
            assert [r.seq for r in game.effective] == [r.seq for r in fresh.effective]
        check_index(game.state)

    ops_equal_a_fresh_fold()
    assert {op for op, n in accepted.items() if n} == set(HISTORY_OPS), (accepted, refused)
    assert accepted.total() > refused.total(), (accepted, refused)


def _history_op(game: Game, op: str, i: int) -> bool:
    """Do ``op`` (picking its target by ``i``) when the game has something for it;
    True when it was done."""
    eff = [r.seq for r in game.effective if not isinstance(r, ev.GameCreated)]
    if op == "undo" and game.can_undo():
        game.undo()
    elif op == "redo" and game.can_redo():
        game.redo()
    elif op == "strike" and eff:
        game.strike(eff[-1 - i % min(len(eff), 300)], "t")
    elif op == "unstrike" and game.timeline.struck:
        struck = sorted(game.timeline.struck)
        game.unstrike(struck[i % len(struck)])
    elif op == "undo_to" and eff:
        game.undo_to(eff[-1 - i % min(len(eff), 40)])
    elif op == "state_at" and eff:
        seq = eff[-1 - i % min(len(eff), 400)]
        expected, _ = fresh_fold([r for r in game.effective if r.seq <= seq])
        assert dump(game.state_at(seq)) == dump(expected)
    elif op == "preview" and eff:
        before = (dump(game.state), dict(game.conflicts), dict(game.when))
        game.preview_strike(eff[-1 - i % min(len(eff), 100)])
        assert (dump(game.state), dict(game.conflicts), dict(game.when)) == before
    else:
        return False
    return True


def test_every_group_undone_then_redone_equals_the_fold_before_and_after_it(campaign):
    """Undo every group back to the header, one by one, then redo them all: after each
    step the state equals a fresh fold of the entries in effect. The random ops above
    reach a few groups each, and a pre-image left out of one undo entry (one field of a
    unit, set by a rare entry) or one event of a group left out of its redo passes them
    unless a draw lands on that group; here every group is taken back and put again.
    The reference is one fresh fold, dumped at each place a step stops."""
    game = Game.load(campaign.records)
    seen: dict[int, list[tuple[dict, list[int]]]] = {}

    def note() -> None:
        place = len(game.effective)
        assert [r.seq for r in game.effective] == seqs[:place]
        seen.setdefault(place, []).append((dump(game.state), sorted(game.conflicts)))

    seqs = [r.seq for r in game.effective]
    records = list(game.effective)
    undone = 0
    while game.can_undo():
        game.undo()
        undone += 1
        note()
    check_index(game.state)
    while game.can_redo():
        game.redo()
        note()
    check_index(game.state)
    assert undone > 100 and len(seen) > 100
    assert [r.seq for r in game.effective] == seqs
    state, conflicts = GameState(), set()
    for place in range(len(records) + 1):
        for got, got_conflicts in seen.get(place, ()):
            assert got == dump(state), place
            assert got_conflicts == sorted(conflicts), place
        if place < len(records):
            fold_into(state, conflicts, records[place])
