"""Mouse or touch alone (a tablet through ``stockade serve``): every key the footer
shows is on the screen and clicking it runs its binding, on the main screen and on the
screens its footer opens."""

from __future__ import annotations

import pytest
from textual.widgets._footer import FooterKey

from stockade.core.book.game import Game
from stockade.tui.app import StockadeApp
from tests.tui.support import sample_copy, sync


def footer_keys(app) -> list[FooterKey]:
    return [k for k in app.screen.query(FooterKey) if k.display]


async def check_every_footer_key_runs_its_action(app, pilot) -> list[str]:
    """Click each footer key of the current screen; the action it names must run."""
    ran: list[str] = []
    real = app.run_action

    async def record(action, *args, **kwargs):
        ran.append(action if isinstance(action, str) else str(action))
        return True

    keys = footer_keys(app)
    assert keys, f"no footer keys on {type(app.screen).__name__}"
    width, height = app.size
    checked = []
    app.run_action = record
    try:
        for key in keys:
            region = key.region
            assert region.width > 0 and region.right <= width and region.bottom <= height, (
                f"{key.description!r} on {type(app.screen).__name__} is off the screen"
            )
            if key.has_class("-disabled"):
                continue  # shown dimmed (nothing to redo...): a click rightly does nothing
            ran.clear()
            await pilot.click(key)
            await pilot.pause()
            assert key.action in ran, f"clicking {key.description!r} ran {ran}, not {key.action}"
            checked.append(key.description)
    finally:
        app.run_action = real
    return checked


@pytest.mark.parametrize("size", [(100, 30), (130, 40)])
@sync
async def test_every_footer_key_is_clickable(tmp_path, size):
    game = Game.open(sample_copy(tmp_path, "demo"))
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        main = await check_every_footer_key_runs_its_action(app, pilot)
        assert {"Next", "Undo", "Forms", "History", "Tally", "Help"} <= set(main)
        for opener in ("History", "Tally"):
            key = next(k for k in footer_keys(app) if k.description == opener)
            await pilot.click(key)  # really opens it
            await pilot.pause()
            assert len(app.screen_stack) > 2, opener
            await check_every_footer_key_runs_its_action(app, pilot)
            app.pop_screen()
            await pilot.pause()
        # help and the forms menu are pages over the main screen, with no footer: a tap
        # outside them closes them (there is no Esc key on a tablet)
        for opener in ("Help", "Forms"):
            key = next(k for k in footer_keys(app) if k.description == opener)
            await pilot.click(key)
            await pilot.pause()
            opened = app.screen
            assert len(app.screen_stack) > 2, opener
            await pilot.click(opened, offset=(0, 0))  # the top-left corner, outside the box
            await pilot.pause()
            assert app.screen is not opened, f"a tap outside {opener} did not close it"
    game.close()


@sync
async def test_clicking_next_and_undo_in_the_footer_changes_the_game(tmp_path):
    game = Game.open(sample_copy(tmp_path, "demo"))
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        phase, n = game.state.phase, len(game.records)
        await pilot.click(next(k for k in footer_keys(app) if k.description == "Next"))
        await pilot.pause()
        assert game.state.phase != phase and len(game.records) == n + 1
        await pilot.click(next(k for k in footer_keys(app) if k.description == "Undo"))
        await pilot.pause()
        assert game.state.phase == phase and len(game.records) == n + 2
    game.close()
