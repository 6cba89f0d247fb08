"""The verdict in the app (issue 22): the bar on the main screen at 80x24, the offer to
end the game when an "immediately" condition is met, the strike preview naming a change
of verdict, the tally screen's Victory Conditions box, and an SVG snapshot at 80x24."""

from __future__ import annotations

import textwrap

from stockade.core.book.game import Game
from stockade.core.commands import run_script
from stockade.tui.app import StockadeApp
from stockade.tui.screens.confirm import ConfirmScreen
from stockade.tui.widgets.history_view import HistoryView
from stockade.tui.widgets.verdict_bar import VerdictBar
from tests.tui.support import new_game, sample_copy, sync

SIDES = [("German", "German", 3), ("Russian", "Russian", 3)]
SCRIPT = [
    "vc Russian loses immediately if suffered >= 4; German wins at end if amassed >= 6",
    "add German 4-6-7 x3 at P4",
    "add Russian 4-4-7 x3 at P5",
    "eliminate r1 by enemy",  # entry 8: German 2 CVP
]


@sync
async def test_an_immediate_win_is_offered_and_ending_is_an_entry(tmp_path):
    game = new_game(tmp_path, "Verdict", SIDES)
    run_script(game, SCRIPT)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        bar = app.screen.query_one(VerdictBar)
        assert bar.display and bar.headline.startswith("if the game ended now: Russian win")
        app.run_command("eliminate r2 by enemy")  # the cap: Russian suffered 4 >= 4
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        body = str(app.screen.query_one("#confirm-body").render())
        assert "German win now (Russian CVP suffered 4 >= 4, immediately)" in body
        await pilot.press("y")
        await pilot.pause()
        assert game.state.ended
        assert app.screen.query_one(VerdictBar).headline.startswith("game over: German win")
        await pilot.press("v")  # the tally screen has the conditions and their values
        await pilot.pause()
        box = app.screen.query_one("#tally-verdict")
        said = " ".join(str(s.render()) for s in box.query("Static"))
        assert "game over: German win" in said
        assert "Russian CVP suffered 4 >= 4" in said
    game.close()


@sync
async def test_a_declined_offer_records_nothing_and_no_conditions_hide_the_bar(tmp_path):
    game = new_game(tmp_path, "Verdict", SIDES)
    run_script(game, SCRIPT)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.run_command("eliminate r2 by enemy")
        await pilot.pause()
        before = len(game.records)
        await pilot.press("n")
        await pilot.pause()
        assert not game.state.ended and len(game.records) == before
        app.run_command("vc none")
        await pilot.pause()
        assert not app.screen.query_one(VerdictBar).display
    game.close()


@sync
async def test_the_strike_preview_names_the_change_of_verdict(tmp_path):
    game = new_game(tmp_path, "Verdict", SIDES)
    run_script(
        game, [*SCRIPT[:3], "vc German wins at end if amassed >= 2", "eliminate r1 by enemy"]
    )
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        app.screen.query_one(HistoryView).select_seq(len(game.records))  # the elimination
        await pilot.pause()
        await pilot.press("x")
        await pilot.pause()
        body = str(app.screen.query_one("#confirm-body").render())
        assert "would turn the verdict from German win to Russian win" in body
    game.close()


def test_main_screen_80x24_shows_the_verdict(tmp_path, snap_compare):
    game = Game.open(sample_copy(tmp_path, "scenario_vc_bridgehead"))
    app = StockadeApp(game, remember=False)

    async def settle(pilot):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    try:
        assert snap_compare(app, terminal_size=(80, 24), run_before=settle)
    finally:
        game.close()


@sync
async def test_a_long_verdict_wraps_whole_at_80_columns(tmp_path):
    game = new_game(tmp_path, "Verdict", SIDES)
    run_script(
        game,
        [
            "vc Russian wins at end if amassed >= 6 and suffered <= 4; "
            "German wins immediately if amassed >= 8; otherwise draw"
        ],
    )
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        bar = app.screen.query_one(VerdictBar)
        said = "VC: " + bar.headline
        assert said.endswith("8 more CVP amassed by German)") and len(said) > 78
        # as many lines as the whole verdict takes at this width: none of it clipped
        width = bar.content_region.width
        needed = len(textwrap.wrap(said, width, break_on_hyphens=False))
        assert bar.content_region.height == needed >= 2, (bar.content_region, needed)
    game.close()
