"""The names replay (core/book/names_replay.py) folds lazily (issue 24): the same names
and times as replaying every record through a writer, for work linear in the log.

A writer folds the whole tail again at each strike (it shows the consequences at
once); ``history`` of a log of 500 strikes spent 13 s doing that 500 times. The replay
folds an entry only when a control record is about to take it out of the effective
history; these tests compare it with the writer's replay on generated games full of
undo, redo, strike and unstrike, and count the events it folds.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from bench.generate import Driver, new_game
from bench.hostile_shapes import pingpong, strikes
from stockade.core import rules
from stockade.core.book.game import Game
from stockade.core.book.names_replay import NamesThen
from stockade.core.book.projection import gc_paused
from stockade.core.book.writer import Writer
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal


def writer_replay(records: list[ev.Record]) -> tuple[Mapping, Mapping]:
    """Every record absorbed by a writer, in order, up to the last control record:
    what the names replay did before it folded lazily (the reference)."""
    last = max((r.seq for r in records if ev.is_control(r)), default=0)
    replay = Writer.load(records[:1])
    with gc_paused():
        for record in records[1:last]:
            try:
                replay.absorb(record)
            except ValueError:
                if not ev.is_control(record):
                    break
                replay.store.records.append(record)
    return replay.names.by_seq, replay.when


def needed(records: list[ev.Record]) -> set[int]:
    """The entries the replay answers for: those not in effect at the end (the game's
    own fold names the others)."""
    game = Game.load(records)
    return {r.seq for r in records if not ev.is_control(r)} - {r.seq for r in game.effective}


def played(seed: int, length: int = 350) -> list[ev.Record]:
    """A generated game with a control record about every fourth step: strikes and
    unstrikes of any entry, undo and redo. 350 records (the first 350 of the 500 these
    seeds once made, at half the cost: the reference replay is quadratic): the seeds
    that find a bug planted in the lazy replay are the same at both lengths (an undo
    that does not fold its group first: all six; a strike that folds one entry short:
    four; an unstrike's fold set back one entry short, or not at all: four, six)."""
    game = new_game()
    driver = Driver(game, seed, controls=True)
    rng = random.Random(seed)
    while len(game.records) < length:
        roll = rng.random()
        try:
            if roll < 0.08 and len(game.effective) > 2:
                game.strike(rng.choice(game.effective[1:]).seq, "wrong")
            elif roll < 0.12:
                struck = [r.target for r in game.records if isinstance(r, ev.Strike)]
                if struck:
                    game.unstrike(rng.choice(struck))
            elif roll < 0.18 and game.can_undo():
                game.undo()
            elif roll < 0.24:
                game.redo()
            else:
                driver.step()
        except Refusal:
            pass
    return list(game.records)


@pytest.mark.parametrize("seed", range(6))
def test_the_lazy_replay_names_every_entry_as_the_writer_replay_does(seed):
    records = played(seed)
    assert sum(isinstance(r, ev.Strike) for r in records) > 10
    assert sum(isinstance(r, ev.Unstrike) for r in records) > 3
    assert sum(isinstance(r, ev.Undo) for r in records) > 10
    names, when = writer_replay(records)
    lazy = NamesThen(records)
    for seq in needed(records):
        assert lazy.names.by_seq.get(seq) == names.get(seq), seq
        assert lazy.when.get(seq) == when.get(seq), seq


def test_strikes_and_ping_pong_name_entries_as_the_writer_replay_does():
    for records in (strikes(60), pingpong(60)):
        names, when = writer_replay(records)
        lazy = NamesThen(records)
        for seq in needed(records):
            assert lazy.names.by_seq.get(seq) == names.get(seq), seq
            assert lazy.when.get(seq) == when.get(seq), seq


@pytest.mark.parametrize("shape", [strikes, pingpong])
def test_the_replay_folds_each_entry_a_bounded_number_of_times(monkeypatch, shape):
    steps = 0
    real = rules.step

    def counted(state: object, event: ev.Record) -> None:
        nonlocal steps
        steps += 1
        real(state, event)

    monkeypatch.setattr(rules, "step", counted)
    for count in (50, 100):
        records = shape(count)
        steps = 0
        NamesThen(records)
        # linear: at most two folds an entry (the writer's replay made count**2 / 2:
        # 1,276 and 5,051 steps for 50 and 100 strikes, against bounds of 202 and 402;
        # 200 strikes told it no better and cost 4x more to generate: the log of strikes
        # is written through a Game, which folds the tail at each strike)
        assert steps <= 2 * len(records), (count, steps)
