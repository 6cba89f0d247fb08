"""A long group (``stockade run``) keeps its last records only: the rest are read back
from the spill they are staged in, then from the log they are copied into
(``core.log.read_back``), and every reader sees the very records written."""

from __future__ import annotations

from pathlib import Path

import pytest

from stockade.core.book.game import Game
from stockade.core.commands.execute import execute
from stockade.core.log.records import WINDOW, LogRecords
from stockade.core.model import events as ev

SIDES = [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]


def _moves(count: int) -> list[str]:
    return [f"move a1 {'R8' if n % 2 else 'R7'}{n % 7}" for n in range(count)]


def _game(tmp_path: Path) -> Game:
    path = tmp_path / "game.jsonl"
    Game.create(path, "Read back", SIDES, first_attacker="American").close()
    game = Game.open(path)
    execute(game, "add American 7-4-7 as a1 at Q5")  # written before: held, and placed
    return game


def _fresh(game: Game) -> tuple[list[ev.Record], dict[str, object]]:
    """The records and state the log on disk holds, read afresh."""
    assert game.path is not None
    fresh = Game.open(game.path, read_only=True)
    try:
        units = {h: (u.location, u.status) for h, u in fresh.state.units.items()}
        return list(fresh.records), units | {"last": fresh.state.last_seq}
    finally:
        fresh.close()


def _state(game: Game) -> dict[str, object]:
    units = {h: (u.location, u.status) for h, u in game.state.units.items()}
    return units | {"last": game.state.last_seq}


def _held(records: object) -> int:
    assert isinstance(records, LogRecords)
    return sum(1 for _ in records.held())


def test_a_long_group_holds_its_last_records_and_reads_the_rest_back(tmp_path):
    game = _game(tmp_path)
    try:
        before = len(game.records)
        with game.one_write():
            for line in _moves(700):
                execute(game, line)
            staged = list(game.records)  # the group's first lines: read from the spill
            # held: the records written before the group, and the group's last few
            # (the old code: every one of the 700)
            assert _held(game.records) <= before + WINDOW, _held(game.records)
            first = before + 1
            game.strike(first + 3, "moved by mistake")  # reads the group's early lines
            game.unstrike(first + 3)
        records, state = _fresh(game)
        assert staged == records[: len(staged)] and len(records) == before + 702
        assert list(game.records) == records  # now read from the log, where they were
        assert _state(game) == state
        game.strike(before + 10)  # after the group: its lines are read from the log
        assert _state(game) == _fresh(game)[1]
    finally:
        game.close()


def test_a_group_given_up_leaves_the_game_as_it_was_and_writes_on(tmp_path):
    game = _game(tmp_path)
    try:
        records, state = list(game.records), _state(game)
        with pytest.raises(RuntimeError), game.one_write():
            for line in _moves(400):
                execute(game, line)
            raise RuntimeError("given up")
        assert list(game.records) == records and _state(game) == state
        assert _fresh(game) == (records, state)
        execute(game, "move a1 S5")  # the game writes on after the group given up
        assert list(game.records) == _fresh(game)[0] and _state(game) == _fresh(game)[1]
    finally:
        game.close()


def test_the_index_made_while_staging_is_the_one_a_read_of_the_log_makes(tmp_path, monkeypatch):
    """Each staged line is placed where it lands in the log: the index (each block's
    start and CRC-32) is the very one a fresh read of the file makes, so a snapshot
    keeping it is adopted by the next open as if it had read the file itself."""
    from stockade.core.log import store

    game = _game(tmp_path)
    try:
        with game.one_write():  # lines of several lengths, blocks begun mid-command
            for n, line in enumerate(_moves(300)):
                execute(game, line if n % 50 else "add German 4-6-7 hs at S5")
        execute(game, "move a1 S5")  # after the group: held, not indexed
        records = game.records
        assert isinstance(records, LogRecords) and game.path is not None
        made = records.line_index()
    finally:
        game.close()
    monkeypatch.setattr(store, "STREAM_FROM", 0)  # read piece by piece, indexed afresh
    read = store.LogStore.read_sound(game.path)
    assert read is not None and isinstance(read.records, LogRecords)
    fresh = read.records.line_index()
    read.close()
    assert made.lines == fresh.lines - 1 and made.starts == fresh.starts[: len(made.starts)]
    assert made.sums[:-1] == fresh.sums[: len(made.sums) - 1]
