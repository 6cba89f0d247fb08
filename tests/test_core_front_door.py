"""``Game`` is a front door: it keeps nothing of its own, and the writer (``core.book.writer``)
owns the parts it reads, so re-reading the log after a failed write replaces the parts
in place instead of copying a scratch game into this one (issue 10)."""

from __future__ import annotations

import errno

import pytest

from bench.generate import Driver, new_game
from stockade.core.book.writer import Writer
from stockade.core.log.game_log import load
from stockade.core.model.errors import Refusal


def _played(tmp_path, steps: int = 30):
    game = new_game(path=tmp_path / "game.jsonl")
    driver = Driver(game, seed=5)
    for _ in range(steps):
        driver.step()
    return game


def test_a_game_keeps_only_its_writer_and_reads_every_part_through_it(tmp_path):
    game = _played(tmp_path)
    try:
        # the writer, and a memo of the names replay (derived from the log, per store)
        assert set(vars(game)) == {"writer", "replays"} and isinstance(game.writer, Writer)
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
