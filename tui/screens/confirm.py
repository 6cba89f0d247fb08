"""A yes/no question, optionally with a line of text (a strike's reason)."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from stockade.tui.plain import markup_safe, plain


class ConfirmScreen(ModalScreen[str | None]):
    """Dismisses with the typed text ("" when no input) on yes, None on no."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical { width: 76; max-width: 100%; height: auto; max-height: 100%;
                               border: thick $warning; background: $surface; padding: 0 1; }
    ConfirmScreen Input { padding: 0 1; background: $boost; }
    ConfirmScreen #confirm-keys { color: $text-muted; margin-top: 1; }
    """
    BINDINGS = [
        Binding("y", "yes", "Yes", id="stockade.confirm_yes"),
        Binding("n,escape", "no", "No", id="stockade.confirm_no"),
    ]

    def __init__(self, title: str, body: Text | str, ask: str = "") -> None:
        super().__init__()
        self.title_text, self.body, self.ask = title, body, ask

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = markup_safe(self.title_text)
            body = plain(self.body) if isinstance(self.body, str) else self.body
            yield Static(body, id="confirm-body")
            if self.ask:
                yield Input(placeholder=self.ask, id="confirm-input", compact=True)
            keys = "enter: confirm · esc: cancel" if self.ask else "y: yes · n/esc: no"
            yield Static(keys, id="confirm-keys")

    def on_mount(self) -> None:
        if self.ask:
            self.query_one(Input).focus()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip())

    def action_yes(self) -> None:
        self.dismiss(self.query_one(Input).value.strip() if self.ask else "")

    def action_no(self) -> None:
        self.dismiss(None)
