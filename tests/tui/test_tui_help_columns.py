"""``help`` at 80 columns: each verb's summary that wraps goes on under its own text
(the core gives the help as rows: the verb, what it records), never back at column 1."""

from __future__ import annotations

from stockade.core.book.game import Game
from stockade.tui.app import StockadeApp
from stockade.tui.widgets.status_line import StatusLine
from tests.tui.support import sample_copy, sync, type_command


@sync
async def test_a_wrapped_summary_keeps_its_column_under_help(tmp_path):
    game = Game.open(sample_copy(tmp_path))
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        status = app.screen.query_one(StatusLine)
        await type_command(pilot, "help")
        lines = [line.plain for line in status.wrapped_lines()]
        first = next(n for n, line in enumerate(lines) if line.split()[1:2] == ["add"])
        column = lines[first].index("enter units")
        follow = lines[first + 1]  # "several Locations, ..." wrapped from "add"
        assert "Locations" in follow
        assert len(follow) - len(follow.lstrip()) == column
        # the next verb stands in the verbs' column again
        assert lines[first + 2].split()[0] == "next"
    game.close()
