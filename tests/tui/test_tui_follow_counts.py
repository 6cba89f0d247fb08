"""The read-only window's notice of the writer's entries counts them as the player
reads a count: "1 new entry", "2 new entries"."""

from __future__ import annotations

from stockade.core.book.game import Game
from stockade.core.commands import execute
from stockade.tui.app import StockadeApp
from tests.tui.support import sample_copy, sync, until


@sync
async def test_one_new_entry_is_said_in_the_singular(tmp_path):
    path = sample_copy(tmp_path, "demo")
    writer = Game.open(path)
    follower_game = Game.open(path)  # the lock is taken: read-only
    app = StockadeApp(follower_game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        before = len(app.game.records)
        execute(writer, "next")
        await until(pilot, lambda: len(app.game.records) == before + 1, "the writer's entry")
        assert app.game_update is not None
        assert app.game_update.message == "1 new entry from the window that writes"
    writer.close()
    follower_game.close()
