"""Help (f1 / ?): every key with its binding id (for the config file), and the verbs."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.events import Click
from textual.screen import ModalScreen
from textual.widgets import Static

from stockade.tui.bindings import bindings as key_bindings
from stockade.tui.bindings import hint, key_of


def _titled_table(title: str, first: tuple[str, int], second: str) -> Table:
    """A borderless table under a bold title: a bold first column of ``first``'s
    width that never wraps, and a second that takes the rest of the row."""
    table = Table(
        title=Text(title, style="bold"),
        title_justify="left",
        expand=True,
        show_edge=False,
        pad_edge=False,
        show_header=False,
        box=None,
    )
    name, width = first
    table.add_column(name, no_wrap=True, style="bold", width=width)
    table.add_column(second, ratio=1)
    return table


def keys_tables(app: App[Any]) -> list[Table]:
    """Every key, one table per place it works, as bound now (after the player's
    keymap), with the id to remap it by: all read from ``tui.bindings``."""
    from stockade.tui.bindings import SCOPES, in_scope, keys_of

    tables = []
    for scope, title in SCOPES.items():
        table = _titled_table(title, ("key", 12), "does")
        table.add_column("id", style="dim", no_wrap=True)
        for key in in_scope(scope):
            table.add_row(Text(" ".join(keys_of(app, key.id))), key.does, key.id)
        if scope == "main":
            table.add_row("tab", "next panel (shift+tab: back); arrows move in lists", "")
        tables.append(table)
    return tables


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


def legend_tables() -> list[Table]:
    """What each mark and short word on the screen means, one table per part of the
    screen: all read from the core's glossary (``core.reads.glossary.LEGEND``)."""
    from stockade.core.reads.glossary import LEGEND

    tables = []
    for where, signs in LEGEND:
        table = _titled_table(f"on the {where}", ("mark", 10), "means")
        for sign in signs:
            table.add_row(Text(sign.mark), Text(sign.means))
        tables.append(table)
    return tables


def rulings_block() -> Group:
    """Where the rules are silent, what Stockade decided (core/data/rulings.toml): each
    topic on a line of its own and its ruling below it, so a long topic never squeezes
    the ruling into a narrow column at 80 columns."""
    from stockade.core.reads.rulings import rulings

    parts: list[RenderableType] = [
        Text("Stockade's rulings where the rules are silent (docs/rulings.md)", style="italic")
    ]
    for ruling in rulings():
        parts.append(Text(f"{ruling.topic} ({ruling.rule})", style="bold"))
        parts.append(Padding(Text(ruling.ruling), (0, 0, 0, 2)))
    return Group(*parts)


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 90%; height: 90%; border: thick $primary;
                                  background: $surface; padding: 0 1; }
    """
    BINDINGS = key_bindings("help")

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body") as body:
            body.border_title = "Stockade help"
            body.border_subtitle = hint(self.app, ("stockade.help_close", "close"))
            yield Static(
                Text(
                    "Stockade keeps the book on A20 Prisoners. Keys move the "
                    f"clock and the history; {key_of(self.app, 'stockade.forms')} opens a "
                    f"guided form; {key_of(self.app, 'stockade.command')} takes a "
                    "command. A refusal by the rules names its rule; a slip in what was "
                    "typed (a handle, a side) says what it was.",
                    style="italic",
                )
            )
            yield Static(
                Text(
                    "Marks on the screen (in the bar: help and the mark, help ⑂)",
                    style="bold underline",
                )
            )
            for table in legend_tables():
                yield Static(table)
            yield Static(
                Text(
                    "Keys (remap them in config.toml, table [keys], by id)",
                    style="bold underline",
                )
            )
            for table in keys_tables(self.app):
                yield Static(table)
            yield Static(verbs_table())
            yield Static(rulings_block())

    def action_close(self) -> None:
        self.dismiss(None)

    def on_click(self, event: Click) -> None:
        """A tap outside the page closes it: a tablet (stockade serve) has no Esc key."""
        if event.widget is self:
            self.dismiss(None)

    def action_scroll(self, where: str) -> None:
        body = self.query_one(VerticalScroll)
        # at once: a burst of j's each scrolls a line (Textual's own waits for a refresh)
        body.scroll_down(immediate=True) if where == "down" else body.scroll_up(immediate=True)
