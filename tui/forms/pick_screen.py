"""The unit picker a form's unit field opens: the ``Roster`` widget over the core's
``roster(state)`` with the core's verdict per unit (``core.reads.queries``), legal first,
the others greyed with their reason on focus."""

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
from stockade.tui.table_app import table_app
from stockade.tui.widgets.roster import ROSTER_CSS, Roster, items_for


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
