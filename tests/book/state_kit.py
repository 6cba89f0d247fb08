"""A state as plain data, a fold from scratch and a check of the state's indexes: what
the book's history tests compare a game against (a plain module, not a test module)."""

from __future__ import annotations

from bench.generate import generate
from stockade.core import rules
from stockade.core.book.game import Game
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import PRISONER
from stockade.core.rules.partial import part_that_holds
from tests.model.plain import plain, unit_values


def dump(state) -> dict:
    """Everything a state holds, in order (unit order matters: rules iterate it)."""
    return {
        "units": [(h, unit_values(u)) for h, u in state.units.items()],
        "sides": [(n, plain(s)) for n, s in state.sides.items()],
        "casualties": [plain(c) for c in state.casualties],
        "clock": (state.turn, state.attacker, state.phase, state.ended, state.last_seq),
        "scenario": state.scenario,
        "cvp": dict(state.cvp_overrides),
        "scrounged": sorted(state.scrounged),
    }


def fresh_fold(records: list[ev.Record]) -> tuple[GameState, set[int]]:
    """The state and the conflicting seqs after folding ``records`` from scratch."""
    state: GameState = GameState()
    conflicts: set[int] = set()
    for record in records:
        fold_into(state, conflicts, record)
    return state, conflicts


def fold_into(state: GameState, conflicts: set[int], record: ev.Record) -> None:
    """Fold one more record from scratch: what does not hold is a conflict, unless a
    part of it holds (core/rules/partial.py), which is folded instead."""
    try:
        rules.step(state, record)
    except Refusal:
        part = part_that_holds(state, record)
        if part is None:
            conflicts.add(record.seq)
        else:
            rules.step(state, part[0])


def check_index(state: GameState) -> None:
    """The prisoner and Location indexes equal a scan of every unit."""
    for where in {u.location for u in state.units.values()} | {"", "nowhere"}:
        assert state.active_at(where) == [
            u for u in state.units.values() if u.location == where and u.status == "active"
        ]
    scan = [u for u in state.units.values() if u.status == PRISONER]
    assert state._prisoners() == scan
    assert all(u.guard is not None for u in scan), "a prisoner without a Guard"
    for guard in {u.guard for u in scan if u.guard is not None} | set(list(state.units)[:50]):
        assert state.prisoners_of(guard) == [u for u in scan if u.guard == guard]
    held = {u.guard for u in scan}
    assert state.guards() == [state.units[h] for h in state.units if h in held]


def campaign_with_conflicts(entries: int) -> Game:
    """A generated campaign (undo/redo/strike included) of ``entries`` entries, with
    surrenders struck until three later entries no longer hold: the conflicts a fresh
    fold must find at the same entries (a campaign without any would compare two empty
    sets)."""
    game = generate(entries, seed=11)
    for record in list(game.effective):
        if isinstance(record, ev.Surrendered) and record.seq > 100:
            game.strike(record.seq, "to make later entries conflict")
            if len(game.conflicts) >= 3:
                break
    assert len(game.conflicts) >= 3, game.conflicts
    return game
