"""No file Stockade writes is written through a link (issue 23): the log (``do``), the
recent-games list, the last game, the demo, the config (theme); the config is written
whole or not at all; ``repair`` on a full disk names the file it could not write.

In every test a link's target is a file the attacker wants overwritten; it must come
out byte for byte as it went in, and the refusal must say why."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from stockade.core.book.game import Game
from stockade.core.cli import main
from stockade.core.log import files as files_module
from stockade.core.model import events as ev
from stockade.tui import opening, paths
from stockade.tui.config import save_theme

PRECIOUS = b"the attacker wants this overwritten\n"
SIDES = [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]


@pytest.fixture
def victim(tmp_path) -> Path:
    path = tmp_path / "elsewhere" / "victim.txt"
    path.parent.mkdir()
    path.write_bytes(PRECIOUS)
    return path


def _log(tmp_path: Path) -> Path:
    path = tmp_path / "real" / "game.jsonl"
    path.parent.mkdir()
    Game.create(path, "Links", SIDES, first_attacker="American").close()
    return path


def test_do_refuses_a_log_reached_through_a_link(tmp_path, capsys):
    real = _log(tmp_path)
    before = real.read_bytes()
    link = tmp_path / "game.jsonl"
    link.symlink_to(real)
    assert main(["do", str(link), "add German 4-6-7 as g1 at Q4"]) == 1
    err = capsys.readouterr().err
    assert "symbolic link" in err and str(real) in err and "nothing was recorded" in err
    assert real.read_bytes() == before
    game = Game.open(link)  # still readable: read-only, saying why
    assert game.read_only and game.records
    game.close()


def test_the_recent_list_and_last_game_are_never_written_through_a_link(
    tmp_path, victim, monkeypatch
):
    data = tmp_path / "data"
    data.mkdir()
    monkeypatch.setenv("STOCKADE_DATA_DIR", str(data))
    game = _log(tmp_path)
    (data / "recent_games").symlink_to(victim)
    (data / "last_game").symlink_to(victim)
    problem = paths.remember_last_game(game)
    assert problem is not None and "last_game" in problem and "link" in problem
    assert paths.remember_recent(game) is not None
    assert victim.read_bytes() == PRECIOUS
    assert (data / "recent_games").is_symlink() and (data / "last_game").is_symlink()


def test_the_demo_is_never_made_through_a_dangling_link(tmp_path, monkeypatch):
    data = tmp_path / "data"
    data.mkdir()
    monkeypatch.setenv("STOCKADE_DATA_DIR", str(data))
    planted = tmp_path / "elsewhere.jsonl"
    (data / opening.DEMO_NAME).symlink_to(planted)
    with pytest.raises(OSError, match="symbolic link"):
        opening.ensure_demo()
    assert not planted.exists()


def test_the_theme_is_never_saved_through_a_link(tmp_path, victim):
    config = tmp_path / "config.toml"
    config.symlink_to(victim)
    problem = save_theme("stockade-light", config)
    assert problem is not None and str(config) in problem and "link" in problem
    assert victim.read_bytes() == PRECIOUS


def test_the_theme_is_saved_whole_or_not_at_all(tmp_path, monkeypatch):
    config = tmp_path / "config.toml"
    config.write_text('theme = "stockade-dark"\n[keys]\nquit = "q"\n')
    before = config.read_bytes()

    def fails(src, dst):  # the rename that puts the new file in place fails
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(files_module.os, "replace", fails)
    assert save_theme("stockade-light", config) is not None
    assert config.read_bytes() == before  # never half written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.toml"]  # no temp file


def test_repair_on_a_full_disk_names_the_file(tmp_path, capsys, monkeypatch):
    log = _log(tmp_path)
    with open(log, "ab") as f:
        f.write(b'{"kind":"phase"\n{"kind":"end","seq":3,"v":1,"grp":3}\n')

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files_module, "write_all", full)
    assert main(["repair", str(log)]) == 1
    err = capsys.readouterr().err
    assert "game.repaired" in err or ".repaired" in err, err
    assert "No space left" in err and "is unchanged" in err
    assert not [p for p in log.parent.iterdir() if p.name.startswith(".") or "repaired" in p.name]
