"""The history panel is a window on the log: it words only the entries it shows, read
from the game when they come into view, so a game of 100,000 records costs the panel
what a game of 30 does. Counted, not timed: every line the panel words passes through
``line_prompt``."""

from __future__ import annotations

from stockade.core.book.game import Game
from stockade.tui.app import StockadeApp
from stockade.tui.widgets import history_view
from stockade.tui.widgets.history_view import HistoryView
from tests.log.kit import pingpong_log
from tests.tui.support import sync

PAIRS = 50_000  # 100,002 records


@sync
async def test_a_long_history_words_only_the_lines_in_view(tmp_path, monkeypatch):
    worded: list[int] = []
    word = history_view.line_prompt

    def counted(line, *args, **kwargs):
        worded.append(line.seq)
        return word(line, *args, **kwargs)

    monkeypatch.setattr(history_view, "line_prompt", counted)
    game = Game.open(pingpong_log(tmp_path / "long.jsonl", PAIRS))
    records = len(game.records)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        history = app.screen.query_one(HistoryView)
        rows = history.size.height
        assert history.selected_seq == records  # the newest entry, in view
        # A window's worth of lines, not one per record.
        assert 0 < len(worded) <= 3 * rows, len(worded)
        worded.clear()
        await pilot.press("k", "k", "pageup", "home")
        assert history.selected_seq == 1
        await pilot.press("end", "up")
        assert history.selected_seq == records - 1
        await pilot.press("5", "0", "0", "0")  # typing a number goes to that entry
        assert history.selected_seq == 5000
        assert len(worded) <= 12 * rows, len(worded)
    game.close()
