"""A game that goes on being written (a long ``stockade run``) holds a window of its
history's undo journal, not one entry per record: what an undo, a redo or a view
reaching past the window needs is made again (``Projection.complete_journal``), and
they do exactly what they did with the whole journal held."""

from __future__ import annotations

from pathlib import Path

from stockade.core.book.game import Game
from stockade.core.commands.execute import execute
from stockade.core.log import snap_sizes
from stockade.core.model import events as ev
from stockade.core.model.state import GameState

SIDES = [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]


def _moves(count: int) -> list[str]:
    moves = [f"move a1 {'R8' if n % 2 else 'R7'}" for n in range(1, count)]
    return ["add American 7-4-7 as a1 at Q5", "add German 4-6-7 as g1 at S5", *moves]


def _snapshot(state: GameState) -> dict[str, object]:
    return {h: (u.location, u.status, u.side) for h, u in state.units.items()} | {
        "last": state.last_seq
    }


def _game(tmp_path: Path) -> Game:
    path = tmp_path / "game.jsonl"
    Game.create(path, "Window", SIDES, first_attacker="American").close()
    return Game.open(path)


def test_a_long_write_keeps_a_window_of_its_undo_journal(tmp_path, monkeypatch):
    monkeypatch.setattr(snap_sizes, "MIN_EVENTS", 300)
    game = _game(tmp_path)
    try:
        with game.one_write():
            for line in _moves(900):
                execute(game, line)
        held = sum(entry is not None for entry in game.projection.undo)
        assert held == snap_sizes.TAIL, held  # (the old code: all 901)
        assert game.projection.undo[0] is None  # gaps are a prefix, as after an open
    finally:
        game.close()


def _as_read(game: Game) -> dict[str, object]:
    """The state the log on disk folds to, read afresh (the disk is the store)."""
    assert game.path is not None
    fresh = Game.open(game.path, read_only=True)
    try:
        return _snapshot(fresh.state)
    finally:
        fresh.close()


def test_undo_strike_and_views_past_the_window_are_those_of_the_whole_journal(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(snap_sizes, "MIN_EVENTS", 300)
    game = _game(tmp_path)
    try:
        execute(game, "add German 4-6-7 as g2 at S6")
        anchor = len(game.records)
        before = _snapshot(game.state)
        with game.one_write():
            for line in _moves(900):
                execute(game, line)
        after = _snapshot(game.state)
        assert after == _as_read(game)
        first = anchor + 1  # the script's first line
        middle = game.state_at(first + 402)  # a view 500 entries back: past the window
        assert middle.units["a1"].location == "R8" and middle.last_seq == first + 402
        game.strike(first + 2, "moved by mistake")  # a1's first move, past the window
        assert _snapshot(game.state) == _as_read(game)
        game.unstrike(first + 2)
        assert _snapshot(game.state) == _as_read(game) == after
        game.undo_to(anchor)  # every line of the script, each its own entry
        assert _snapshot(game.state) == _as_read(game) == before
        game.redo()
        game.redo()
        assert _snapshot(game.state) == _as_read(game)
        assert set(game.state.units) == {"g2", "a1", "g1"}
        execute(game, "move a1 Q6")
        assert _snapshot(game.state) == _as_read(game)
        assert game.state.units["a1"].location == "Q6"
    finally:
        game.close()


def test_a_game_opened_from_its_snapshot_then_written_past_the_window(tmp_path, monkeypatch):
    """The snapshot's back rows need the journal from where it was taken: a write past
    the window lets them go, and an undo reaching before the snapshot folds as after
    an open with none (the state the log folds to afresh)."""
    monkeypatch.setattr(snap_sizes, "MIN_EVENTS", 300)
    game = _game(tmp_path)
    with game.one_write():
        for line in _moves(400):
            execute(game, line)
    anchor = len(game.records)
    game.close()  # writes the snapshot: 400 entries
    game = Game.open(tmp_path / "game.jsonl")
    try:
        assert game.projection.restored
        for n in range(300):
            execute(game, f"move g1 {'S6' if n % 2 else 'S7'}")
        assert game.projection.undo[game.projection.snap_position] is None
        game.undo_to(anchor - 10)
        assert _snapshot(game.state) == _as_read(game)
        assert game.state.units["a1"].location == game.state_at(anchor - 10).units["a1"].location
    finally:
        game.close()
