"""A small Textual app that hosts the camp screen on its own (``stockade camp``)."""

from __future__ import annotations

from textual.app import App

from stockade.core.camp.campaign import Campaign
from stockade.tui.camp.screen import CampScreen


class CampApp(App[int]):
    TITLE = "Stockade: the camp"
    ENABLE_COMMAND_PALETTE = False  # every command has its own key on the footer

    def __init__(self, campaign: Campaign):
        super().__init__()
        self.campaign = campaign

    def on_mount(self) -> None:
        self.push_screen(CampScreen(self.campaign), self._done)

    def _done(self, code: int | None) -> None:
        self.exit(code or 0)
