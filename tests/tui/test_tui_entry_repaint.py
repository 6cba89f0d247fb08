"""An entry repaints what it changed, not the whole screen: the app tells the game's
watchers through a ``var`` (a ``reactive`` repainted the whole screen on every entry,
over the regions the phase bar, the panels, the history and the status line repaint
themselves). Counted as whole-screen refreshes (the screen's public ``refresh`` with no
region) while the demo at 80x24 takes entries by key; the screen still shows each."""

from __future__ import annotations

from typing import Any

from stockade.core.book.game import Game
from stockade.tui.app import StockadeApp
from stockade.tui.widgets.phase_bar import PhaseBar
from tests.tui.support import sample_copy, sync


@sync
async def test_an_entry_by_key_repaints_no_whole_screen(tmp_path):
    game = Game.open(sample_copy(tmp_path))
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        # the entries' list above the command bar is mounted (on the screen) when first
        # asked for: once per app, by ':' here, not by the entries counted below
        await pilot.press("colon")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        whole: list[str] = []
        own_refresh = screen.refresh

        def refresh(*regions: Any, **kwargs: Any) -> Any:
            if not regions:
                whole.append("refresh")
            return own_refresh(*regions, **kwargs)

        screen.refresh = refresh
        for key in ("n", "u", "r"):
            before = (game.state.turn, game.state.phase)
            await pilot.press(key)
            await pilot.pause()
            await pilot.pause()
            now = (game.state.turn, game.state.phase)
            assert now != before, key  # the entry was taken (or taken back)
            shown = str(screen.query_one(PhaseBar).render())
            assert game.state.phase in shown, (key, shown)
        assert whole == [], whole  # main: one per entry (3)
    game.close()
