"""The empty command bar lists the A20 entries that may happen now (from the core),
and a phase opening lists them: ↓ picks one, tab fills the bar, enter records it."""

from __future__ import annotations

from stockade.core.commands import run_script
from stockade.tui.app import StockadeApp
from stockade.tui.widgets.offer_list import OfferList
from tests.tui.support import new_game, sync


@sync
async def test_the_empty_bar_lists_what_may_happen_now_and_tab_fills_the_pick(tmp_path):
    game = new_game(tmp_path, "Offers", [("Russian", "Russian", 3), ("German", "German", 3)])
    run_script(game, ["add Russian 4-4-7 4-4-7 at Q4", "add German 4-6-7 2-4-7 hs at Q5 broken"])
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("colon")  # the list is mounted when the bar first opens
        offers = app.screen.query_one(OfferList)
        assert not offers.shown  # the RPh: nothing of A20 waits
        await pilot.press("escape", "n", "n", "n", "n", "n")  # on to the RtPh: a phase opens
        await pilot.pause()
        assert game.state.phase == "RtPh"
        assert offers.shown and [line for line, _ in offers.lines] == [
            "surrender g1 g2 to r1",
            "reject g1 g2 by Russian",
        ]
        await pilot.press("colon", "down", "tab")
        assert app.focused.value == "reject g1 g2 by Russian "
        assert not offers.shown  # the bar holds a line now
        await pilot.press("ctrl+u")  # emptied again: listed again, the pick kept
        await pilot.pause()
        assert offers.shown and offers.picked == "reject g1 g2 by Russian"
        await pilot.press("up", "tab", "enter")
        await pilot.pause()
        assert [u.status for u in (game.state.units["g1"], game.state.units["g2"])] == [
            "prisoner",
            "prisoner",
        ]
        assert not offers.shown  # recorded: nothing more waits in this RtPh
    game.close()
