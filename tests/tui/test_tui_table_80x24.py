"""At the table, at 80x24: the strike confirmation's reason and keys are on the screen
however long its preview (and an SVG snapshot of it)."""

from __future__ import annotations

import os

from stockade.core.commands import run_script
from stockade.tui.app import StockadeApp
from stockade.tui.widgets.history_view import HistoryView
from tests.tui.support import new_game, sync

SIDES = [("American", "American", 4), ("German", "German", 3)]
# Striking entry 3 (the German units) costs every later entry: a preview of ~30 lines.
LONG_PREVIEW = [
    "add American 6-6-7 6-6-7 6-6-7 at Q4",
    "add German 4-6-7 4-6-7 2-4-7 hs 2-4-7 hs 8-1 at Q5 broken",
    "phase RtPh 1 American",
    'surrender g1 g2 to a1 because "g3 g4 g5 rout"',
    'surrender g3 g4 to a2 because "g5 routs"',
    "surrender g5 to a3",
    "next",
    "transfer g2 to a2",
    "transfer g5 to a1",
    "abandon g3",
    "next",
    "move a2 R4",
    "move a1 R5",
    "next",
    "next",
    "eliminate a1 by enemy",
    "eliminate a2 by enemy",
]


async def open_strike(pilot, seq: int) -> None:
    await pilot.pause()
    await pilot.press("h")
    await pilot.pause()
    pilot.app.screen.query_one(HistoryView).select_seq(seq)
    await pilot.pause()
    await pilot.press("x")
    await pilot.pause()


@sync
async def test_the_strike_reason_and_keys_are_on_screen_at_80x24(tmp_path):
    game = new_game(tmp_path, "Long", SIDES)
    run_script(game, LONG_PREVIEW)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_strike(pilot, 3)
        screen = app.screen
        body = screen.query_one("#confirm-body").region
        assert body.height > 20  # the preview is longer than the screen
        for part in ("#confirm-input", "#confirm-keys"):
            region = screen.query_one(part).region
            assert region.y >= 0 and region.bottom <= 24, (part, region)
        assert "enter: confirm" in str(screen.query_one("#confirm-keys").render())
        records = len(game.records)
        await pilot.press(*"typo", "enter")
        await pilot.pause()
        assert len(game.records) == records + 1
        assert game.timeline.struck.get(3) == records + 1
    game.close()


def test_strike_confirmation_80x24_snapshot(tmp_path, snap_compare):
    game = new_game(tmp_path, "Long", SIDES)
    run_script(game, LONG_PREVIEW)
    app = StockadeApp(game, remember=False)

    async def strike(pilot):
        await open_strike(pilot, 3)
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    try:
        assert snap_compare(app, terminal_size=(80, 24), run_before=strike)
    finally:
        game.close()


@sync
async def test_the_history_follows_after_resizes(tmp_path):
    from tests.tui.support import type_command

    game = new_game(tmp_path, "Resize", SIDES)
    run_script(game, [f"add German 4-6-7 at Q{i}" for i in range(1, 60)])
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        history = app.screen.query_one(HistoryView)

        def newest_in_view() -> bool:
            return (
                history.highlighted == history.line_count - 1
                and history.scroll_y == history.max_scroll_y
            )

        for size in ((120, 40), (80, 24), (120, 40), (80, 24)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.pause()
            assert newest_in_view(), size
        await type_command(pilot, "add American 6-6-6 at R1")
        await pilot.press("escape")
        await pilot.pause()
        assert newest_in_view() and history.line_count == 61
        await pilot.press("u")
        await pilot.pause()
        await pilot.pause()
        assert newest_in_view() and history.line(61).status == "undone"
    game.close()


@sync
async def test_after_the_end_n_says_why_and_the_panels_show_the_final_cvp(tmp_path):
    from stockade.tui.widgets.side_panel import SidePanelView
    from tests.tui.support import status_text

    game = new_game(tmp_path, "End", SIDES)
    run_script(
        game,
        [
            "add American 6-6-6 at Q4",
            "add German 4-6-7 at Q5 broken",
            "phase RtPh",
            "surrender g1 to a1",
            "end",
        ],
    )
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        records = len(game.records)
        await pilot.press("n")
        await pilot.pause()
        assert "the game has ended" in status_text(app) and len(game.records) == records
        from rich.console import Console

        from stockade.tui.widgets.side_panel import render_panel

        console = Console(width=80, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
        for panel in app.screen.query(SidePanelView):
            assert panel.data is not None
            console.print(render_panel(panel.data, "bold"))
        panels = console.export_text()
        assert "if ended now" not in panels and "final" in panels
    game.close()


@sync
async def test_a_read_only_session_shows_no_refusal_before_a_key(tmp_path):
    from stockade.core.book.game import Game
    from tests.tui.support import status_text

    game = new_game(tmp_path, "RO", SIDES)
    game.close()
    read_only = Game.open(tmp_path / "game.jsonl", read_only=True)
    app = StockadeApp(read_only, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        status = app.screen.query_one("StatusLine")
        assert "read-only" in status_text(app) and status.kind != "refusal"
        assert "refused" not in str(status.render())
    read_only.close()


@sync
async def test_bbcode_and_csv_exports_from_the_tally_screen(tmp_path):
    from stockade.core.book.tally import tally
    from stockade.core.reads.tally_formats import to_bbcode, to_csv
    from stockade.tui.screens.tally import TallyScreen, export_path

    game = new_game(tmp_path, "Export", SIDES)
    run_script(game, ["add American 6-6-6 at Q4", "add German 4-6-7 at Q5", "eliminate g1"])
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, TallyScreen)
        for key in ("b", "c"):
            await pilot.press(key)
            await app.workers.wait_for_complete()
            await pilot.pause()
        t = tally(game.state)
        bb = export_path(game.path, "Export", "bbcode")
        csv = export_path(game.path, "Export", "csv")
        assert bb.read_text(encoding="utf-8") == to_bbcode(t)
        assert csv.read_text(encoding="utf-8") == to_csv(t)
    game.close()


def test_a_toast_is_one_or_two_lines():
    from stockade.tui.toast import brief

    assert brief(["one"]) == "one"
    text = brief(["x" * 200, "second", "third"])
    assert text.count("\n") == 1 and text.endswith("+2 more on the status line")
    assert len(text.splitlines()[0]) < 72


@sync
async def test_in_the_app_an_entry_moves_the_clock_and_says_so(tmp_path):
    from tests.tui.support import status_text, type_command

    game = new_game(tmp_path, "Clock", SIDES)
    run_script(game, ["add American 6-6-6 at Q4", "add German 4-6-7 at Q5 broken", "phase MPh"])
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await type_command(pilot, "surrender 4-6-7@Q5 to 6-6-6")
        assert game.state.phase == "RtPh" and game.state.units["g1"].guard == "a1"
        assert "MPh -> RtPh" in status_text(app) and "A20.21" in status_text(app)
        await pilot.press("escape", "u")
        await pilot.pause()
        assert game.state.phase == "MPh" and game.state.units["g1"].guard is None
    game.close()
