"""The open bar's hint says what the arrows do with the entries listed above it: with
two or more they pick one; with one (already picked) they recall earlier commands, so
the hint offers only tab. It follows the list while the bar stays open after an entry."""

from __future__ import annotations

from stockade.core.commands import run_script
from stockade.tui.app import StockadeApp
from stockade.tui.widgets.command_bar import CommandBar
from tests.tui.support import new_game, sync


@sync
async def test_the_hint_offers_the_arrows_only_among_two_or_more_entries(tmp_path):
    game = new_game(tmp_path, "Hint", [("Russian", "Russian", 3), ("German", "German", 3)])
    run_script(game, ["add Russian 4-4-7 at Q4", "add German 4-6-7 at Q5 broken", "phase RtPh"])
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("colon")
        await pilot.pause()
        bar = app.screen.query_one(CommandBar)
        assert [line for line, _ in bar.offers.lines] == [
            "surrender g1 to r1",
            "reject g1 by Russian",
        ]
        assert bar.input.placeholder.startswith("↓↑ pick an entry above")
        listed = list(bar.offers.lines)
        await pilot.press(*"surrender g1 to r1", "enter")  # the bar stays open
        await pilot.pause()
        assert app.focused is bar.input and not bar.offers.lines
        bar.list_offers(listed[:1])  # one entry listed while the bar is open
        assert bar.input.placeholder.startswith("tab fills the entry above")
        bar.list_offers(listed)
        assert bar.input.placeholder.startswith("↓↑ pick an entry above")
    game.close()
