"""A panel's text rendered once a width (``tui.widgets.rendered_once``) paints what
Textual's own ``RichVisual`` paints: every sample game's panels, narrow and wide, at
widths that wrap differently, styled as the panel's text is styled (the measure is
what is painted)."""

from __future__ import annotations

import shutil
from pathlib import Path

from textual.app import App, ComposeResult
from textual.css.styles import RulesMap
from textual.visual import RichVisual, Visual
from textual.widgets import Static

from stockade.core.book.game import Game
from stockade.core.reads.views import side_panels
from stockade.tui.widgets.rendered_once import RenderedOnce
from stockade.tui.widgets.side_panel import render_panel
from tests.tui.support import sync

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
WIDTHS = (24, 37, 55, 56, 90)


class OneStatic(App[None]):
    def compose(self) -> ComposeResult:
        yield Static(id="text")


@sync
async def test_rendered_once_paints_what_rich_visual_paints(tmp_path: Path) -> None:
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
        compared = 0
        for data in panels:
            for wide in (False, True):
                text = render_panel(data, "green", wide=wide)
                once = RenderedOnce(static, text)
                for width in WIDTHS:
                    rules: RulesMap = {}  # neither reads the rules
                    height = once.get_height(rules, width)
                    assert height == RichVisual(static, text).get_height(rules, width)
                    style = static.visual_style
                    rich = RichVisual(static, text)
                    theirs = Visual.to_strips(static, rich, width, height, style)
                    ours = Visual.to_strips(static, once, width, height, style)
                    assert ours == theirs, (data.name, wide, width)
                    compared += 1
        # each width rendered by Rich once to measure it and paint it
        assert once.renders == len(WIDTHS)
    assert compared == len(panels) * 2 * len(WIDTHS)
