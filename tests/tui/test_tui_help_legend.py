"""The help screen explains the marks the screen shows (``US# 6/15`` on a Guard's
line, ``⑂`` on the history), in the core glossary's words; the history's marks are
the glossary's."""

from __future__ import annotations

from rich.console import Console

from stockade.core.book.game import Game
from stockade.core.reads.glossary import ENTRY_SIGNS, LEGEND
from stockade.tui.app import StockadeApp
from stockade.tui.widgets.history_lines import MARKS
from tests.tui.support import sample_copy, sync


@sync
async def test_the_help_screen_says_what_each_mark_means(tmp_path):
    game = Game.open(sample_copy(tmp_path))
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        console = Console(width=70, record=True)
        for static in app.screen.query("Static"):
            console.print(static.content)
        page = " ".join(console.export_text().split())
        for _, signs in LEGEND:
            for sign in signs:
                assert f"{sign.mark} {sign.means}" in page, sign.mark
        assert "US# 6/15" in page and "⑂" in page
    game.close()


def test_the_history_marks_are_the_glossarys():
    for status, sign in ENTRY_SIGNS.items():
        assert MARKS[status] == (f"{sign.mark} ", sign.word)
