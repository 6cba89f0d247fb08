"""A side panel draws its own lines: its text rendered by Rich once a width
(``tui.widgets.side_panel.text_lines``) paints what a ``Static`` showing the same text
paints (every sample game's panels, narrow and wide, at widths that wrap differently),
and the rows in view follow the scroll (keys and wheel)."""

from __future__ import annotations

import shutil
from pathlib import Path

from textual.app import App, ComposeResult
from textual.events import Key, MouseScrollDown
from textual.geometry import Region
from textual.visual import RichVisual, Visual
from textual.widgets import Static

from stockade.core.book.game import Game
from stockade.core.reads.views import side_panels
from stockade.tui.app import StockadeApp
from stockade.tui.widgets.side_panel import SidePanelView, render_panel, text_lines
from tests.tui.support import sample_copy, sync

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
WIDTHS = (24, 37, 55, 56, 90)


class OneStatic(App[None]):
    def compose(self) -> ComposeResult:
        yield Static(id="text")


@sync
async def test_the_panel_lines_are_what_a_static_paints(tmp_path: Path) -> None:
    panels = []
    for log in sorted(SAMPLES.glob("*.jsonl")):
        copy = tmp_path / log.name
        shutil.copyfile(log, copy)
        game = Game.open(copy, read_only=True)
        panels += list(side_panels(game.state).values())
        game.close()
    assert len(panels) >= 20
    app = OneStatic()
    async with app.run_test(size=(100, 40)):
        static = app.query_one(Static)
        style = static.visual_style
        compared = 0
        for data in panels:
            for wide in (False, True):
                text = render_panel(data, "green", wide=wide)
                for width in WIDTHS:
                    theirs = Visual.to_strips(static, RichVisual(static, text), width, None, style)
                    ours = text_lines(
                        app.console, app.console_options, text, width, style.rich_style
                    )
                    assert ours == theirs, (data.name, wide, width)
                    compared += 1
    assert compared == len(panels) * 2 * len(WIDTHS)


def _rows(panel: SidePanelView) -> list[str]:
    """The panel's rows as painted, inside its border and padding."""
    width, height = panel.outer_size
    strips = panel.render_lines(Region(0, 1, width, height - 2))
    return [strip.text[2:-2].rstrip() for strip in strips]


def _in_view(panel: SidePanelView, lines: list[str]) -> list[str]:
    """What rows the panel should show: its lines from the scroll offset on."""
    rows = panel.scrollable_content_region.height
    return (lines[round(panel.scroll_y) :] + [""] * rows)[:rows]


@sync
async def test_the_rows_in_view_follow_the_keys_and_the_wheel(tmp_path: Path) -> None:
    game = Game.open(sample_copy(tmp_path))
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        german = next(p for p in app.screen.query(SidePanelView) if p.side == "German")
        width = german.scrollable_content_region.width
        lines = [strip.text.rstrip() for strip in german.lines_at(width)]
        assert len(lines) > german.scrollable_content_region.height + 3  # it overflows
        assert _rows(german) == _in_view(german, lines)
        renders = german.renders
        german.focus()
        await pilot.press("j", "j")
        await pilot.pause()
        assert german.scroll_y == 2 and _rows(german) == _in_view(german, lines)
        assert "↑2" in (german.border_subtitle or "")
        await pilot.press("k")
        await pilot.pause()
        assert german.scroll_y == 1 and _rows(german) == _in_view(german, lines)
        # the wheel (Pilot has none of its own)
        await pilot._post_mouse_events([MouseScrollDown], german, (width // 2, 3))
        await pilot.pause()
        assert german.scroll_y > 1 and _rows(german) == _in_view(german, lines)
        assert german.renders == renders  # scrolled: painted from the lines held
        # a burst (a fast typist, key repeat): each j a line down, none lost
        start = round(german.scroll_target_y)
        for _ in range(5):
            app.post_message(Key("j", "j"))
        await pilot.pause()
        assert german.scroll_target_y == start + 5
    game.close()


@sync
async def test_a_panel_shown_what_it_says_already_renders_nothing(tmp_path: Path) -> None:
    game = Game.open(sample_copy(tmp_path))
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        panels = list(app.screen.query(SidePanelView))
        renders = [panel.renders for panel in panels]
        wide = app.screen.has_class("-wide")
        views = side_panels(game.state)  # built again: equal views, not the same objects
        for panel in panels:
            panel.show(views[panel.side], wide=wide)
        await pilot.pause()
        assert [panel.renders for panel in panels] == renders
        for panel in panels:  # the other breakpoint's text: rendered again
            panel.show(views[panel.side], wide=not wide)
        await pilot.pause()
        assert all(panel.renders > before for panel, before in zip(panels, renders, strict=True))
    game.close()


def test_a_side_with_nothing_to_show_is_said_so_as_of_now() -> None:
    # "yet" would deny what happened: a unit captured, then escaped and rearmed, leaves
    # its side's panel empty again
    import io

    from rich.console import Console

    from stockade.core.commands import run_script
    from stockade.core.model import events as ev

    game = Game.in_memory(
        "now", [ev.SideSpec("Russian", "Russian", 3), ev.SideSpec("German", "German", 3)]
    )
    run_script(game, ["add Russian 4-4-7 at Q4", "add German 4-6-7 at Q5"])
    panel = side_panels(game.state)["Russian"]
    console = Console(width=40, file=io.StringIO(), record=True)
    console.print(render_panel(panel, "red"))
    said = " ".join(console.export_text().split())
    assert "no prisoners, unarmed or lost units now" in said, said
