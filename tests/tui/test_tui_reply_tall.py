"""A long reply (help escape) makes the reply area taller, up to a third of the
screen, and a key pages it by the lines shown: it reads in fewer presses than three
lines at a time; a short reply keeps the area at its three lines."""

from __future__ import annotations

from stockade.core.book.game import Game
from stockade.tui.app import StockadeApp
from stockade.tui.widgets.status_line import StatusLine
from tests.tui.support import sample_copy, sync, type_command


@sync
async def test_help_escape_reads_in_fewer_presses(tmp_path):
    game = Game.open(sample_copy(tmp_path))
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        status = app.screen.query_one(StatusLine)
        await type_command(pilot, "help escape")
        await pilot.press("enter")
        await pilot.pause()
        total = len(status.wrapped_lines())
        assert total > 3
        assert status.size.height == min(total, 24 // 3)  # taller than three lines
        presses = 0
        while "↓ more" in str(status.render()):
            await pilot.press("ctrl+down")
            presses += 1
        assert presses <= -(-total // (24 // 3))  # a page is the lines shown
        assert presses < -(-total // 3) - 1  # fewer than three lines at a time took
        status.say("short", "ok")
        await pilot.pause()
        assert status.size.height == 1
    game.close()
