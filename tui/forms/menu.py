"""The forms menu (``f``): every guided form, each with its own letter."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option


class FormMenu(ModalScreen[str | None]):
    DEFAULT_CSS = """
    FormMenu { align: center middle; }
    FormMenu > Vertical { width: 70; max-width: 100%; height: auto; max-height: 100%;
                          border: thick $primary; background: $surface; }
    FormMenu OptionList, FormMenu OptionList:focus {
        height: auto; max-height: 20; border: none; padding: 0;
    }
    FormMenu #menu-keys { color: $text-muted; padding: 0 1; }
    """
    BINDINGS = [
        Binding("escape", "dismiss_menu", "Close", id="stockade.menu_close"),
        Binding("j", "down", "Down", show=False, id="stockade.menu_down"),
        Binding("k", "up", "Up", show=False, id="stockade.menu_up"),
    ]

    def compose(self) -> ComposeResult:
        from stockade.tui.forms import all_specs

        self.specs = all_specs()
        with Vertical() as box:
            box.border_title = "Guided forms"
            options = []
            for spec in self.specs:
                # One line a form, so the whole menu fits at 80x24.
                room = max(0, 62 - len(spec.title))
                summary = (
                    spec.summary if len(spec.summary) <= room else spec.summary[: room - 1] + "…"
                )
                prompt = Text.assemble(
                    (f"{spec.key} ", "bold"), (spec.title, "bold"), (f"  {summary}", "dim")
                )
                options.append(Option(prompt, id=spec.name))
            yield OptionList(*options, id="menu")
            yield Static("letter or enter: open · j/k or arrows: move · esc: close", id="menu-keys")

    def on_key(self, event: Key) -> None:
        for spec in self.specs:
            if event.character and event.character == spec.key and spec.key not in "jk":
                event.stop()
                self.dismiss(spec.name)
                return

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_down(self) -> None:
        self.query_one(OptionList).action_cursor_down()

    def action_up(self) -> None:
        self.query_one(OptionList).action_cursor_up()

    def action_dismiss_menu(self) -> None:
        self.dismiss(None)
