"""The camp screen is reachable from the main app's command palette (issue 5)."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.tui.support import sync

ROOT = Path(__file__).resolve().parents[2]


@sync
async def test_camp_opens_from_the_main_app(tmp_path):
    from stockade.tui.app import StockadeApp
    from stockade.tui.camp.screen import CampScreen
    from stockade.tui.palette import open_camp

    game = tmp_path / "g.jsonl"
    shutil.copy(ROOT / "sample_games" / "demo.jsonl", game)
    from stockade.core.book.game import Game

    app = StockadeApp(Game.open(game))
    async with app.run_test(size=(80, 24)) as pilot:
        open_camp(app)
        await pilot.pause()
        assert isinstance(app.screen, CampScreen)
        assert (tmp_path / "data" / "camp.jsonl").exists()
