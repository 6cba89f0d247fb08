"""A small Textual app that hosts the camp screen on its own (``stockade camp``)."""

from __future__ import annotations

from stockade.core.camp.campaign import Campaign
from stockade.tui.camp.screen import CampScreen
from stockade.tui.escape_keys import EscapeThenKey


class CampApp(EscapeThenKey):
    TITLE = "Stockade: the camp"
    ENABLE_COMMAND_PALETTE = False  # every command has its own key on the footer

    def __init__(self, campaign: Campaign):
        super().__init__()
        self.campaign = campaign
        # the keymap applied (binding id -> keys): what hints read to name a key
        self.keys_in_force: dict[str, str] = {}

    def on_mount(self) -> None:
        # The player's [keys] apply here as in the main app (same ids, same file).
        from stockade.tui.bindings import ids
        from stockade.tui.config import check_keymap, load_config

        config, _problems = load_config()
        keys, _unknown = check_keymap(config.keys, ids())
        if keys:
            self.set_keymap(keys)
            self.keys_in_force = dict(keys)
        self.push_screen(CampScreen(self.campaign), self._done)

    def _done(self, code: int | None) -> None:
        self.exit(code or 0)
