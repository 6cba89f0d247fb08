"""SVG snapshots (pytest-textual-snapshot, Textual pinned in pyproject) of the main
screen at 80x24 and 160x50, of replay mode and of the tally, on the demo sample game.

Config and data dirs point at tmp_path; nothing on screen depends on the clock.
Update with ``pytest tests/test_tui_snapshots.py --snapshot-update`` after a deliberate
change, and look at the report before committing.
"""

from __future__ import annotations

import pytest

from stockade.core.game import Game
from stockade.tui.app import StockadeApp
from tests.test_tui_support import sample_copy


@pytest.fixture
def demo_app(tmp_path, monkeypatch):
    monkeypatch.setenv("STOCKADE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("STOCKADE_DATA_DIR", str(tmp_path / "data"))
    game = Game.open(sample_copy(tmp_path))
    yield StockadeApp(game, remember=False)
    game.close()


async def _settle(pilot) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def test_main_screen_80x24(demo_app, snap_compare):
    assert snap_compare(demo_app, terminal_size=(80, 24), run_before=_settle)


def test_main_screen_160x50(demo_app, snap_compare):
    assert snap_compare(demo_app, terminal_size=(160, 50), run_before=_settle)


def test_replay_mode(demo_app, snap_compare):
    async def replay(pilot):
        await pilot.press("h", "k", "k", "k")
        await _settle(pilot)

    assert snap_compare(demo_app, terminal_size=(80, 24), run_before=replay)


def test_tally_view(demo_app, snap_compare):
    async def tally(pilot):
        await pilot.press("v")
        await _settle(pilot)

    assert snap_compare(demo_app, terminal_size=(100, 30), run_before=tally)
