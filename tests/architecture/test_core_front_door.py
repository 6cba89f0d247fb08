"""``Game`` is a front door: it keeps nothing of its own, and the writer (``core.book.writer``)
owns the parts it reads, so re-reading the log after a failed write replaces the parts
in place instead of copying a scratch game into this one (issue 10)."""

from __future__ import annotations

import errno
import typing

import pytest

from bench.generate import Driver, new_game
from stockade.core.book.game import Game
from stockade.core.book.writer import Writer
from stockade.core.log.game_log import load
from stockade.core.log.store import LogStore
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal
from stockade.core.model.state import GameState


def _played(tmp_path, steps: int = 30):
    game = new_game(path=tmp_path / "game.jsonl")
    driver = Driver(game, seed=5)
    for _ in range(steps):
        driver.step()
    return game


def test_a_game_keeps_only_its_writer_and_reads_every_part_through_it(tmp_path):
    game = _played(tmp_path)
    try:
        assert set(vars(game)) == {"writer"} and isinstance(game.writer, Writer)
        writer = game.writer
        assert game.store is writer.store and game.timeline is writer.timeline
        assert game.projection is writer.projection
        assert game.records is writer.store.records and game.state is writer.projection.state
        assert game.conflicts is writer.projection.conflicts
        assert game.effective is writer.projection.effective
    finally:
        game.close()


def test_a_failed_write_replaces_the_parts_in_place(tmp_path):
    game = _played(tmp_path)
    writer, old_store, old_fold = game.writer, game.store, game.projection
    accepted = list(game.records)

    def failing_write(fd, data):
        raise OSError(errno.EIO, "Input/output error")

    assert game.journal is not None
    game.journal._write = failing_write
    with pytest.raises(Refusal, match="NOT recorded"):
        game.undo()
    # the same game and writer; a fresh store, timeline and fold from the file
    assert game.writer is writer and game.store is not old_store
    assert game.projection is not old_fold and game.records == accepted
    assert not game.read_only
    change = game.undo()  # play goes on with the re-read parts
    assert change.undone and load(tmp_path / "game.jsonl").records == game.records
    game.close()


def _holds_any(hint: object) -> bool:
    """Is ``Any`` anywhere in ``hint`` (``list[Any]``, ``X | Any``, ...)?"""
    if hint is typing.Any:
        return True
    return any(_holds_any(arg) for arg in typing.get_args(hint))


def _public_hints(cls: type) -> dict[str, dict[str, object]]:
    """Every public attribute of ``cls`` with the hints a type checker sees for it
    (a property: its getter's; a method: its parameters' and return's)."""
    found = {}
    for name, member in vars(cls).items():
        if name.startswith("_"):
            continue
        function = member.fget if isinstance(member, property) else member
        function = getattr(function, "__func__", function)  # classmethods
        if callable(function):
            found[name] = typing.get_type_hints(function)
    return found


def test_nothing_the_front_door_hands_a_caller_is_any():
    """What ``reveal_type`` would show of ``Game``'s public attributes: every one has
    a return type, and no ``Any`` anywhere in its parameters or result."""
    hints = _public_hints(Game)
    assert {"state", "records", "conflicts", "when", "names", "submit"} <= hints.keys()
    untyped = [name for name, h in hints.items() if "return" not in h]
    assert not untyped, f"no return type: {untyped}"
    loose = [name for name, h in hints.items() if any(map(_holds_any, h.values()))]
    assert not loose, f"Any reaches a caller through: {loose}"
    # a property's type is the one its getter says
    assert hints["state"]["return"] is GameState
    assert typing.get_args(hints["records"]["return"]) == (ev.Record,)


def test_opening_a_store_returns_the_store_it_built(tmp_path):
    path = tmp_path / "game.jsonl"
    _played(tmp_path).close()
    store = LogStore.open(path, read_only=True)
    assert isinstance(store, LogStore) and store.path == path and store.records
    writer = Writer.from_store(store)
    assert writer.store is store and store.log_data is None  # the bytes were let go
