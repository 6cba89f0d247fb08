"""`help A20.55` in the TUI command bar shows that section of the conformance matrix."""

from __future__ import annotations

from textual.widgets import Static

from stockade.tui.app import StockadeApp
from stockade.tui.screens.text_screen import TextScreen
from tests.tui.support import new_game, status_text, sync, type_command


@sync
async def test_help_a20_section_in_the_command_bar(tmp_path):
    game = new_game(tmp_path, "Rules", [("German", "German", 3), ("American", "American", 4)])
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await type_command(pilot, "help A20.55")
        assert isinstance(app.screen, TextScreen)  # the whole section, on a page of its own
        page = str(app.screen.query_one("#text-page", Static).render())
        assert "Escape is successful only if there are no enemy units" in page
        assert "A20.55 EX" in page and "[enforced]" in page
        await pilot.press("escape")
        assert not isinstance(app.screen, TextScreen)
        assert status_text(app).startswith("A20.55 ESCAPE")
        await type_command(pilot, "help A20.9")
        assert "A20 has no section 'A20.9'" in status_text(app)
    game.close()
