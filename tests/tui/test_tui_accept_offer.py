"""A refusal whose only obstacle is a board fact the players recorded earlier offers the
entry that records the change; one key records it and then the refused line."""

from __future__ import annotations

from stockade.core.commands import execute
from tests.tui.support import new_game, status_text, sync, type_command, until


@sync
async def test_one_key_records_the_offered_move_then_the_capture(tmp_path):
    from stockade.tui.app import StockadeApp

    game = new_game(tmp_path, "offer", [("German", "German", 3), ("Russian", "Russian", 3)])
    for line in ["add German 4-6-7 at K4", "add Russian 4-4-7 at L4", "move g1 K3"]:
        execute(game, line)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await type_command(pilot, "capture r1 by g1")
        await until(pilot, lambda: "move g1 L4" in status_text(app), "the offer")
        assert status_text(app).endswith("^b: record move g1 L4")
        assert game.state.units["r1"].guard is None
        await pilot.press("ctrl+b")
        await until(pilot, lambda: game.state.units["r1"].guard == "g1", "the capture")
    assert game.state.units["g1"].location == "L4"
    game.close()
