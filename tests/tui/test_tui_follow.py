"""A second window on a game another window writes opens read-only and follows it
live (tui/app.py over core/book/follow.py)."""

from __future__ import annotations

from stockade.core.book.game import Game
from stockade.tui.app import StockadeApp
from stockade.tui.widgets.history_view import HistoryView
from tests.tui.support import sample_copy, sync, until


@sync
async def test_a_read_only_window_follows_the_writer(tmp_path):
    path = sample_copy(tmp_path, "demo")
    writer = Game.open(path)
    follower_game = Game.open(path)  # the lock is taken: read-only
    assert follower_game.read_only
    app = StockadeApp(follower_game, remember=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        before = len(app.game.records)
        phase_before = app.game.state.phase
        from stockade.core.commands import execute

        execute(writer, "next")
        await until(pilot, lambda: len(app.game.records) == before + 1, "the writer's entry")
        assert app.game.state.phase != phase_before
        writer.undo()
        await until(pilot, lambda: len(app.game.records) == before + 2, "the writer's undo")
        assert app.game.state.phase == phase_before
        history = app.screen.query_one(HistoryView)
        assert history is not None
    writer.close()
    follower_game.close()
