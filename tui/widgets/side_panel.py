"""One side's panel: its text (``tui.widgets.panel_text``) in a bordered box that
scrolls, what does not fit announced in the border.

One widget that draws its own lines: the text is rendered by Rich once per width (and
style), kept as lines, and each row painted is one of them, picked by the scroll
offset. The panel decides its scrollbar in the layout that gives it its width, so an
overflowing panel is laid out and its text rendered at the width it keeps, once.

A scroll container with no child rather than a ``ScrollView``: Textual asks a container
to arrange itself inside the layout, where the panel learns its width before its
scrollbar is settled; a ``ScrollView`` learns its width after the layout, so its
lines (hence its scrollbar) would need a second layout of the screen.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType
from rich.style import Style
from textual.actions import SkipAction
from textual.containers import VerticalScroll
from textual.geometry import Size, Spacing
from textual.layout import DockArrangeResult
from textual.strip import Strip
from textual.widget import Widget

from stockade.core.reads.views import SidePanel as PanelData
from stockade.themes import nation_colour
from stockade.tui.bindings import bindings as key_bindings
from stockade.tui.bindings import hint, key_of
from stockade.tui.plain import markup_safe
from stockade.tui.widgets.laid_out_once import LaidOutOnce
from stockade.tui.widgets.panel_text import render_panel

__all__ = ["SidePanelView", "render_panel", "text_lines"]


def text_lines(
    console: Console, options: ConsoleOptions, text: RenderableType, width: int, style: Style
) -> list[Strip]:
    """``text`` rendered at ``width``, a strip a line, ``style`` under each segment (as
    Textual paints a Rich renderable in a widget of that style), not padded: the
    widget's background fills the rest of the row."""
    lines = console.render_lines(
        text, options.update_width(width).update(highlight=False), style=style, pad=False
    )
    return [Strip(line) for line in lines]


