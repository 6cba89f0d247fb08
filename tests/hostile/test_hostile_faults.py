"""The faults a player meets (issue 13): a full disk while appending, a read-only
folder, the log deleted or replaced while the game is open.

In each: the entry is refused with a clear message, nothing already recorded is lost
(the file is re-read and compared), and nothing is written where it should not be.
docs/durability.md quotes the figures these tests print (run with ``-s``)."""

from __future__ import annotations

import errno
import os
import subprocess
from pathlib import Path

import pytest

from stockade.core.book.game import Game
from stockade.core.cli import main
from stockade.core.commands import execute
from stockade.core.log.game_log import load
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal
from tests.tui.support import new_game, sync

SIDES = [("American", "American", 4), ("German", "German", 3)]


def on_disk(path: Path) -> list[ev.Record]:
    loaded = load(path)
    assert loaded.problem is None and loaded.torn_tail is None, loaded
    return loaded.records


def enter(game: Game, n: int) -> str:
    return execute(game, f"add German 4-6-7 as g{n} at Q{n % 9 + 1}").message


# ------------------------------------------------------------- a real full disk
@pytest.fixture
def small_disk(tmp_path):
    """A 256 KiB tmpfs: a real file system that fills up. Needs root (mount)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here ({done.stderr.strip() or 'not root'})")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(directory: Path) -> Path:
    """Take every free byte of the file system ``directory`` is on."""
    filler = directory / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        for size in (65536, 4096, 512, 1):  # big steps, then the last crumbs
            try:
                while os.write(fd, b"\0" * size):
                    pass
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)
    return filler


def test_a_full_disk_refuses_the_entry_and_loses_nothing(small_disk, capsys):
    game = new_game(small_disk, "Full", SIDES)
    for n in range(1, 6):
        enter(game, n)
    filler = fill(small_disk)
    tries = refused = 0
    for n in range(6, 206):  # keep playing on a full disk: 200 tries
        tries += 1
        accepted = list(game.records)
        try:
            enter(game, n)
        except Refusal as refusal:
            refused += 1
            assert "disk is full" in str(refusal) and "NOT recorded" in str(refusal)
            assert game.records == accepted
        assert on_disk(game.path) == game.records  # entries lost: 0, no torn line
    assert refused > 0, "the disk never filled"
    filler.unlink()  # space returns: the game goes on
    enter(game, 999)
    assert on_disk(game.path) == game.records
    game.close()
    with capsys.disabled():
        print(f"\n[figures] tmpfs disk full: {tries} tries, {refused} refused, entries lost 0")


# --------------------------------------------------------- an injected ENOSPC
class FullDisk:
    """Journal._write that fails with ENOSPC while ``full`` (as a full disk does)."""

    def __init__(self) -> None:
        self.full = False

    def __call__(self, fd: int, data: bytes) -> int:
        if self.full:
            raise OSError(errno.ENOSPC, "No space left on device")
        return os.write(fd, data)


def test_an_injected_enospc_refuses_every_try_until_space_returns(tmp_path, capsys):
    game = new_game(tmp_path, "Full", SIDES)
    disk = FullDisk()
    game.journal._write = disk
    enter(game, 1)
    disk.full = True
    before = list(game.records)
    tries = 100
    for n in range(2, 2 + tries):
        with pytest.raises(Refusal, match="disk is full"):
            enter(game, n)
        game.journal._write = disk  # recover() reopened the journal: keep the fault in
        assert game.records == before == on_disk(game.path)
    disk.full = False
    enter(game, 500)
    assert on_disk(game.path) == game.records and len(game.records) == len(before) + 1
    game.close()
    with capsys.disabled():
        print(f"\n[figures] injected ENOSPC: {tries} tries, {tries} refused, entries lost 0")


def test_the_cli_says_the_disk_is_full_in_one_line(tmp_path, capsys, monkeypatch):
    game = new_game(tmp_path, "Full", SIDES)
    game.close()
    before = game.path.read_bytes()
    import stockade.core.log.journal as journal

    def no_space(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    original_init = journal.Journal.__init__

    def init(self, *args, **kwargs):
        original_init(self, *args, **kwargs)
        self._write = no_space

    monkeypatch.setattr(journal.Journal, "__init__", init)
    assert main(["do", str(game.path), "add German 4-6-7 as g1"]) not in (0, 2)
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "disk is full" in err
    assert game.path.read_bytes() == before


# --------------------------------------------------------------- read-only places
@pytest.fixture
def read_only_dir(small_disk):
    """A folder on a file system mounted read-only (root ignores chmod)."""
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    return small_disk


def test_a_log_in_a_read_only_folder_opens_read_only(small_disk, capsys):
    game = new_game(small_disk, "RO", SIDES)
    enter(game, 1)
    game.close()
    before = game.path.read_bytes()
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    reopened = Game.open(game.path)
    assert reopened.read_only and "Read-only file system" in reopened.journal.why_read_only
    with pytest.raises(Refusal, match="read-only"):
        enter(reopened, 2)
    reopened.close()
    assert main(["do", str(game.path), "add German 4-6-7 as g2"]) not in (0, 2)
    assert "cannot record into it" in capsys.readouterr().err
    for command in (["check"], ["tally"], ["history"]):
        assert main([*command, str(game.path)]) == 0
    assert main(["repair", str(game.path)]) == 0  # sound: nothing to write
    assert game.path.read_bytes() == before


def test_a_torn_tail_that_cannot_be_set_aside_leaves_the_log_as_it_was(tmp_path, monkeypatch):
    game = new_game(tmp_path, "RO", SIDES)
    enter(game, 1)
    game.close()
    with open(game.path, "ab") as log:
        log.write(b'{"kind":"unit","handle":"g9"')  # a crash mid-write
    before = game.path.read_bytes()
    import stockade.core.log.torn_tail as torn  # the torn-tail code the game shares with the camp

    def refused(path, tail):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(torn, "set_aside", refused)
    reopened = Game.open(game.path)
    assert reopened.read_only
    assert any("cannot save the damaged bytes" in w for w in reopened.warnings)
    reopened.close()
    assert game.path.read_bytes() == before  # not cut back: the bytes were not saved


# ------------------------------------------------------ deleted or replaced log
def test_a_log_deleted_while_open_is_noticed_and_not_recreated(tmp_path, capsys):
    game = new_game(tmp_path, "Gone", SIDES)
    enter(game, 1)
    game.path.unlink()
    with pytest.raises(Refusal, match="moved or deleted"):
        enter(game, 2)
    assert not game.path.exists()
    with pytest.raises(Refusal, match="read-only"):
        enter(game, 3)
    assert not game.path.exists()
    game.close()


def test_a_log_replaced_while_open_is_never_written(tmp_path, capsys):
    game = new_game(tmp_path, "Mine", SIDES)
    enter(game, 1)
    (tmp_path / "other").mkdir()
    other = new_game(tmp_path / "other", "Theirs", SIDES)
    other.close()
    theirs = other.path.read_bytes()
    os.replace(other.path, game.path)  # another program puts another game there
    tries = 20
    for n in range(2, 2 + tries):
        with pytest.raises(Refusal, match="replaced|read-only"):
            enter(game, n)
        assert game.path.read_bytes() == theirs  # never written into
    assert game.state.scenario == "Mine"  # and this window did not become that game
    game.close()
    with capsys.disabled():
        print(f"\n[figures] log replaced while open: {tries} tries, 0 bytes written to it")


def test_a_log_copied_over_while_open_is_caught_by_its_inode(tmp_path):
    game = new_game(tmp_path, "Mine", SIDES)
    enter(game, 1)
    mine = game.path.read_bytes()
    copy = tmp_path / "edited.jsonl"
    copy.write_bytes(mine)  # an editor's save: same bytes, a new file renamed over it
    os.replace(copy, game.path)
    with pytest.raises(Refusal, match="replaced"):
        enter(game, 2)
    assert game.path.read_bytes() == mine
    game.close()


def test_check_log_notices_a_replaced_log_before_the_next_entry(tmp_path):
    game = new_game(tmp_path, "Mine", SIDES)
    enter(game, 1)
    assert game.check_log() == ""
    copy = tmp_path / "edited.jsonl"
    copy.write_bytes(game.path.read_bytes())
    os.replace(copy, game.path)
    said = game.check_log()
    assert "replaced by another file" in said and game.read_only
    with pytest.raises(Refusal, match="read-only"):
        enter(game, 2)
    game.close()


@sync
async def test_the_app_tells_the_player_at_once_when_the_log_is_deleted(tmp_path):
    from stockade.tui.app import StockadeApp

    game = new_game(tmp_path, "Gone", SIDES)
    enter(game, 1)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        game.path.unlink()
        app.watch_log()  # what the interval timer calls every LOG_WATCH_SECONDS
        await pilot.pause()
        notes = [n.message for n in app._notifications]
        assert any("moved or deleted" in n for n in notes), notes
        assert game.read_only
        assert "READ-ONLY" in app.export_screenshot()
    assert not game.path.exists()
    game.close()


def test_an_app_that_dies_does_not_exit_0(tmp_path, monkeypatch):
    """The issue's TUI died of MemoryError and exited 0: run_app reports the app's
    return code (1 after a fatal error), not the value run() returns (None)."""
    from stockade.tui import app as app_module

    game = new_game(tmp_path, "Dies", SIDES)
    game.close()

    def dies(self, *args, **kwargs):
        self._return_code = 1  # what Textual sets when the app ends in an exception
        return None

    monkeypatch.setattr(app_module.StockadeApp, "run", dies)
    assert app_module.run_app(game.path) == 1
