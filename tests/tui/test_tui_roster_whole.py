"""A roster row its columns cut at 80x24 ("unarmed, abandon…") is read whole on the
line below the list while highlighted, and a long reason wraps under its own words."""

from __future__ import annotations

from rich.console import Console

from stockade.core.book.game import Game
from stockade.tui.app import StockadeApp
from stockade.tui.widgets.roster import Roster
from tests.tui.support import sample_copy, sync


@sync
async def test_the_highlighted_row_is_read_whole_and_its_reason_hangs(tmp_path):
    game = Game.open(sample_copy(tmp_path))  # the demo: gc, unarmed and abandoned, in R6
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f", "r")  # rearm: its unit list opens on gc, greyed
        await pilot.pause()
        roster = app.screen.query_one(Roster)
        row = str(roster.rows.get_option_at_index(0).prompt)
        assert "abandon…" in row, row  # the columns cut it
        why = roster.query_one("#roster-why")
        console = Console(width=why.size.width, record=True)
        console.print(why.content)
        lines = console.export_text().splitlines()
        assert lines[0].strip().endswith("unarmed, abandoned"), lines
        assert lines[1].startswith("✗ A20.551: ") and lines[2].startswith("  "), lines
    game.close()
