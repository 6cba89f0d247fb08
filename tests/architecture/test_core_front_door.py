"""``Game`` is one front door: it is its writer (``core.book.writer``), which owns the
parts, so re-reading the log after a failed write replaces the parts in place instead of
copying a scratch game into this one; and nothing of the writer is written again in it
(no method that only forwards, no second constructor)."""

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


def test_a_game_is_its_writer_and_keeps_nothing_more(tmp_path):
    game = _played(tmp_path)
    try:
        assert isinstance(game, Writer)
        assert set(vars(game)) == set(vars(Writer.load(game.records)))  # the parts only
        assert game.records is game.store.records and game.state is game.projection.state
        assert game.conflicts is game.projection.conflicts
        assert game.effective is game.projection.effective
    finally:
        game.close()


def test_nothing_of_the_writer_is_written_again_in_the_game():
    """A name ``Game`` defines that ``Writer`` has too would be a forward (or a second
    constructor): the writer's methods are the game's own."""
    ours = {name for name in vars(Game) if not name.startswith("__")}
    assert sorted(ours & set(dir(Writer))) == []
    assert "__init__" not in vars(Game)


def test_a_failed_write_replaces_the_parts_in_place(tmp_path):
    game = _played(tmp_path)
    old_store, old_fold = game.store, game.projection
    accepted = list(game.records)

    def failing_write(fd, data):
        raise OSError(errno.EIO, "Input/output error")

    assert game.journal is not None
    game.journal._write = failing_write
    with pytest.raises(Refusal, match="NOT recorded"):
        game.undo()
    # the same game; a fresh store, timeline and fold from the file
    assert game.store is not old_store
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
    members = {n: m for c in reversed(cls.__mro__[:-1]) for n, m in vars(c).items()}
    for name, member in members.items():
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
