"""The forms menu (``f``): every guided form, each with its own letter."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from stockade.tui.bindings import bindings as key_bindings
from stockade.tui.bindings import hint

LINE = 64  # an option's width in the 70-column box: one line each


class FormMenu(ModalScreen[str | None]):
    DEFAULT_CSS = """
    FormMenu { align: center middle; }
    FormMenu > Vertical { width: 70; max-width: 100%; height: auto; max-height: 100%;
                          border: thick $primary; background: $surface; }
    FormMenu OptionList, FormMenu OptionList:focus { height: auto; max-height: 16;
                                                     border: none; }
    FormMenu #menu-summary { height: auto; max-height: 3; padding: 0 1; }
    FormMenu #menu-keys { color: $text-muted; padding: 0 1; }
    """
    BINDINGS = key_bindings("menu")

    def compose(self) -> ComposeResult:
        from stockade.tui.forms import all_specs

        self.specs = all_specs()
        with Vertical() as box:
            box.border_title = "Guided forms"
            options = []
            for spec in self.specs:
                # One line each, so all of them fit at 80x24; the highlighted one's
                # summary is shown in full below the list.
                prompt = Text.assemble(
                    (f"{spec.key} ", "bold"), (spec.title, "bold"), (f"  {spec.summary}", "dim")
                )
                prompt.truncate(LINE, overflow="ellipsis")
                options.append(Option(prompt, id=spec.name))
            yield OptionList(*options, id="menu")
            yield Static(id="menu-summary")
            close = hint(self.app, ("stockade.menu_close", "close"))
            yield Static(f"letter or enter: open · ↑↓ or j/k: move · {close}", id="menu-keys")

    @on(OptionList.OptionHighlighted)
    def _summary(self, event: OptionList.OptionHighlighted) -> None:
        spec = next((s for s in self.specs if s.name == event.option.id), None)
        self.query_one("#menu-summary", Static).update(spec.summary if spec else "")

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
