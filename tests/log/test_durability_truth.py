"""Every write tells the truth: what the player is told is what is on disk, when the
disk fails, another program writes the log, or cuts it short (issue 23).

What reached the file is decided by content (the records the game holds, the bytes it
tried to write), never by a count of lines; a line the game did not write is never
taken in; lost entries are counted and kept in a side file; OS errors are told apart by
their number, never by their words, and every message names the file."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from stockade.core.book.game import Game
from stockade.core.cli import main
from stockade.core.commands import execute
from stockade.core.log import files as files_module
from stockade.core.log.game_log import load
from stockade.core.log.torn_tail import set_aside
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal

SIDES = [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]


def _game(tmp_path: Path, entries: int = 6) -> Game:
    game = Game.create(tmp_path / "game.jsonl", "Truth", SIDES, first_attacker="American")
    for n in range(1, entries + 1):
        _enter(game, n)
    return game


def _enter(game: Game, n: int) -> None:
    execute(game, f"add German 4-6-7 as g{n} at Q{n % 9 + 1}")


def test_a_foreign_line_is_never_taken_in_and_the_entry_is_told_not_recorded(tmp_path, capsys):
    game = _game(tmp_path)
    path = game.path
    assert path is not None
    held = list(game.records)
    foreign_seq = len(held) + 1
    with open(path, "ab") as log:  # another program appends a plausible record
        log.write(b'{"kind":"end","seq":%d,"v":1,"grp":%d}\n' % (foreign_seq, foreign_seq))
    with pytest.raises(Refusal) as told:
        execute(game, "move g1 P5")
    message = str(told.value)
    assert "NOT recorded" in message and f"line {foreign_seq}" in message
    assert '{"kind":"end"' in message  # the foreign line, named
    assert "after all" not in message and "kept" not in message
    assert game.records == held and not game.state.ended  # nothing foreign folded
    assert game.read_only  # the window stops writing
    with pytest.raises(Refusal, match="read-only"):
        _enter(game, 99)
    game.close()
    on_disk = load(path).records
    assert [r.seq for r in on_disk] == [*(r.seq for r in held), foreign_seq]  # not the move
    # and check says the log stops being Stockade's exactly where the message said
    capsys.readouterr()
    assert main(["check", str(path)]) != 0
    assert f"line {foreign_seq}:" in capsys.readouterr().err


def test_a_log_cut_short_names_the_lost_entries_and_keeps_the_old_bytes(tmp_path):
    game = _game(tmp_path, entries=8)
    path = game.path
    assert path is not None
    had = list(game.records)
    lines = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join(lines[:5]) + b"\n")  # another program keeps 5 lines
    with pytest.raises(Refusal) as told:
        _enter(game, 20)
    message = str(told.value)
    lost = len(had) - 5
    assert f"{lost} accepted entries are no" in message and "entries 6-9" in message
    kept = Path(message.split("was kept in ")[1].split(". ")[0])
    assert kept.parent == path.parent and kept.name.startswith("game.jsonl.kept-")
    assert load(kept).records == had  # what the game had, byte for byte readable
    assert game.records == load(path).records == had[:5]  # goes on from the file
    assert not game.read_only
    _enter(game, 21)
    assert load(path).records == game.records
    game.close()


def test_a_log_changed_in_place_is_a_loss_too(tmp_path):
    game = _game(tmp_path, entries=4)
    path = game.path
    assert path is not None
    data = path.read_bytes()
    path.write_bytes(data.replace(b'"g2"', b'"g8"') + b"")  # same length, other records
    with open(path, "ab") as log:
        log.write(b"\n")  # and one byte more, so the journal notices before writing
    with pytest.raises(Refusal, match="no longer in the log") as told:
        _enter(game, 9)
    assert "entries 3-5" in str(told.value)
    game.close()


@pytest.mark.parametrize(
    ("number", "said"),
    [
        (errno.ENOSPC, "The disk is full"),
        (errno.EROFS, "The disk is read-only"),
        (errno.EACCES, "may not write this file"),
    ],
)
def test_disk_errors_are_told_by_their_number_and_name_the_file(tmp_path, number, said):
    game = _game(tmp_path, entries=1)
    assert game.journal is not None and game.path is not None

    def failing(fd, data):  # the words are not the C library's: only the number counts
        raise OSError(number, "Plus de place ni de permission")

    game.journal._write = failing
    with pytest.raises(Refusal) as told:
        _enter(game, 2)
    assert said in str(told.value) and str(game.path) in str(told.value)
    assert "NOT recorded" in str(told.value)
    game.close()


def test_a_side_file_that_cannot_be_written_is_not_left_empty(tmp_path, monkeypatch):
    log = tmp_path / "game.jsonl"
    log.write_bytes(b"{}\n")

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files_module, "write_all", full)
    for _ in range(3):
        with pytest.raises(OSError):
            set_aside(log, b'{"kind":"unit"')
    assert sorted(os.listdir(tmp_path)) == ["game.jsonl"]


def test_a_log_cut_short_between_entries_is_told_before_the_next_one(tmp_path):
    """The app asks ``check_log`` every few seconds: losses are named then, with the
    copy kept, and the game goes on from the file, before the player types anything."""
    game = _game(tmp_path, entries=5)
    path = game.path
    assert path is not None
    had = list(game.records)
    assert game.check_log() == ""
    lines = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join(lines[:3]) + b"\n")
    told = game.check_log()
    assert "3 accepted entries are no longer in the log" in told and "entries 4-6" in told
    kept = Path(told.split("was kept in ")[1].split(". ")[0])
    assert load(kept).records == had
    assert game.records == had[:3] and not game.read_only
    assert game.check_log() == ""  # said once
    _enter(game, 30)
    assert load(path).records == game.records
    game.close()


def test_a_foreign_line_between_entries_is_told_and_not_taken_in(tmp_path):
    game = _game(tmp_path, entries=2)
    path = game.path
    assert path is not None
    held = list(game.records)
    with open(path, "ab") as log:
        log.write(b'{"kind":"end","seq":4,"v":1,"grp":4}\n')
    told = game.check_log()
    assert "line 4 was not written by this game" in told
    assert game.records == held and game.read_only and not game.state.ended
    game.close()


def test_a_log_cut_short_during_a_held_group_keeps_what_the_file_held(tmp_path):
    """The copy kept is the log as the game had it ON FILE: a held group's records
    (``one_write``, ``stockade run``), never written, are not in it."""
    game = _game(tmp_path, entries=4)
    path = game.path
    assert path is not None
    had = list(game.records)
    with pytest.raises(Refusal, match="no longer in the log") as told, game.one_write():
        _enter(game, 10)
        _enter(game, 11)
        lines = path.read_bytes().split(b"\n")
        path.write_bytes(b"\n".join(lines[:2]) + b"\n")  # cut short meanwhile
    kept = Path(str(told.value).split("was kept in ")[1].split(". ")[0])
    assert load(kept).records == had
    assert game.records == had[:2] == load(path).records
    game.close()
