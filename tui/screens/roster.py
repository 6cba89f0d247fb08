"""The roster screen (every unit, one key away) and the unit picker the forms open.

Both show the ``Roster`` widget over the core's ``roster(state)``; the picker adds the
core's verdict per unit (``core.reads.queries``), legal first, the others greyed with their
reason on focus.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from stockade.core.reads.queries import Choice
from stockade.core.reads.roster import roster
from stockade.tui.bindings import bindings as key_bindings
from stockade.tui.bindings import key_of
from stockade.tui.plain import markup_safe
from stockade.tui.table_app import table_app
from stockade.tui.widgets.roster import Roster, items_for

ROSTER_CSS = """
{cls} {{ align: center middle; }}
{cls} > Vertical {{
    width: 80; max-width: 100%; height: auto; max-height: 100%;
    border: thick $primary; background: $surface; padding: 0 1;
}}
{cls} #roster-keys {{ color: $text-muted; height: 1; }}
"""


class RosterScreen(ModalScreen[None]):
    """Every unit of both sides: handle, side, kind, counter, Location, status."""

    DEFAULT_CSS = ROSTER_CSS.format(cls="RosterScreen")
    BINDINGS = key_bindings("roster")

    def compose(self) -> ComposeResult:
        state = table_app(self).game.state
        with Vertical() as box:
            box.border_title = markup_safe(f"Roster · {state.scenario or 'this game'}")
            yield Roster(items_for(roster(state)), id="roster")
            close = key_of(self.app, "stockade.roster_close")
            yield Static(
                f"type: filter · ↑↓ pgup/pgdn: move · backspace: unfilter · {close}: close",
                id="roster-keys",
            )

    def action_close(self) -> None:
        self.dismiss(None)


class PickScreen(ModalScreen[list[str] | None]):
    """Pick one unit (or several) from the roster, as the core ranks them."""

    DEFAULT_CSS = ROSTER_CSS.format(cls="PickScreen")
    BINDINGS = key_bindings("pick")

    def __init__(
        self, title: str, choices: list[Choice], multi: bool = False, ticked: Sequence[str] = ()
    ) -> None:
        super().__init__()
        self.title_text = title
        self.choices = choices
        self.multi = multi
        self.ticked = list(ticked)

    def compose(self) -> ComposeResult:
        state = table_app(self).game.state
        with Vertical() as box:
            box.border_title = self.title_text
            yield Roster(
                items_for(roster(state), self.choices),
                multi=self.multi,
                picking=True,
                ticked=self.ticked,
                id="roster",
            )
            keys = "space: tick · *: all · enter: done" if self.multi else "enter: pick"
            cancel = key_of(self.app, "stockade.pick_cancel")
            yield Static(f"type: filter · ↑↓: move · {keys} · {cancel}: cancel", id="roster-keys")

    @on(Roster.Picked)
    def _picked(self, event: Roster.Picked) -> None:
        # Once: a second enter read with the first picks again before this screen is
        # gone, and a second dismiss would close whatever screen is on top by then
        # (the next list the form opened, or the form itself).
        if self.is_active:
            self.dismiss(event.handles)

    def action_close(self) -> None:
        self.dismiss(None)
