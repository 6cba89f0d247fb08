"""Shared helpers for the rule tests (no tests here).

Games are built in memory with ``Game.in_memory`` and changed only through
``game.submit``; a refusal must leave the log exactly as it was.
"""

from __future__ import annotations

import pytest

from stockade.core.book.game import Game
from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal, Refusal, RuleRefusal
from stockade.core.model.state import GameState

US = "Americans"
DE = "Germans"


def new_game(
    us: str = "American", de: str = "German", us_elr: int = 3, de_elr: int = 3, **kw
) -> Game:
    return Game.in_memory("test", [ev.SideSpec(US, us, us_elr), ev.SideSpec(DE, de, de_elr)], **kw)


def add(
    game: Game,
    handle: str,
    side: str,
    kind: str,
    counter: str,
    loc: str = "Q4",
    traits: tuple[str, ...] = (),
    broken: bool = False,
    **status,
) -> None:
    game.submit(
        [
            ev.UnitEntered(
                handle=handle,
                side=side,
                unit_kind=kind,
                counter=counter,
                location=loc,
                traits=list(traits),
                broken=broken,
            )
        ]
    )
    if status:
        game.submit([ev.StatusChanged(handle=handle, **status)])


def phase(game: Game, name: ev.Phase, attacker: str = US, turn: int = 1) -> None:
    game.submit([ev.PhaseSet(turn=turn, attacker=attacker, phase=name)])


def status(game: Game, handle: str, **changes) -> None:
    game.submit([ev.StatusChanged(handle=handle, **changes)])


def refused(game: Game, events: list[ev.Record] | ev.Record, rule: str) -> Refusal:
    """Submit, expect a Refusal citing ``rule``, and check nothing was written."""
    if not isinstance(events, list):
        events = [events]
    before = len(game.records)
    with pytest.raises(Refusal) as info:
        game.submit(events)
    if rule == "input":  # an input mistake is no ruling: a plain sentence, no rule
        assert isinstance(info.value, InputRefusal), repr(info.value)
        assert info.value.rule == "" and not str(info.value).startswith("input")
    else:
        assert isinstance(info.value, RuleRefusal), repr(info.value)
        assert info.value.rule == rule, str(info.value)
        assert str(info.value).startswith(rule + ": ")
    assert len(game.records) == before
    return info.value


def ok(game: Game, events: list[ev.Record] | ev.Record) -> None:
    if not isinstance(events, list):
        events = [events]
    game.submit(events)
    assert not game.conflicts


def cvp(state: GameState, side: str) -> int:
    return sum(c.points for c in state.casualties if c.credited == side)


def u(game: Game, handle: str):
    return game.state.units[handle]


def with_prisoners(
    game: Game | None = None,
    *,
    guard_kind: str = "squad",
    guard_counter: str = "6-6-7",
    n: int = 1,
    loc: str = "Q4",
) -> Game:
    """An American Guard ``a1`` in ``loc`` holding ``n`` German squad prisoners g1..gn,
    taken by RtPh surrender; ends in the American RtPh."""
    game = game or new_game()
    add(game, "a1", US, guard_kind, guard_counter, loc)
    handles = []
    for i in range(1, n + 1):
        add(game, f"g{i}", DE, "squad", "4-6-7", loc, broken=True)
        handles.append(f"g{i}")
    phase(game, "RtPh")
    ok(game, ev.Surrendered(units=handles, guard="a1"))
    return game
