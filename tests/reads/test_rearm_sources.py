"""The side panels' rearm verdicts ask only about the enemies that may rearm someone
now (this phase's losses, not spent), and give the answers trying every unit gives.

Generated campaigns (bench/generate.py: legal logs of many scenarios) are played
forward; at many points every free unarmed unit's ways are compared with the per-unit
answer: each unit of the game tried by ``rearm_refusal``, each way in turn. Now and
then a way found is entered (``Rearmed``), so spent enemies are in the games too.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from bench.generate import Driver, new_game
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import UNARMED, Unit
from stockade.core.reads import views
from stockade.core.rules.escape import rearm_refusal
from stockade.core.rules.lookup import clock

WAYS: tuple[ev.RearmHow, ...] = ("surrender", "alone", "cc")


def every_unit_asked(state: GameState, u: Unit) -> list[tuple[str, str]]:
    """The per-unit answer: every unit of the game, in order, with its first way."""
    found: list[tuple[str, str]] = []
    for enemy in state.units.values():
        if enemy.side == u.side:
            continue
        for how in WAYS:
            if rearm_refusal(state, u, how, enemy) is None:
                found.append((enemy.handle, how))
                break
    return found


def played(seed: int, steps: int, every: int) -> Any:
    """A generated campaign's states every ``every`` actions, with rearms entered."""
    game = new_game()
    driver = Driver(game, seed, controls=False)
    for step in range(steps):
        driver.step()
        if step % every:
            continue
        yield game.state
        for u in [u for u in game.state.units.values() if u.status == UNARMED]:
            ways = views.rearm_ways(game.state, u)
            if ways and step % (every * 2) == 0:
                enemy, how = ways[0]
                # refused only for a counter the nationality table lacks
                with contextlib.suppress(Refusal):
                    game.submit([ev.Rearmed(handle=u.handle, how=how, enemy=enemy.handle)])
                break


@pytest.mark.parametrize("seed", [3, 11])
def test_rearm_ways_equal_every_unit_asked(seed: int) -> None:
    checked = open_ways = spent = 0
    for state in played(seed, 900, 15):
        for u in state.units.values():
            if u.status != UNARMED:
                continue
            got = [(e.handle, how) for e, how in views.rearm_ways(state, u)]
            assert got == every_unit_asked(state, u), (u.handle, clock(state))
            checked += 1
            open_ways += bool(got)
        spent += sum(x.rearm_spent for x in state.units.values())
    # the comparison is not empty: unarmed units, ways open now, and spent enemies
    assert checked > 200 and open_ways > 0 and spent > 0, (checked, open_ways, spent)


def test_rearm_asks_only_about_enemies_that_may_rearm_now(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Work counted: the panels ask ``rearm_refusal`` only about enemies lost in this
    phase and not spent; an earlier phase's losses (most of a campaign's) are never
    asked about, whatever the number of unarmed units."""
    asked: list[tuple[Unit, Unit | None]] = []

    def counted(
        state: GameState,
        u: Unit,
        how: str,
        enemy: Unit | None,
        active_at: dict[str, list[Unit]] | None = None,
    ) -> Refusal | None:
        asked.append((u, enemy))
        return rearm_refusal(state, u, how, enemy, active_at)

    monkeypatch.setattr(views, "rearm_refusal", counted)
    game = new_game()
    driver = Driver(game, 5, controls=False)
    while len(game.records) < 2500:
        driver.step()
    state = game.state
    now = clock(state)
    unarmed = [u for u in state.units.values() if u.status == UNARMED]
    stale = [
        u
        for u in state.units.values()
        if u.status in ("eliminated", "prisoner") and u.lost_clock and u.lost_clock != now
    ]
    assert len(unarmed) > 20 and len(stale) > 100  # a campaign, not a skirmish
    fresh = {u.handle for u in state.units.values() if u.lost_clock in (now, "")}
    views.side_panels(state)
    assert all(e is not None and not e.rearm_spent for _, e in asked)
    assert all(e.handle in fresh for _, e in asked if e), "asked about an earlier loss"
    assert len(asked) <= len(WAYS) * len(unarmed) * len(fresh)