class SidePanelView(LaidOutOnce, VerticalScroll, can_focus=True):
    """A scrollable panel for one side; arrows and j/k scroll it."""

    DEFAULT_CSS = """
    SidePanelView {
        width: 1fr;
        height: 1fr;
        border: round $panel;
        border-title-style: bold;
        padding: 0 1;
        scrollbar-size-vertical: 1;
    }
    SidePanelView:focus { border: round $primary; }
    """
    BINDINGS = key_bindings("panel")

    def __init__(self, side: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.side = side
        self.data: PanelData | None = None
        self._shown: tuple[object, ...] | None = None
        self._subtitle = ""
        self._text: RenderableType | None = None  # what render_panel made of the data
        self._lines: tuple[tuple[int, Style], list[Strip]] | None = None  # (width, style)
        self._width = 0  # the width the last layout gave the text
        self.renders = 0  # how many times Rich rendered the text (what the tests count)

    @property
    def side_id(self) -> str:
        return "".join(ch if ch.isalnum() else "-" for ch in self.side.lower())

    def show(self, data: PanelData, wide: bool = False, subtitle: str = "") -> None:
        """Lay ``data`` out; nothing is re-rendered if the panel would read the same.

        The view's words (labels, verdicts, CVP) are computed strings, so comparing
        two views compares what the panel says."""
        theme = self.app.current_theme
        subtitle = subtitle or hint(self.app, ("stockade.tally", "CVP lines"))
        shown = (data, wide, subtitle, theme.name)
        if shown == self._shown:
            self.data = data
            return
        self._shown = shown
        self.data = data
        accent = nation_colour(theme, data.nationality)
        self.border_title = markup_safe(f"{data.name} ({data.nationality})")
        self._subtitle = subtitle
        self.border_subtitle = subtitle
        self.styles.border_title_color = accent
        self._text = render_panel(data, accent, wide=wide)
        self._lines = None
        self.refresh(layout=True)
        self.call_after_refresh(self._mark_more)

    # ------------------------------------------------------------ the lines
    def lines_at(self, width: int) -> list[Strip]:
        """The text's lines at ``width``, in the panel's style (rendered if not held)."""
        if self._text is None or width <= 0:
            return []
        key = (width, self.visual_style.rich_style)
        if self._lines is None or self._lines[0] != key:
            self.renders += 1
            console = self.app.console
            lines = text_lines(console, self.app.console_options, self._text, width, key[1])
            self._lines = (key, lines)
        return self._lines[1]

    def arrange(self, size: Size, optimal: bool = False) -> DockArrangeResult:
        """The text's lines at ``size``'s width, or, when they overflow and the
        scrollbar is not shown yet, at the width the scrollbar leaves them. The panel
        places no widget: its lines are the room to scroll (the arrangement's scroll
        spacing, the room beyond any widget placed), which sets its virtual height.

        Textual decides a scrollable widget's scrollbar from its last layout: a panel
        that overflows on its first layout would be laid out and painted without the
        scrollbar, then laid out and painted again with it. The same decision
        (overflowing: the scrollbar) is made here, in the same layout.

        The room is as wide as the panel's content with the scrollbar's column: Textual
        takes the virtual width from the width it gave before that decision, so a width
        that shrank by the scrollbar in a later layout would be a new virtual size (the
        panel and its scrollbar laid out and painted again for the same text); the panel
        scrolls only up and down, so the column is never scrolled to."""
        width = size.width
        lines = self.lines_at(width)
        gutter = self.styles.scrollbar_size_vertical
        room = width + (gutter if self.show_vertical_scrollbar else 0)
        if (
            len(lines) > size.height
            and gutter
            and not self.show_vertical_scrollbar
            and self.styles.overflow_y == "auto"
        ):
            self.set_reactive(Widget.show_vertical_scrollbar, True)
            width -= gutter
            lines = self.lines_at(width)
        self._width = width
        return DockArrangeResult([], set(), Spacing(0, room, len(lines), 0))

    def render_line(self, y: int) -> Strip:
        row = y + self.scroll_offset.y
        lines = self.lines_at(self._width)  # held, unless the panel's style changed
        if 0 <= row < len(lines):
            return lines[row]
        return super().render_line(y)  # the panel's background below its text

    # j/k and the arrows: Textual's own scroll reads where to go when the key is handled
    # but scrolls only after the next refresh, so a burst of five j's (a fast typist,
    # key repeat) all aimed at the same one line down. Scrolled at once, each key goes
    # on from where the one before it left the panel.
    def action_scroll_down(self) -> None:
        if not self.allow_vertical_scroll:
            raise SkipAction()
        self.scroll_down(immediate=True)

    def action_scroll_up(self) -> None:
        if not self.allow_vertical_scroll:
            raise SkipAction()
        self.scroll_up(immediate=True)

    # ------------------------------------------------ "more below" in the border
    # At 80x24 a panel shows 8 rows: what does not fit is announced in the border
    # ("↓4 more"), with the keys that scroll it, not left to a thin scrollbar.
    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if round(old_value) != round(new_value):
            self.refresh()  # other lines in view (the panel draws them, no child moves)
        self._mark_more()

    def on_resize(self) -> None:
        self.call_after_refresh(self._mark_more)

    def watch_has_focus(self, has_focus: bool) -> None:
        # The keys in the marks follow the focus as it is now: a focus or blur handler
        # here would run before Textual sets ``has_focus`` and say the last one's.
        super().watch_has_focus(has_focus)
        self._mark_more()

    def _mark_more(self) -> None:
        if not self.is_attached:
            return
        above = round(self.scroll_y)
        below = max(0, round(self.max_scroll_y) - above)
        marks = ([f"↑{above}"] if above else []) + ([f"↓{below} more"] if below else [])
        subtitle = self._subtitle
        if marks:
            keys = "/".join(
                [key_of(self.app, "stockade.panel_down"), key_of(self.app, "stockade.panel_up")]
            )
            how = keys if self.has_focus else f"tab, {keys}"
            room = self.outer_size.width - 6  # the border: corners, a dash and a space each side
            # The marks always; then the keys, then the usual subtitle, as room allows.
            for candidate in (
                f"{' '.join(marks)} ({how}) · {subtitle}",
                f"{' '.join(marks)} · {subtitle}",
                f"{' '.join(marks)} ({how})",
                " ".join(marks),
            ):
                subtitle = candidate
                if len(candidate) <= room:
                    break
        if self.border_subtitle != subtitle:
            self.border_subtitle = subtitle
