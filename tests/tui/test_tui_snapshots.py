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
from tests.tui.screens import Screens, as_snap_compare_takes_it, back_to_the_main_screen
from tests.tui.support import sample_copy, sync


@pytest.fixture
def demo_app(tmp_path):
    game = Game.open(sample_copy(tmp_path))
    yield StockadeApp(game, remember=False)
    game.close()


async def _settle(pilot) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


# 80x24, the design size: each screen with its keys from the main screen, one after the
# other in one app run (back to the main screen between them), each compared with its
# own stored SVG ``test_demo_80x24[<screen>].svg``.
DEMO_80X24: list[tuple[str, list[str]]] = [
    ("main", []),
    ("help", ["question_mark"]),
    ("forms_menu", ["f"]),
    ("new_game", ["ctrl+n", *"Hill 621"]),
    ("tally", ["v"]),
    ("replay", ["h", "k", "k", "k"]),
]


@sync
async def test_demo_80x24(demo_app, snapshot, request):
    """The main screen, help, the forms menu, a new game, the tally and replay mode."""
    screens = Screens(snapshot, request)
    async with demo_app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        for name, keys in DEMO_80X24:
            await back_to_the_main_screen(pilot)
            if keys:
                await pilot.press(*keys)
            await _settle(pilot)
            await as_snap_compare_takes_it(pilot)
            screens.take(demo_app, name)
    assert screens.taken == [name for name, _keys in DEMO_80X24]
    screens.check()


def test_main_screen_160x50(demo_app, snap_compare):
    assert snap_compare(demo_app, terminal_size=(160, 50), run_before=_settle)


def test_tally_view(demo_app, snap_compare):
    async def tally(pilot):
        await pilot.press("v")
        await _settle(pilot)

    assert snap_compare(demo_app, terminal_size=(100, 30), run_before=tally)


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
