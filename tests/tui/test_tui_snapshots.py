"""SVG snapshots (pytest-textual-snapshot, Textual pinned in pyproject) of the main
screen at 80x24 and 160x50, of replay mode and of the tally, on the demo sample game.

Config and data dirs point at tmp_path; nothing on screen depends on the clock.
Update with ``pytest tests/tui/test_tui_snapshots.py --snapshot-update`` after a deliberate
change, and look at the report before committing.
"""

from __future__ import annotations

import pytest

from stockade.core.book.game import Game
from stockade.tui.app import StockadeApp
from tests.tui.support import sample_copy


@pytest.fixture
def demo_app(tmp_path):
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


# ----------------------------------------------- 80x24, the design size (issue 12)
def test_tally_80x24(demo_app, snap_compare):
    async def tally(pilot):
        await pilot.press("v")
        await _settle(pilot)

    assert snap_compare(demo_app, terminal_size=(80, 24), run_before=tally)


def test_help_80x24(demo_app, snap_compare):
    async def show_help(pilot):
        await pilot.press("question_mark")
        await _settle(pilot)

    assert snap_compare(demo_app, terminal_size=(80, 24), run_before=show_help)


def test_forms_menu_80x24(demo_app, snap_compare):
    async def menu(pilot):
        await pilot.press("f")
        await _settle(pilot)

    assert snap_compare(demo_app, terminal_size=(80, 24), run_before=menu)


def test_new_game_80x24(demo_app, snap_compare):
    async def new_game(pilot):
        await pilot.press("ctrl+n")
        await pilot.press(*"Hill 621")
        await _settle(pilot)

    assert snap_compare(demo_app, terminal_size=(80, 24), run_before=new_game)


def test_open_game_80x24(tmp_path, snap_compare):
    import os

    from tests.tui.support import sample_copy

    data = tmp_path / "data"
    data.mkdir()
    for n, name in enumerate(("ex05_rtph_surrender", "scenario_tractor_works", "demo")):
        path = sample_copy(data, name)
        os.utime(path, (1_000_000 + n, 1_000_000 + n))
    game = Game.open(data / "demo.jsonl")
    app = StockadeApp(game, remember=False)

    async def open_game(pilot):
        await pilot.press("ctrl+o")
        await _settle(pilot)
        await _settle(pilot)

    try:
        assert snap_compare(app, terminal_size=(80, 24), run_before=open_game)
    finally:
        game.close()
