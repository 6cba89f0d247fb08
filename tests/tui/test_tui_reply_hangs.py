"""A reply of several lines (an entry, its reminder, its CVP) at 80 columns: each
wrapped line goes on under its own text, never back at column 1, as ``help`` does."""

from __future__ import annotations

from stockade.tui.app import StockadeApp
from stockade.tui.widgets.status_line import StatusLine
from tests.tui.support import new_game, sync, type_command


@sync
async def test_a_wrapped_reply_line_hangs_under_its_own_text(tmp_path):
    game = new_game(tmp_path, "Told", [("American", "American", 4), ("German", "German", 3)])
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        status = app.screen.query_one(StatusLine)
        for line in ("add American 3-4-7 hs at T4", "add German 4-6-7 8-1 at T5 broken"):
            await type_command(pilot, line)
        await type_command(pilot, "phase RtPh 1")
        await type_command(pilot, "surrender g1 g2 to a1")
        lines = [line.plain for line in status.wrapped_lines()]
        assert lines[0].startswith("✓ German 4-6-7 (g1)") and len(lines) > 3, lines
        sw = next(n for n, line in enumerate(lines) if "any SW g1 or g2" in line)
        assert lines[1].startswith("  ") and not lines[1].startswith("   ")  # under "German"
        assert lines[sw].startswith("    any SW")  # a line one step in
        assert lines[sw + 1].startswith("    ") and lines[sw + 1].strip()  # wrapped: as far
    game.close()
