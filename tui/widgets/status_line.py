"""The status line: the last outcome, the core's refusal (rule first), or a hint.

A refusal is marked with a symbol and the word "refused" as well as colour. A short
message shows in at most three lines; a longer one (``help escape``) makes the line
taller, up to a third of the screen, so it reads in fewer presses. What is still longer
ends its last line with "↓ more" and the key that pages it (ctrl+down, a page of the
visible height; the mouse wheel scrolls a line), so nothing is cut without a sign of it
nor out of the keyboard's reach.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.widgets import Static

from stockade.tui.bindings import key_of
from stockade.tui.widgets.laid_out_once import LaidOutOnce
from stockade.tui.widgets.reply_rows import row_lines

if TYPE_CHECKING:
    from stockade.core.commands.verbs_control import HelpRow

KINDS = {"ok": "✓ ", "refusal": "✗ refused: ", "hint": "» ", "info": ""}
ROWS = 3  # a short message's most lines
TALL_SHARE = 3  # a long message's line grows up to this fraction of the screen (1/3)
MORE = " ↓ more ({key})"


class StatusLine(LaidOutOnce, Static):
    DEFAULT_CSS = """
    StatusLine { height: auto; padding: 0 1; background: $panel; }
    StatusLine.-refusal { background: $error 25%; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("", **kwargs)
        self.kind = "info"
        self.message = ""
        self._text = Text()
        self._top = 0  # the first wrapped line shown
        self._rows = ROWS  # the lines shown now: ROWS, or more for a long message
        # the message's wrapped lines, for (its text, the width, the rows): measuring the
        # height and rendering read the same lines, wrapped once
        self._wrapped: tuple[Text, int, int, list[Text]] | None = None
        self._table: list[HelpRow] = []  # the message as the core's rows, if a table
        self._lead = ""  # the mark of the kind ("✓ ") that begins the message
        self._width = 0  # the text's width, as the last layout gave it (0: not laid out)

    def say(self, message: str, kind: str = "info", rows: tuple[HelpRow, ...] = ()) -> None:
        """``message``; laid out as ``rows`` (the core's table of it) where it is one."""
        self.kind, self.message = kind, message
        self._table = list(rows)
        self.set_class(kind == "refusal", "-refusal")
        styles = self.app.theme_variables
        colour = {
            "ok": styles.get("success", ""),
            "refusal": styles.get("error", ""),
            "hint": styles.get("accent", ""),
        }.get(kind, "")
        text = Text(no_wrap=False)
        self._lead = KINDS.get(kind, "")
        text.append(self._lead, style=f"bold {colour}")
        text.append(message)
        self._text, self._top = text, 0
        self._rows = ROWS
        long = len(self.wrapped_lines()) > ROWS
        self._rows = max(ROWS, self.app.size.height // TALL_SHARE) if long else ROWS
        self.styles.max_height = self._rows
        self.update(text)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """The height of the lines shown at ``width``, the text's width in the layout
        that asks: the message is wrapped at it, not at the widget's region, which
        Textual only knows by laying the whole screen out (again) while it lays it out."""
        self._width = width
        return super().get_content_height(container, viewport, width)

    def _text_width(self) -> int:
        """The width the message wraps at: the layout's, or the screen's before one."""
        return self._width or max(1, self.app.size.width - 2)

    def fits(self, message: str, kind: str = "hint") -> bool:
        """Whether ``message`` shows whole in the three lines (no "↓ more")."""
        width = self._text_width()
        text = Text(KINDS.get(kind, "") + message)
        return len(text.wrap(self.app.console, width)) <= ROWS

    def pages(self) -> int:
        """How many of the lines shown the message takes: the presses it reads in."""
        return -(-len(self.wrapped_lines()) // self._rows)

    def _more(self) -> str:
        return MORE.format(key=key_of(self.app, "stockade.reply_more"))

    def wrapped_lines(self) -> list[Text]:
        """The message's lines: at the full width when it fits in the three rows; else
        narrower by the "↓ more" mark, so that the marks ("↑ " first, "↓ more" last)
        sit beside a line and never cut a word of it."""
        width = self._text_width()
        held = self._wrapped
        if held is not None and held[0] is self._text and held[1:3] == (width, self._rows):
            return held[3]
        lines = self._lines_at(width)
        if len(lines) > self._rows:
            lines = self._lines_at(max(1, width - len(self._more())))
        self._wrapped = (self._text, width, self._rows, lines)
        return lines

    def _lines_at(self, width: int) -> list[Text]:
        if self._table:
            return row_lines(self._table, self.app.console, width, self._text[: len(self._lead)])
        return list(self._text.wrap(self.app.console, width))

    def render(self) -> Text:
        lines, rows = self.wrapped_lines(), self._rows
        if len(lines) <= rows:
            return Text("\n").join(lines) if self._table else self._text
        self._top = max(0, min(self._top, len(lines) - rows))
        shown = [line.copy() for line in lines[self._top : self._top + rows]]
        if self._top > 0:
            # a table's line keeps its column: the mark takes the place of its indent
            first = shown[0][2:] if self._table and shown[0].plain.startswith("  ") else shown[0]
            shown[0] = Text("↑ ", style="bold").append_text(first)
        if self._top + rows < len(lines):
            last = shown[-1]
            last.rstrip()
            last.append(self._more(), style="bold reverse")
        return Text("\n").join(shown)

    def scroll_lines(self, step: int) -> None:
        """Show the message ``step`` wrapped lines further down (up, if negative)."""
        last_top = max(0, len(self.wrapped_lines()) - self._rows)
        self._top = max(0, min(self._top + step, last_top))
        self.refresh()

    def scroll_pages(self, step: int) -> None:
        """Show the message ``step`` pages further down: a key turns a whole page of the
        lines shown, the wheel one line, so a long help reads in a few presses."""
        self.scroll_lines(step * self._rows)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self.scroll_lines(1)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self.scroll_lines(-1)
