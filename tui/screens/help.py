"""Help (f1 / ?): every key with its binding id (for the config file), and the verbs."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


def keys_table(app) -> Table:
    from stockade.tui.forms.base import FormScreen
    from stockade.tui.forms.menu import FormMenu
    from stockade.tui.screens.confirm import ConfirmScreen
    from stockade.tui.screens.main import MainScreen
    from stockade.tui.screens.replay import ReplayScreen
    from stockade.tui.screens.tally import TallyScreen
    from stockade.tui.widgets.command_bar import CommandInput

    keymap = getattr(app, "_keymap", {})
    table = Table(
        title=Text("Keys (remap them in config.toml, table [keys])"),
        expand=True,
        show_edge=False,
        pad_edge=False,
    )
    table.add_column("key", no_wrap=True, style="bold")
    table.add_column("does")
    table.add_column("id", style="dim", no_wrap=True)
    sections = [
        ("main screen", [*MainScreen.BINDINGS, *app.BINDINGS]),
        ("history and replay (h)", ReplayScreen.BINDINGS),
        ("tally (v)", TallyScreen.BINDINGS),
        ("forms (f, then a letter)", [*FormMenu.BINDINGS, *FormScreen.BINDINGS]),
        ("command bar (:)", CommandInput.BINDINGS),
        ("questions", ConfirmScreen.BINDINGS),
    ]
    for title, bindings in sections:
        table.add_row(Text(title, style="bold underline"), "", "")
        for b in bindings:
            if not isinstance(b, Binding):
                continue
            keys = keymap.get(b.id, b.key) if b.id else b.key
            keys = keys.replace("question_mark", "?").replace("colon", ":")
            table.add_row(Text(keys), b.description, b.id or "")
    table.add_row(Text("j/k, arrows"), "move in lists and panels", "")
    table.add_row(Text("tab"), "next panel; in the command bar: take the completion", "")
    return table


def verbs_table() -> Table:
    from stockade.core.commands import VERBS

    table = Table(
        title="Commands (type : then a command)", expand=True, show_edge=False, pad_edge=False
    )
    table.add_column("usage", style="bold")
    table.add_column("does")
    for spec in VERBS.values():
        table.add_row(spec.usage, f"{spec.summary}\n[dim]e.g. {spec.example}[/]")
    return table


def rulings_table() -> Table:
    """Where the rules are silent, what Stockade decided (core/data/rulings.toml)."""
    from stockade.core.rulings import rulings

    table = Table(
        title="Stockade's rulings where the rules are silent (docs/rulings.md)",
        title_justify="left",
        show_header=False,
        box=None,
        expand=True,
    )
    table.add_column(style="bold", no_wrap=True)
    table.add_column(ratio=1)
    for ruling in rulings():
        table.add_row(f"{ruling.topic} ({ruling.rule})", ruling.ruling)
    return table


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 90%; height: 90%; border: thick $primary;
                                  background: $surface; padding: 0 1; }
    """
    BINDINGS = [
        Binding("escape,q,f1,question_mark", "close", "Close", id="stockade.help_close"),
        Binding("j", "scroll('down')", "Down", show=False, id="stockade.help_down"),
        Binding("k", "scroll('up')", "Up", show=False, id="stockade.help_up"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body") as body:
            body.border_title = "Stockade help"
            body.border_subtitle = "esc: close"
            yield Static(
                Text(
                    "Stockade keeps the book on A20 Prisoners. Keys move the "
                    "clock and the history; f opens a guided form; : takes a "
                    "command. Every refusal names its rule.",
                    style="italic",
                )
            )
            yield Static(keys_table(self.app))
            yield Static(verbs_table())
            yield Static(rulings_table())
        # the keys as buttons too: a tablet (stockade serve) has no Esc key
        from stockade.tui.widgets.footer import StockadeFooter

        yield StockadeFooter()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, where: str) -> None:
        body = self.query_one(VerticalScroll)
        body.scroll_down() if where == "down" else body.scroll_up()
