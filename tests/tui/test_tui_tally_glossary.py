"""The tally's glossary explains "counter set aside" only in a game where a leader or
hero was captured (A20.5): the only lines that say it. Told where nothing was set aside,
the note had the player look for a counter that is not there."""

from __future__ import annotations

from stockade.core.commands import run_script
from stockade.tui.app import StockadeApp
from tests.tui.support import new_game, sync

SIDES = [("American", "American", 4), ("German", "German", 3)]


async def _glossary(game) -> str:
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("v")
        await pilot.pause()
        return str(app.screen.query_one("#tally-glossary").render())


@sync
async def test_no_set_aside_note_when_only_a_squad_was_captured(tmp_path):
    game = new_game(tmp_path, "Squad", SIDES)
    run_script(game, ["add American 3-4-7 hs at T4", "add German 4-6-7 at T5 broken"])
    run_script(game, ["surrender g1 to a1"])
    said = await _glossary(game)
    assert "A20.1" in said and "set aside" not in said
    game.close()


@sync
async def test_the_set_aside_note_when_a_leader_was_captured(tmp_path):
    game = new_game(tmp_path, "Leader", SIDES)
    run_script(game, ["add American 3-4-7 hs at T4", "add German 4-6-7 8-1 at T5 broken"])
    run_script(game, ["surrender g1 g2 to a1"])
    said = await _glossary(game)
    assert "counter set aside: a captured leader or hero" in said
    game.close()
