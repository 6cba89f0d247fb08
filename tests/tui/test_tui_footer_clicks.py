"""Mouse or touch alone (a tablet through ``stockade serve``): every key the footer
shows is on the screen and clicking it runs its binding, on the main screen and on the
screens its footer opens."""

from __future__ import annotations

import pytest
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from stockade.core.book.game import Game
from stockade.tui.app import StockadeApp
from tests.tui.support import sample_copy, sync, until


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


SIZES = [(100, 30), (130, 40)]


def footer_laid_out(app) -> bool:
    """The current screen was laid out at the app's size: its footer (docked at the
    bottom) ends on the screen's last row. Whether each key fits is the test's own
    check, not a condition of waiting."""
    width, height = app.size
    footers = list(app.screen.query(Footer))
    return (
        tuple(app.screen.size) == (width, height)
        and bool(footers)
        and all(f.region.bottom == height and f.region.width == width for f in footers)
    )


async def every_footer_key_is_clickable(app, pilot) -> None:
    """Every footer key of the main screen, of History and of Tally runs its action when
    clicked; a tap outside help or the forms menu closes it."""
    main = await check_every_footer_key_runs_its_action(app, pilot)
    assert {"Next", "Undo", "Forms", "History", "Tally", "Help"} <= set(main)
    for opener in ("History", "Tally"):
        key = next(k for k in footer_keys(app) if k.description == opener)
        await pilot.click(key)  # really opens it
        await pilot.pause()
        assert len(app.screen_stack) > 2, opener
        await until(pilot, lambda: footer_laid_out(app), f"{opener}'s footer laid out")
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


async def clicking_next_and_undo_changes_the_game(app, pilot, game) -> None:
    phase, n = game.state.phase, len(game.records)
    await pilot.click(next(k for k in footer_keys(app) if k.description == "Next"))
    await pilot.pause()
    assert game.state.phase != phase and len(game.records) == n + 1
    await pilot.click(next(k for k in footer_keys(app) if k.description == "Undo"))
    await pilot.pause()
    assert game.state.phase == phase and len(game.records) == n + 2


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@sync
async def test_every_footer_key_is_clickable_and_next_and_undo_change_the_game(tmp_path, size):
    """One app on the demo game at each size: every footer key, then (at the first size)
    Next and Undo clicked. Each check says which it was when it fails."""
    game = Game.open(sample_copy(tmp_path, "demo"))
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await until(pilot, lambda: footer_laid_out(app), f"the footer laid out at {size}")
        assert tuple(app.size) == size
        try:
            await every_footer_key_is_clickable(app, pilot)
        except AssertionError as failed:
            raise AssertionError(f"every footer key clickable at {size}: {failed}") from failed
        if size == SIZES[0]:
            try:
                await clicking_next_and_undo_changes_the_game(app, pilot, game)
            except AssertionError as failed:
                raise AssertionError(f"clicking Next then Undo at {size}: {failed}") from failed
    game.close()
