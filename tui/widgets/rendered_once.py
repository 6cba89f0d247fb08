"""A Rich renderable that Rich renders once per width, not once to be measured and
again to be painted.

Textual wraps a Rich renderable given to a ``Static`` in a ``RichVisual``, which renders
it whole to count its lines when the layout asks its height, and whole again when the
widget is painted: a side panel's text (tables, wrapped lines) was rendered two or
three times before the panels were first filled (measured at its width, measured
again at one column less when it overflows and its scrollbar takes a column, then
painted). ``RenderedOnce`` keeps the last render's segments with the width it was
made at; the paint at that width reuses them, with the widget's style applied as
Textual's own ``post_render`` applies it. Any other width renders again.
"""

from __future__ import annotations

from itertools import islice

from rich.console import RenderableType
from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.content import Style
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.visual import RenderOptions, RichVisual
from textual.widget import Widget


class RenderedOnce(RichVisual):
    """``renderable`` as ``widget`` shows it, rendered by Rich once per width."""

    def __init__(self, widget: Widget, renderable: RenderableType) -> None:
        super().__init__(widget, renderable)
        self.widget = widget
        self.renderable = renderable
        self.renders = 0  # how many times Rich rendered it (what the tests count)
        self._made: tuple[int, list[Segment]] | None = None  # width, the segments

    def segments(self, width: int) -> list[Segment]:
        """The renderable's segments at ``width``, unstyled (rendered if not held)."""
        if self._made is None or self._made[0] != width:
            app = self.widget.app
            options = app.console_options.update_width(width).update(highlight=False)
            self.renders += 1
            self._made = (width, list(app.console.render(self.renderable, options)))
        return self._made[1]

    def get_height(self, rules: RulesMap, width: int) -> int:
        return sum(text.count("\n") for text, _, _ in self.segments(width))

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        # What RichVisual renders, from the held segments: the widget's style added to
        # each segment (Textual's post_render), cut into lines at ``width``.
        base = self.widget.app.console.get_style(style.rich_style)
        link = self.widget.link_style if self.widget.auto_links else None
        styled = (
            Segment(text, base + seg_style if base else seg_style, None)
            for text, seg_style, _control in self.segments(width)
        )
        if link:
            styled = (
                Segment(text, _linked(seg_style, link), None)
                for text, seg_style, _ in styled
                if seg_style is not None
            )
        lines = Segment.split_and_crop_lines(styled, width, include_new_lines=False, pad=False)
        return [Strip(line) for line in islice(lines, None, height)]


def _linked(style: RichStyle, link: RichStyle) -> RichStyle:
    """A segment's style with the link style added where it is a click (as Textual's)."""
    return style + link if "@click" in style.meta else style
