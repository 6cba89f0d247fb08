"""What the first paint of the main screen costs, counted (never timed): the screen is
laid out once with its size classes, and the objects frozen out of the cyclic
collector while the app runs are given back when it ends."""

from __future__ import annotations

import pytest

from stockade.core.book.game import Game
from stockade.tui.app import StockadeApp
from stockade.tui.screens.main import MainScreen
from tests.tui.support import sample_copy, sync


@pytest.mark.parametrize(
    ("size", "classes"),
    [
        ((140, 40), {"-wide", "-tall"}),
        ((100, 30), {"-normal", "-tall"}),
        ((70, 20), {"-narrow", "-short"}),
    ],
)
@sync
async def test_the_main_screen_has_its_size_classes_before_its_first_layout(
    tmp_path, monkeypatch, size, classes
):
    seen: list[frozenset[str]] = []
    compose = MainScreen.compose

    def recording(self):
        seen.append(frozenset(self.classes))  # what the children are first styled by
        return compose(self)

    monkeypatch.setattr(MainScreen, "compose", recording)
    game = Game.open(sample_copy(tmp_path))
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        now = {
            c for c in app.screen.classes if c in {"-narrow", "-normal", "-wide", "-short", "-tall"}
        }
        assert now == classes  # what Textual's Resize set: the same
    game.close()
    assert len(seen) == 1 and classes <= seen[0], seen
