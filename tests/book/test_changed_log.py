"""A long log's records are read again from the file when a write folds them: one
another program has changed since is refused by name, never folded as if it were the
same, and the game stops writing (a fold that no longer follows the file goes no
further)."""

from __future__ import annotations

from pathlib import Path

import pytest

from stockade.core.book.game import Game
from stockade.core.log import snapcache, store
from stockade.core.log.journal_errors import JournalError
from stockade.core.model.errors import LogRefusal


@pytest.fixture(autouse=True)
def streamed(monkeypatch):
    monkeypatch.setenv("STOCKADE_CACHE_DIR", "off")
    monkeypatch.setattr(store, "STREAM_FROM", 0)  # every log read piece by piece
    monkeypatch.setattr(snapcache, "MIN_EVENTS", 200)
    monkeypatch.setattr(snapcache, "TAIL", 30)


def edit_in_place(path: Path, seq: int) -> None:
    """Change one byte of line ``seq`` (the file keeps its length)."""
    data = bytearray(path.read_bytes())
    start = sum(len(line) + 1 for line in bytes(data).split(b"\n")[: seq - 1])
    end = data.index(b"\n", start)
    at = data.rindex(b'"at":"', start, end) + 7  # a digit of its time: still JSON
    data[at] = ord("9") if data[at] != ord("9") else ord("8")
    path.write_bytes(bytes(data))


def test_a_strike_whose_refold_reads_a_changed_line_is_refused_and_stops_writing(
    tmp_path, generated_log
):
    path = tmp_path / "game.jsonl"
    generated_log(path, 900, 4)
    game = Game.open(path)
    effective = game.effective
    target, last = effective[len(effective) - 20].seq, effective[-1].seq
    game.history()  # every block read once at least (nothing of it kept)
    edit_in_place(path, last)
    with pytest.raises(LogRefusal, match="no longer what was read"):
        game.strike(target, "mistaken")
    assert game.read_only
    with pytest.raises(LogRefusal, match="read-only"):
        game.undo()


def test_a_history_row_of_a_changed_line_is_never_shown_as_it_was(tmp_path, generated_log):
    path = tmp_path / "game.jsonl"
    generated_log(path, 900, 4)
    game = Game.open(path, read_only=True)
    seq = game.effective[len(game.effective) // 2].seq
    edit_in_place(path, seq)
    with pytest.raises(JournalError, match="no longer what was read"):
        list(game.history())
