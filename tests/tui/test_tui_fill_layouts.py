"""How many times the main screen is laid out while it fills (the demo at 120x40, in a
fresh process started as the launcher starts the app), from the read's end to the
panels filled as ``bench.run --tui-only`` takes it (the main screen current and
refreshed once): Textual's Resize after the first layout (the size just laid out, the
breakpoint classes already set) lays nothing out again, and the entries' list above the
command bar is not mounted until it is asked for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.tui.support import demo_in_a_child, sample_copy, sync

CHILD = """\
import asyncio, json, sys
from pathlib import Path
import stockade.tui.app as app_module
from stockade.tui.screens.main import MainScreen
from stockade.tui.widgets.offer_list import OfferList

from textual.css.stylesheet import Stylesheet

counts = {"layouts": 0, "offers_mounted": 0, "styled": 0}
filling = [False]
real_apply = Stylesheet.apply

def apply(self, node, *args, **kwargs):  # one node's styles worked out from the CSS
    if filling[0]:
        counts["styled"] += 1
    return real_apply(self, node, *args, **kwargs)

Stylesheet.apply = apply
real_parse = Stylesheet.parse
parsed_before = set()
parsed = []  # each CSS source parsed in the fill: its place (file, class variable)

def parse(self):  # what is parsed: each source not parsed before as it stands now
    for place, source in self.source.items():
        key = (place, source.content, source.tie_breaker, source.scope)
        if key not in parsed_before:
            parsed_before.add(key)
            if filling[0]:
                parsed.append(place[1] or place[0])
    return real_parse(self)

Stylesheet.parse = parse
real_on_mount = MainScreen.on_mount

def on_mount(self):
    def laid_out(screen):  # published once per layout of the whole screen
        if filling[0]:
            counts["layouts"] += 1
    self.screen_layout_refresh_signal.subscribe(self, laid_out)
    real_on_mount(self)

MainScreen.on_mount = on_mount

def offers_mounted(self):
    counts["offers_mounted"] += 1

OfferList.on_mount = offers_mounted

async def main():
    app = app_module.launched(Path(sys.argv[1]))
    show = app._show_read_game

    async def shown(game):
        filling[0] = True
        await show(game)

    app._show_read_game = shown
    async with app.run_test(size=(120, 40)) as pilot:
        while type(app.screen).__name__ != "MainScreen":
            await asyncio.sleep(0.001)
        await app.screen.wait_for_refresh()
        filled = dict(counts)
        filled["parsed"] = list(parsed)
        filled["nodes"] = 1 + len(list(app.screen.walk_children()))
        await pilot.pause()
        await pilot.pause()
        settled = dict(counts)
        await pilot.press("colon")
        await pilot.pause()
        asked = dict(counts)
        bar_offers = len(app.screen.query(OfferList))
    app.game.close()
    print(json.dumps({"filled": filled, "settled": settled, "asked": asked,
                      "bar_offers": bar_offers}))

asyncio.run(main())
"""


@pytest.fixture(scope="module")
def fill(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("fill-layouts")
    return demo_in_a_child(tmp, CHILD)


def test_the_screen_is_laid_out_twice_before_the_panels_are_filled(fill: dict[str, Any]) -> None:
    # when resumed, then once more for what its first layout changed (the history's
    # scrollbar, the mount's own refresh); main: 3, the third on Textual's Resize
    assert fill["filled"]["layouts"] == 2, fill


def test_each_widget_is_styled_about_once_in_the_fill(fill: dict[str, Any]) -> None:
    # as it mounts, and again for a class or a focus set since (26 for 18 nodes on a
    # quiet machine, 31 in a loaded run: what else the app did before the refresh
    # settled); restyling the whole screen on its first resume styles each node at
    # least twice (56 for 19 nodes)
    assert fill["filled"]["styled"] < 2 * fill["filled"]["nodes"], fill


def test_the_fill_parses_each_css_source_once_and_not_inputs(fill: dict[str, Any]) -> None:
    # The command bar's input is styled by the bar's CSS alone: main parsed Input's CSS
    # (the largest source of the fill) and, as Input ranks Widget, ScrollableContainer
    # and ScrollView one deeper than the widgets before it, those three again.
    parsed = fill["filled"]["parsed"]
    assert "Input.DEFAULT_CSS" not in parsed, parsed
    assert len(parsed) == len(set(parsed)), parsed
    assert "CommandBar.DEFAULT_CSS" in parsed, parsed  # and it sees what is parsed


def test_the_entries_list_is_mounted_when_the_bar_first_opens(fill: dict[str, Any]) -> None:
    # main: mounted once the screen had painted, whether asked for or not
    assert fill["filled"]["offers_mounted"] == 0, fill
    assert fill["settled"]["offers_mounted"] == 0, fill
    assert fill["asked"]["offers_mounted"] == 1 and fill["bar_offers"] == 1, fill


SIZES = ((120, 40), (80, 24), (160, 50), (70, 20), (100, 30), (120, 40))


def _layout(screen) -> tuple[list[str], dict[str, tuple[int, ...]]]:
    """The screen's breakpoint classes and its shown widgets' regions."""
    from textual.widget import Widget

    classes = sorted(c for c in screen.classes if c.startswith("-"))
    regions = {
        f"{type(w).__name__}#{w.id}": tuple(w.region)
        for w in screen.walk_children(Widget)
        if w.display and w.id
    }
    return classes, regions


async def _layouts(tmp_path: Path, sizes: tuple[tuple[int, int], ...]):
    """The main screen's layout at each of ``sizes`` in turn, in one app started at the
    first and resized to each of the others (two pauses after each resize)."""
    from stockade.core.book.game import Game
    from stockade.tui.app import StockadeApp

    where = tmp_path / "x".join(map(str, sizes[0])) / str(len(sizes))
    where.mkdir(parents=True)
    game = Game.open(sample_copy(where, "demo"))
    app = StockadeApp(game, remember=False)
    seen = []
    async with app.run_test(size=sizes[0]) as pilot:
        await pilot.pause()
        seen.append(_layout(app.screen))
        for step in sizes[1:]:
            await pilot.resize_terminal(*step)
            await pilot.pause()
            await pilot.pause()
            seen.append(_layout(app.screen))
    game.close()
    return seen


@sync
async def test_a_terminal_resize_still_lays_the_screen_out_as_a_start_at_that_size(tmp_path):
    # the Resize a layout sends itself is let go only when it changes nothing: a real
    # resize (to a size the screen was not laid out at) is laid out by Textual as before.
    # One app is resized through every size in turn (what it shows after the n-th resize
    # is what an app resized through the first n sizes shows); each layout is compared
    # with a fresh start at that size (the walk's own start is the fresh first size).
    resized = await _layouts(tmp_path, SIZES)
    fresh = {SIZES[0]: resized[0]}
    for size in SIZES[1:]:
        if size not in fresh:
            (fresh[size],) = await _layouts(tmp_path, (size,))
    for size, layout in zip(SIZES[1:], resized[1:], strict=True):
        assert layout == fresh[size], size
