"""The roster screen: every unit, one key away, in the ``Roster`` widget over the core's
``roster(state)`` (the forms' unit picker, tui/forms/pick_screen.py, shows the same
widget with the core's verdict per unit)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from stockade.core.reads.roster import roster
from stockade.tui.bindings import bindings as key_bindings
from stockade.tui.bindings import key_of
from stockade.tui.plain import markup_safe
from stockade.tui.table_app import table_app
from stockade.tui.widgets.roster import ROSTER_CSS, Roster, items_for


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
