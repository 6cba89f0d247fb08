"""A reply that is the core's rows (``help``: a verb and what it does), laid out at the
page's width as the status line lays them out: a wrapped line goes on under its own
text. For a page of its own (``TextScreen``), read with the page keys."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from stockade.tui.widgets.reply_rows import row_lines

if TYPE_CHECKING:
    from stockade.core.commands.verbs_control import HelpRow


class RowsPage(Widget):
    DEFAULT_CSS = "RowsPage { height: auto; }"

    def __init__(self, rows: tuple[HelpRow, ...], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rows = list(rows)

    def lines(self, width: int) -> list[Text]:
        return row_lines(self.rows, self.app.console, max(1, width))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines(width))

    def render(self) -> Text:
        return Text("\n").join(self.lines(self.content_size.width))
