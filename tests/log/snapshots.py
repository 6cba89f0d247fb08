"""What the snapshot tests compare: a game opened from its snapshot against one folded
from the start (a plain module, not a test module)."""

from __future__ import annotations

import dataclasses

from stockade.core.book.game import Game
from stockade.core.log import snapcache


def dump(state) -> dict:
    return {
        "units": [(h, dataclasses.asdict(u)) for h, u in state.units.items()],
        "sides": [(n, dataclasses.asdict(s)) for n, s in state.sides.items()],
        "casualties": [dataclasses.asdict(c) for c in state.casualties],
        "clock": (state.turn, state.attacker, state.phase, state.ended, state.last_seq),
        "scenario": state.scenario,
        "cvp": state.cvp_overrides,
        "scrounged": sorted(state.scrounged),
    }


def same(game: Game, fresh: Game) -> None:
    assert dump(game.state) == dump(fresh.state)
    assert [(s, str(r)) for s, r in game.conflicts.items()] == [
        (s, str(r)) for s, r in fresh.conflicts.items()
    ]
    assert {s: game.when[s] for s in fresh.when} == fresh.when
    assert [r.seq for r in game.effective] == [r.seq for r in fresh.effective]
    # the names each entry's units had (read from the snapshot's name table)
    assert {s: game.names.by_seq.get(s) for s in fresh.names.by_seq} == fresh.names.by_seq


def fresh(path) -> Game:
    saved, snapcache.ENABLED = snapcache.ENABLED, False
    try:
        return Game.open(path, read_only=True)
    finally:
        snapcache.ENABLED = saved


def fresh_writable(path) -> Game:
    saved, snapcache.ENABLED = snapcache.ENABLED, False
    try:
        return Game.open(path)
    finally:
        snapcache.ENABLED = saved
