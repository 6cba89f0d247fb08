"""What the app does between its first paint (the frame) and the panels filled,
counted in a fresh process started as the launcher starts it (``tui.app.launched``):
the frame paints before any of the core is imported, the panels' views are built once
per fill, a full collection of the cyclic GC does not walk what the process held
before the app was made (the interpreter's, Textual's and Stockade's modules), and no
collection runs before the panels are filled (the collector is back once the app is
idle, and after a read that failed)."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest

from tests.tui.support import demo_in_a_child, sync

ROOT = Path(__file__).resolve().parents[2]

CHILD = """\
import asyncio, gc, json, sys
from pathlib import Path
import stockade.tui.app as app_module

counts = {"side_panels": 0, "render_panel": 0}
seen = {}

def counted(module, name):
    real = getattr(module, name)
    def count(*args, **kwargs):
        counts[name] += 1
        return real(*args, **kwargs)
    setattr(module, name, count)

read_game = app_module.read_game

def read_and_count(path):
    read = read_game(path)  # imports the main screen's modules: count what it calls
    import stockade.tui.screens.main as main_screen
    import stockade.tui.widgets.side_panel as side_panel
    counted(main_screen, "side_panels")
    counted(side_panel, "render_panel")
    resuming(main_screen.MainScreen)
    return read

app_module.read_game = read_and_count

from rich.text import Text
wraps = {}
real_wrap = Text.wrap

def wrap_counted(self, *args, **kwargs):
    wraps[id(self)] = wraps.get(id(self), 0) + 1
    return real_wrap(self, *args, **kwargs)

Text.wrap = wrap_counted

from textual.screen import Screen
from textual.widget import Widget
drawn = set()  # the main screen's widgets whose own content was rendered into lines

def drawing(real):
    def render(self):
        if type(self.screen).__name__ == "MainScreen":
            drawn.add(self.id or type(self).__name__)
        return real(self)
    return render

Widget.render, Screen.render = drawing(Widget.render), drawing(Screen.render)
resumed = [False]  # from the main screen's first resume on (its first layout)
asked_again = {}  # who asked Textual for a layout from then on, how often
real_refresh = Widget.refresh

def refresh(self, *regions, repaint=True, layout=False, recompose=False):
    if layout and resumed[0] and self.is_attached and type(self.screen).__name__ == "MainScreen":
        name = self.id or type(self).__name__
        name = "command-prompt" if self.has_class("command-prompt") else name
        asked_again[name] = asked_again.get(name, 0) + 1
    return real_refresh(self, *regions, repaint=repaint, layout=layout, recompose=recompose)

Widget.refresh = refresh

def resuming(screen_class):
    real_resume = screen_class.on_screen_resume

    def on_screen_resume(self, event):  # called before Textual's own, which lays it out
        resumed[0] = True
        real_resume(self, event)

    screen_class.on_screen_resume = on_screen_resume

async def main():
    app = app_module.launched(Path(sys.argv[1]))
    start_reading = app.start_reading

    def painted():
        seen["core_at_paint"] = sorted(m for m in sys.modules if m.startswith("stockade.core"))
        gc.callbacks.append(collected)
        start_reading()

    collections = []

    def collected(phase, info):
        if phase == "start":
            collections.append(info["generation"])

    app.start_reading = painted
    async with app.run_test(size=(120, 40)):
        while type(app.screen).__name__ != "MainScreen":
            await asyncio.sleep(0.001)
        await app.screen.wait_for_refresh()
        gc.callbacks.remove(collected)
        seen["collections"] = len(collections)  # from the first paint to the panels filled
        seen["walked"] = len(gc.get_objects())  # what a full collection walks now
        seen["frozen"] = gc.get_freeze_count()
        seen["panels"] = len(app.screen.query("SidePanelView"))
        # each widget class new to the app is imported and its CSS parsed in the fill
        seen["widget_classes"] = sorted({type(w).__name__ for w in app.screen.walk_children()})
        seen["widgets"] = len(list(app.screen.walk_children()))
        seen["drawn"] = sorted(drawn)
        seen["asked_again"] = dict(asked_again)
        # how often the status line's message was wrapped (measured, then rendered)
        seen["status_wraps"] = wraps.get(id(app.screen.query_one("StatusLine")._text), 0)
        for _ in range(300):  # the collector is back once the app is idle
            if gc.isenabled():
                break
            await asyncio.sleep(0.01)
        seen["collector_back"] = gc.isenabled()
    app.game.close()
    print(json.dumps({**seen, **counts}))

