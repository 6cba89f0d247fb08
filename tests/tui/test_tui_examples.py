"""The issue's "Done when": with keys alone, from an empty game, the article's Example 13
(a hero takes a surrendering stack of US# 6 and exchanges two HS into a squad, through
the surrender form) and Example 15 (a Sniper kills the Guard 9-2; the HS must take
over), undo a wrong entry, replay, read and export the tally."""

from __future__ import annotations

from stockade.core.commands import run_script
from stockade.core.model import events as ev
from stockade.core.model.tracked_unit import PRISONER
from stockade.tui.app import StockadeApp
from stockade.tui.forms.base import FormScreen
from stockade.tui.widgets.history_view import HistoryView
from tests.tui.support import new_game, status_text, sync, type_command


@sync
async def test_example_13_through_the_surrender_form(tmp_path):
    game = new_game(tmp_path, "Example 13", [("German", "German", 3), ("American", "American", 4)])
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for line in (
            "add German 2-4-7 hs as g1 at F3 broken",
            "add German 2-4-7 hs as g2 at F3 broken",
            "add German 2-2-8 crew as g3 at F3 broken",
            "add American 1-4-9 hero as h1 at F4",
            "phase RtPh 1 American",
        ):
            await type_command(pilot, line)
        await pilot.press("escape", "s")
        await pilot.pause()
        form = app.screen_stack[-2]
        assert isinstance(form, FormScreen)
        # the form opens on the roster of broken units: * ticks the stack, enter takes it;
        # the only possible captor (h1) is picked by itself
        await pilot.press("*", "enter")
        await pilot.pause()
        assert form.query_one("#f-to").value == "h1"
        await pilot.press("y", "enter", "n")  # adjacent: yes (enter: on); free rout: no
        await pilot.pause()
        verdict = str(form.query_one("#verdict").render())
        assert "A20.21: it surrenders" in verdict
        assert "A20.51" in verdict  # the core: a hero guards US# 5, the stack is 6
        await pilot.press("ctrl+s")
        assert app.screen is form  # refused: nothing recorded, the form stays
        form.query_one("#f-merges").value = "g1+g2=g4"
        await pilot.pause()
        assert "✓ the book accepts" in str(form.query_one("#verdict").render())
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, FormScreen)
        units = game.state.units
        assert units["g4"].status == PRISONER and units["g4"].guard == "h1"
        assert units["g3"].status == PRISONER and units["g3"].guard == "h1"
        assert game.state.prisoner_load("h1") == 5
        assert "surrendered" in status_text(app)
    game.close()


@sync
async def test_example_15_undo_replay_and_tally(tmp_path):
    game = new_game(tmp_path, "Example 15", [("American", "American", 4), ("German", "German", 3)])
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for line in (
            "add American 9-2 as a1 at H5",
            "add American 3-4-7 hs as a2 at H5",
            "add German 4-6-7 as g1 at H6 broken",
            "add German 2-4-7 hs as g2 at H6 broken",
            "add German 8-0 as g9 at H6",
        ):  # the wrong entry
            await type_command(pilot, line)
        await pilot.press("escape", "u")  # undo the wrong entry
        assert "g9" not in game.state.units
        assert app.screen.query_one(HistoryView).line(6).status == "undone"
        await type_command(pilot, "phase RtPh 1 American")
        await type_command(pilot, "surrender g1 g2 to a1")
        await type_command(pilot, "phase PFPh 1 German")
        await type_command(pilot, "eliminate a1 by sniper takeover -")
        assert status_text(app).startswith("A20.5")  # the HS must take over
        await type_command(pilot, "eliminate a1 by sniper")  # the only one able: implied
        assert status_text(app).startswith("implied: a2 takes over the prisoners of a1")
        assert game.state.units["g1"].guard == "a2" and game.state.units["g2"].guard == "a2"
        await pilot.press("escape")

        # replay: step back before the Sniper; the panels show the 9-2 guarding
        await pilot.press("h")
        replay = app.screen
        assert replay.__class__.__name__ == "ReplayScreen"
        await pilot.press("k")  # one step: over the PFPh heading, to the surrender
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(game.records[(replay.shown_seq or 0) - 1], ev.Surrendered)
        panel = next(p for p in replay.query("SidePanelView") if p.side == "American")
        assert [g.unit.handle for g in panel.data.guards] == ["a1"]
        await pilot.press("escape")

        # tally: American 6 if ended now; export both formats next to the game file
        await pilot.press("v")
        tally = app.screen
        await pilot.press("m", "w")
        await app.workers.wait_for_complete()
        await pilot.pause()
        md, html = tally.exported["md"], tally.exported["html"]
        assert md == tmp_path / "game.tally.md" and md.is_file()
        assert html.is_file() and "<table" in html.read_text()
        assert "A20.1" in md.read_text()
        assert str(md) in status_text(app) or str(html) in status_text(app)
    game.close()


@sync
async def test_replay_strike_shows_consequences_before_confirming(tmp_path):
    game = new_game(tmp_path, "Strike", [("American", "American", 4), ("German", "German", 3)])
    # the entries made through the core: replay's strike, unstrike and undo are the test
    run_script(
        game,
        [
            "add American 8-0 as a1 at H5",
            "add German 4-6-7 as g1 at H6 broken",
            "phase RtPh 1 American",
            "surrender g1 to a1",
        ],
    )
    assert len(game.records) == 5  # as typed: the sides, then the four entries
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("h")
        replay = app.screen
        history = replay.query_one(HistoryView)
        history.select_seq(3)  # adding g1: the surrender depends on it
        await pilot.pause()
        await pilot.press("x")
        confirm = app.screen
        body = str(confirm.query_one("#confirm-body").render())
        assert "would no longer hold" in body and "5" in body
        await pilot.press(*"typo", "enter")
        await pilot.pause()
        statuses = {e.seq: e.status for e in game.history()}
        assert statuses[3] == "struck" and statuses[5] == "conflict"
        assert history.line(5).status == "conflict"
        await pilot.press("X", "y")  # unstrike
        await pilot.pause()
        assert {e.seq: e.status for e in game.history()}[3] == "ok"
        history.select_seq(3)
        await pilot.pause()
        await pilot.press("U", "y")  # undo to here: the phase and the surrender
        await pilot.pause()
        assert "g1" in game.state.units and game.state.units["g1"].status == "active"
        assert game.state.phase == "RPh"
    game.close()
