"""Location control and Exit VP at any size: each ``control`` or ``exit`` entry costs
the fold O(1) time and memory (the rows change in place; an undo entry holds one row
or a count, not a copy of them all), and they still undo, redo, strike, replay and
reopen exactly.

The linear bound is held by counting: the memory a game holds (tracemalloc, no
timing) after 250 / 500 / 1,000 entries, each a Location (or unit) of its own.
"""

from __future__ import annotations

import gc
import tracemalloc

import pytest

from stockade.core.book.game import Game
from stockade.core.commands import execute
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal
from stockade.core.model.victory import MAX_LOCATIONS

SIDES = [ev.SideSpec("German", "German"), ev.SideSpec("Russian", "Russian")]


def _game() -> Game:
    return Game.in_memory("Control", SIDES, first_attacker="German")


def _control(n: int) -> list[list[ev.Record]]:
    return [[ev.LocationControlled(location=f"X{n}", side=SIDES[n % 2].name)]]


def _exit(n: int) -> list[list[ev.Record]]:
    side = SIDES[n % 2].name
    entered = ev.UnitEntered(
        handle=f"u{n}", side=side, unit_kind="squad", counter="4-6-7", location="A1"
    )
    return [[entered], [ev.Exited(units=[f"u{n}"], edge="east")]]


def _held_at(counts: tuple[int, ...], entries) -> dict[int, int]:
    """Bytes one game holds, beyond a new game, once it has had each of ``counts`` times
    ``entries`` (one game grown through them all: what it holds at 250 is what a game of
    250 holds, and the entries are built once, not once a size)."""
    game = _game()
    held: dict[int, int] = {}
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        for n in range(max(counts)):
            for events in entries(n):
                game.submit(events)
            if n + 1 in counts:
                gc.collect()
                held[n + 1] = tracemalloc.get_traced_memory()[0] - base
        return held
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("entries", [_control, _exit], ids=["control", "exit"])
def test_memory_held_grows_linearly_with_the_entries(entries):
    held = _held_at((250, 500, 1_000), entries)
    # linear: 4x the entries, ~4x the bytes (a tuple copied into every undo entry
    # made it ~16x for control: 4k entries held 515 MB). Measured here: 2.0x and 4.0x
    # (control and exit). Planted in core/model/book_rows.py (put and add also record
    # ``tuple(self)`` in the undo entry: each holds a copy of the rows): 3.2x / 10.9x
    # (control) and 2.6x / 7.6x (exit), so the 4x bound catches both at half the
    # sizes 500-2,000 (where they were 3.5x / 12.7x and 2.9x / 9.5x).
    assert held[500] / held[250] < 2.5, held
    assert held[1_000] / held[250] < 5, held


def _pairs(game: Game) -> list[tuple[str, str]]:
    return list(game.state.vc.held())


_LINES = ["control P4 Q5 German", "control R6 Russian", "control P4 Russian", "control Q5 -"]


def test_rows_keep_the_order_first_set_and_nobody_is_not_held():
    game = _game()
    for line in _LINES:
        execute(game, line)
    assert _pairs(game) == [("P4", "Russian"), ("R6", "Russian")]
    assert game.state.vc.controller("p4") == "Russian"
    assert game.state.vc.controller("Q5") == ""


def test_undo_redo_strike_and_replay_give_back_exactly_what_was_there():
    game = _game()
    for line in _LINES:
        execute(game, line)
    after = _pairs(game)
    seqs = [r.seq for r in game.records if type(r) is ev.LocationControlled]
    view = game.state_at(seqs[1])  # after 'control P4 Q5 German'
    assert list(view.vc.held()) == [("P4", "German"), ("Q5", "German")]
    for _ in _LINES:
        game.undo()
    assert _pairs(game) == []
    assert list(view.vc.held()) == [("P4", "German"), ("Q5", "German")], "the view moved"
    for _ in _LINES:
        game.redo()
    assert _pairs(game) == after
    game.strike(seqs[2], "wrong side")  # 'control R6 Russian'
    assert _pairs(game) == [("P4", "Russian")]
    game.unstrike(seqs[2])
    assert _pairs(game) == after
    assert list(view.vc.held()) == [("P4", "German"), ("Q5", "German")], "the view moved"


def test_a_clone_has_rows_of_its_own():
    game = _game()
    execute(game, "control P4 German")
    clone = game.state.clone()
    execute(game, "control P4 Russian")
    assert list(clone.vc.held()) == [("P4", "German")]


def test_reopened_from_the_log_the_rows_are_the_same(tmp_path):
    path = tmp_path / "g.jsonl"
    game = Game.create(path, "Control", SIDES, first_attacker="German")
    for line in _LINES:
        execute(game, line)
    after = _pairs(game)
    game.close()
    again = Game.open(path)
    try:
        assert _pairs(again) == after
        execute(again, "control S7 German")
        again.undo()
        assert _pairs(again) == after
    finally:
        again.close()


def test_one_control_names_at_most_max_locations():
    game = _game()
    many = " ".join(f"X{n}" for n in range(MAX_LOCATIONS + 1))
    with pytest.raises(Refusal, match=f"at most {MAX_LOCATIONS} at once"):
        execute(game, f"control {many} German")
    assert len(game.records) == 1  # nothing written
    execute(game, f"control {' '.join(many.split()[:MAX_LOCATIONS])} German")
    assert len(_pairs(game)) == MAX_LOCATIONS


def test_exits_undo_redo_and_replay_give_back_exactly_what_was_there():
    game = _game()
    execute(game, "add German 4-6-7 x3 at P4")
    execute(game, "exit g1 off east")
    execute(game, "exit g2 g3 off west")
    seq = game.records[-1].seq
    view = game.state_at(seq - 1)
    assert [line.unit for line in view.vc.exits] == ["g1"]
    assert game.state.vc.exit_vp("German") == 6
    game.undo()
    game.undo()
    assert list(game.state.vc.exits) == []
    assert [line.unit for line in view.vc.exits] == ["g1"], "the view moved"
    game.redo()
    game.redo()
    assert [line.unit for line in game.state.vc.exits] == ["g1", "g2", "g3"]
    assert game.state_at(seq).vc.exit_vp("German", "west") == 4