asyncio.run(main())
"""


@pytest.fixture(scope="module")
def fill(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("fill")
    return demo_in_a_child(tmp, CHILD)


def test_the_frame_paints_before_the_core_is_imported(fill: dict[str, Any]) -> None:
    # the config (its folders, its TOML), file names and the visible() of notices only
    # (a guard: named, so that a module added before the paint is seen and weighed)
    assert set(fill["core_at_paint"]) <= {
        "stockade.core",
        "stockade.core.config",
        "stockade.core.config.dirs",
        "stockade.core.config.tomlstruct",
        "stockade.core.log",
        "stockade.core.log.files",
        "stockade.core.model",
        "stockade.core.model.visible",
    }, fill["core_at_paint"]
    assert not any(m.startswith("stockade.core.book") for m in fill["core_at_paint"])


def test_the_panels_views_are_built_once_per_fill(fill: dict[str, Any]) -> None:
    assert fill["panels"] == 2
    assert fill["side_panels"] == 1  # main: 2 (the mount, then the resume after it)
    assert fill["render_panel"] == fill["panels"]


def test_a_full_collection_skips_what_the_process_held_at_launch(fill: dict[str, Any]) -> None:
    # Of what the process holds at the fill, a third or more is out of the walks (the
    # demo: ~35k of ~71k objects); main: nothing frozen, every object walked.
    assert fill["frozen"] * 2 > fill["walked"], fill


def test_no_cyclic_collection_runs_before_the_panels_are_filled(fill: dict[str, Any]) -> None:
    # The core's imports, the fold and the mount make long-lived objects, and the young
    # collections they set off walked them again and again (main: ~60 collections
    # from the first paint to the panels filled); the collector runs once the app is idle.
    assert fill["collections"] == 0, fill["collections"]
    assert fill["collector_back"]


def test_the_fill_styles_no_widget_class_it_can_do_without(fill: dict[str, Any]) -> None:
    # The command bar's ":" is a Static (a class the frame has styled already), not a
    # Label: main styled a Label (its CSS parsed in the fill) for that one cell.
    assert "Label" not in fill["widget_classes"], fill["widget_classes"]
    assert len(fill["widget_classes"]) <= 12, fill["widget_classes"]  # main: 13
    # no container that only groups (#main, the bar's row), no too-small notice on a
    # screen big enough, no child in a side panel (it draws its own text)
    assert fill["widgets"] <= 12, fill["widgets"]  # main: 14 (the footer's keys come later)


def test_the_fill_draws_no_lines_the_screens_parts_cover(fill: dict[str, Any]) -> None:
    # The screen and the board's containers only place what covers them whole: their
    # own lines would be drawn and then hidden (main: the screen's 40 lines of
    # background, #board's and #sides' too, ~20 M instructions of the fill).
    assert not {"MainScreen", "board", "sides"} & set(fill["drawn"]), fill["drawn"]
    assert "SidePanelView" in fill["drawn"], fill["drawn"]  # and it sees what is drawn


def test_no_part_asks_for_the_layout_that_sized_it_again(fill: dict[str, Any]) -> None:
    # The first layout gives every widget its first virtual size, and a new virtual size
    # asks for another layout of the screen and a repaint of the widget: for the phase
    # bar, the panels, the command bar and its prompt, the status line and the screen
    # itself (main: each asked once), that is the same layout and the same lines again.
    # The history settles its scrollbar in that first layout too (main: the demo's
    # history overflows, and its scrollbar asked for a second layout). What is left of
    # the second layout is Textual's own widgets (the footer, the scrollbars).
    asked = fill["asked_again"]
    parts = {"phase-bar", "SidePanelView", "command-bar", "command-prompt", "status", "history"}
    assert not parts & set(asked), asked
    assert "StockadeFooter" in asked, asked  # and it sees them


def test_the_status_line_wraps_its_message_once(fill: dict[str, Any]) -> None:
    # measured (its height is auto), then rendered: the same lines (main: 4 wraps)
    assert fill["status_wraps"] == 1, fill["status_wraps"]


@sync
async def test_a_game_that_cannot_be_read_leaves_the_collector_on(tmp_path: Path) -> None:
    from stockade.tui.app import StockadeApp

    bad = tmp_path / "not-a-game.jsonl"
    bad.write_text("this is not a game\n")
    assert gc.isenabled()
    app = StockadeApp(bad, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(300):
            if app.problem:
                break
            await pilot.pause(0.01)
        assert app.problem
        assert gc.isenabled()
    assert gc.isenabled()


WHOLE_REPAINTS_CHILD = """\
import asyncio, json, sys
from pathlib import Path
import stockade.tui.app as app_module
from stockade.tui.screens.main import MainScreen
from textual.app import App
from textual.widget import Widget

counts = {"layouts": 0, "whole_repaints": 0}
real_refresh = Widget.refresh

