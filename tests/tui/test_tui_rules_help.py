"""`help A20.55` in the TUI command bar shows that section of the conformance matrix."""

from __future__ import annotations

from textual.containers import VerticalScroll
from textual.widgets import Static

from stockade.tui.app import StockadeApp
from stockade.tui.screens.text_screen import TextScreen
from stockade.tui.widgets.rows_page import RowsPage
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


@sync
async def test_a_long_help_reply_gets_a_page_read_with_page_down(tmp_path):
    """``help`` (the verbs) at 80x24 took ~11 presses of ctrl+down on the status line:
    a reply to read longer than two of its pages opens on a page, as the core's rows;
    ``help escape`` (two pages) stays on the status line."""
    game = new_game(tmp_path, "Rules", [("German", "German", 3), ("American", "American", 4)])
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await type_command(pilot, "help")
        assert isinstance(app.screen, TextScreen)
        page = app.screen.query_one("#text-page", RowsPage)
        lines = [line.plain for line in page.lines(page.content_size.width)]
        add = next(n for n, line in enumerate(lines) if line.startswith("add "))
        column = lines[add].index("enter units")
        assert lines[add + 1][:column].isspace()  # a summary wraps under its own column
        body = app.screen.query_one("#text-body", VerticalScroll)
        await pilot.press("pagedown")
        await pilot.pause()
        assert body.scroll_target_y >= body.scrollable_content_region.height - 1
        await pilot.press("escape")
        await type_command(pilot, "help escape")
        assert not isinstance(app.screen, TextScreen)
        assert "escape" in status_text(app)
    game.close()


@sync
async def test_the_long_reply_page_says_how_to_page_it_with_the_keys_in_force(tmp_path):
    """The page's border names its page keys, as the keymap binds them (a remapped
    key shows, and works): not only how to close it."""
    config = tmp_path / "config"
    config.mkdir(exist_ok=True)
    (config / "config.toml").write_text('[keys]\n"stockade.text_page_down" = "space"\n')
    game = new_game(tmp_path, "Rules", [("German", "German", 3), ("American", "American", 4)])
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await type_command(pilot, "help")
        assert isinstance(app.screen, TextScreen)
        body = app.screen.query_one("#text-body", VerticalScroll)
        assert body.border_subtitle == "space/pgup: page · j/k: line · esc: close"
        await pilot.press("j")
        await pilot.pause()
        assert body.scroll_y == 1
        await pilot.press("space")
        await pilot.pause()
        assert body.scroll_target_y > 1
    game.close()
