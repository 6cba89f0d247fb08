"""A scrollable page of text from the core (e.g. ``help A20.55``: a section of the A20
conformance matrix; ``help``: the verbs, as the core's rows), too long for the status
line. The page keys, j/k and the arrows scroll it; Esc closes it: its border says so,
from the keys' declarations (``tui.bindings``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from stockade.tui.bindings import bindings as key_bindings
from stockade.tui.bindings import hint
from stockade.tui.widgets.rows_page import RowsPage

if TYPE_CHECKING:
    from stockade.core.commands.verbs_control import HelpRow


class TextScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > VerticalScroll { width: 90%; height: 90%; border: thick $primary;
                                  background: $surface; padding: 0 1; }
    """
    BINDINGS = key_bindings("text")

    def __init__(self, title: str, text: str, rows: tuple[HelpRow, ...] = ()) -> None:
        """``rows``: the text as the core's rows (laid out at the page's width)."""
        super().__init__()
        self._title, self._text, self._rows = title, text, rows

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="text-body") as body:
            body.border_title = self._title
            body.border_subtitle = hint(
                self.app,
                (("stockade.text_page_down", "stockade.text_page_up"), "page"),
                (("stockade.text_down", "stockade.text_up"), "line"),
                ("stockade.text_close", "close"),
            )
            if self._rows:
                yield RowsPage(self._rows, id="text-page")
            else:
                yield Static(Text(self._text), id="text-page")

    def action_close(self) -> None:
        self.dismiss(None)

    def action_page(self, where: str) -> None:
        body = self.query_one("#text-body", VerticalScroll)
        body.scroll_page_down() if where == "down" else body.scroll_page_up()

    def action_scroll(self, where: str) -> None:
        body = self.query_one("#text-body", VerticalScroll)
        # at once: a burst of j's each scrolls a line (Textual's own waits for a refresh)
        body.scroll_down(immediate=True) if where == "down" else body.scroll_up(immediate=True)