def refresh(self, *regions, repaint=True, layout=False, recompose=False):
    # a repaint of the whole main screen that reaches Textual once it has laid the
    # screen out and painted it (every widget's lines rendered again, whole)
    if isinstance(self, MainScreen) and counts["layouts"] and repaint and not regions:
        counts["whole_repaints"] += 1
    return real_refresh(self, *regions, repaint=repaint, layout=layout, recompose=recompose)

Widget.refresh = refresh
real_on_mount = MainScreen.on_mount

def on_mount(self):
    def laid_out(screen):  # published once per layout (and paint) of the whole screen
        counts["layouts"] += 1
    self.screen_layout_refresh_signal.subscribe(self, laid_out)
    real_on_mount(self)

MainScreen.on_mount = on_mount
seen = {}
real_switch = App.switch_screen

def switch_screen(self, screen):
    switching = real_switch(self, screen)

    async def switched():  # the frame replaced by the main screen, and removed
        await switching
        seen["switched"] = dict(counts)

    return switched()

App.switch_screen = switch_screen

async def main():
    app = app_module.launched(Path(sys.argv[1]))
    async with app.run_test(size=(120, 40)) as pilot:
        while "switched" not in seen:
            await asyncio.sleep(0.001)
        await app.screen.wait_for_refresh()
        await pilot.press("question_mark")  # a screen over it, then back: painted whole
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        await pilot.pause()
        back = dict(counts)
    app.game.close()
    print(json.dumps({"switched": seen["switched"], "back": back}))

asyncio.run(main())
"""


def test_the_main_screen_is_painted_whole_once_as_it_replaces_the_frame(tmp_path: Path) -> None:
    # Textual paints the whole screen on its first resume (its first layout), then asks
    # for the whole screen again before the frame is removed: the resume itself, the
    # switch, the frame's removal (old code: 3 whole repaints asked, two full renders
    # of the same screen). A screen over it (help) still has the whole screen painted
    # again when it goes.
    got = demo_in_a_child(tmp_path, WHOLE_REPAINTS_CHILD)
    assert got["switched"]["layouts"] >= 1, got
    assert got["switched"]["whole_repaints"] == 0, got
    assert got["back"]["whole_repaints"] > got["switched"]["whole_repaints"], got


LAID_OUT_CHILD = """\
import asyncio, json, sys
from pathlib import Path
import stockade.tui.app as app_module
from stockade.tui.screens.main import MainScreen
from stockade.tui.widgets.side_panel import SidePanelView
from textual.screen import Screen

state = {"arranging": 0}
asked = []
virtual_sizes = {}

def watch_virtual_size(self, size):  # each virtual size a panel is given in the fill
    virtual_sizes.setdefault(self.side, []).append(tuple(size))

SidePanelView.watch_virtual_size = watch_virtual_size
real_arrange = MainScreen.arrange
real_find = Screen.find_widget

def arrange(self, size, *args, **kwargs):
    state["arranging"] += 1
    try:
        return real_arrange(self, size, *args, **kwargs)
    finally:
        state["arranging"] -= 1

def find_widget(self, widget):
    if state["arranging"] and isinstance(self, MainScreen):
        asked.append(type(widget).__name__)
    return real_find(self, widget)

MainScreen.arrange = arrange
Screen.find_widget = find_widget

async def main():
    app = app_module.launched(Path(sys.argv[1]))
    async with app.run_test(size=(120, 40)):
        while type(app.screen).__name__ != "MainScreen":
            await asyncio.sleep(0.001)
        await app.screen.wait_for_refresh()
        status = app.screen.query_one("StatusLine")
        lines = [line.plain for line in status.wrapped_lines()]
        width = status.content_region.width
    app.game.close()
    print(json.dumps({"asked": asked, "lines": lines, "width": width, "virtual": virtual_sizes}))

asyncio.run(main())
"""


def test_the_main_screen_is_laid_out_without_asking_where_a_widget_is(tmp_path: Path) -> None:
    # A widget's region, read while a new screen is laid out, is only known by laying
    # the whole screen out again, inside the first: the status line wraps its message
    # at the width the layout hands it (main: it read its region in both layouts of
    # the fill). Its lines are those of its width on the screen.
    got = demo_in_a_child(tmp_path, LAID_OUT_CHILD)
    assert got["asked"] == [], got["asked"]
    assert got["width"] == 118
    assert got["lines"] and all(len(line) <= got["width"] for line in got["lines"]), got
    # The panel that overflows (the German side) takes its scrollbar in the first
    # layout and keeps the virtual size that layout gave it: a narrower one in the next
    # layout would lay it out and paint it and its scrollbar again, for the same text.
    assert got["virtual"], got
    assert all(len(sizes) == 1 for sizes in got["virtual"].values()), got["virtual"]
