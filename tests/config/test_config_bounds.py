"""Config and theme files that could stop the app are read with bounds (issue 24): a
deep TOML, a file linked to /dev/zero, a FIFO. Each is a readable problem and the
defaults; the app starts and says so (Pilot)."""

from __future__ import annotations

import os
import sys

import pytest

from stockade.core.book.game import Game
from stockade.core.config import tomlstruct
from stockade.themes import load_themes
from stockade.tui.app import StockadeApp
from stockade.tui.config import DEFAULT_THEME, load_config
from tests.tui.support import sample_copy, sync

DEEP = "theme = " + "[" * 50_000 + "]" * 50_000 + "\n"
needs_posix = pytest.mark.skipif(
    sys.platform == "win32" or not os.path.exists("/dev/zero"), reason="POSIX special files"
)


@pytest.fixture(autouse=True)
def themes_dir(stockade_dirs):
    """The player's themes folder exists (the tests put odd files in it)."""
    (stockade_dirs.config / "themes").mkdir(parents=True)


def _config(tmp_path):
    return tmp_path / "config" / "config.toml"


def test_a_deeply_nested_config_is_a_problem_not_a_crash(tmp_path):
    _config(tmp_path).write_text(DEEP)
    config, problems = load_config()
    assert config.theme == DEFAULT_THEME
    assert problems and "nested too deeply" in problems[0] and "using the defaults" in problems[0]


@needs_posix
def test_a_config_linked_to_dev_zero_is_not_read(tmp_path):
    _config(tmp_path).symlink_to("/dev/zero")
    config, problems = load_config()
    assert config.theme == DEFAULT_THEME
    assert "not a regular file" in problems[0]


@needs_posix
def test_a_fifo_as_config_does_not_hang(tmp_path):
    os.mkfifo(_config(tmp_path))
    config, problems = load_config()  # would wait for a writer forever
    assert config.theme == DEFAULT_THEME
    assert "is a FIFO, not a regular file" in problems[0]


def test_a_huge_config_is_not_read(tmp_path):
    _config(tmp_path).write_text("# x\n" * (tomlstruct.MAX_BYTES // 4 + 1))
    assert "too big for a settings file" in load_config()[1][0]


@needs_posix
def test_a_theme_linked_to_dev_zero_or_deep_is_skipped(tmp_path):
    themes = tmp_path / "config" / "themes"
    (themes / "zero.toml").symlink_to("/dev/zero")
    (themes / "deep.toml").write_text(DEEP)
    found, problems = load_themes(extra=sorted(themes.glob("*.toml")))
    assert found  # the packaged themes are still there
    said = "\n".join(problems)
    assert "theme zero.toml: is a device or other special file" in said
    assert "theme deep.toml: not valid TOML (nested too deeply)" in said


@needs_posix
@sync
async def test_the_app_starts_with_a_fifo_config_and_a_dev_zero_theme(tmp_path, notices):
    os.mkfifo(_config(tmp_path))
    (tmp_path / "config" / "themes" / "zero.toml").symlink_to("/dev/zero")
    game = Game.open(sample_copy(tmp_path, "demo"))
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.is_running and app.theme == DEFAULT_THEME
    game.close()
    said = "\n".join(n.message for n in notices)
    assert "config.toml: is a FIFO, not a regular file; not read; using the defaults" in said
    assert "theme zero.toml: is a device or other special file" in said
