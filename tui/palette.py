"""The command palette (ctrl+p): every action (from the binding registry, with its key as
bound now), every guided form, every theme, the POW camp."""

from __future__ import annotations

from functools import partial
from typing import Any

from textual.app import App
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.types import IgnoreReturnCallbackType

# A palette entry: its title, what choosing it does, and its help line.
Command = tuple[str, IgnoreReturnCallbackType, str]


class StockadeCommands(Provider):
    """Stockade's actions, forms and themes for the command palette."""

    def _commands(self) -> list[Command]:
        from stockade.tui.bindings import KEYS, keys_of
        from stockade.tui.forms import all_specs
        from stockade.tui.screens.main import MainScreen

        app = self.app
        main = next((s for s in app.screen_stack if isinstance(s, MainScreen)), None)
        out: list[Command] = []
        if main is not None:
            for key in KEYS:
                if key.palette and key.scope == "main":
                    shown = " ".join(keys_of(app, key.id))
                    out.append((key.palette, partial(main.run_action, key.action), f"key {shown}"))
            for spec in all_specs():
                out.append(
                    (f"Form: {spec.title}", partial(main.action_form, spec.name), spec.summary)
                )
        out.append(
            (
                "POW camp: the Lone Warrior #138 solitaire game",
                partial(open_camp, app),
                "one month a turn until escape, liberation or death (campaign in the data dir)",
            )
        )
        for theme in getattr(app, "stockade_themes", []):
            out.append(
                (
                    f"Theme: {theme.name}",
                    partial(setattr, app, "theme", theme.name),
                    "switch theme (remembered in the config file)",
                )
            )
        return out

    async def discover(self) -> Hits:
        for title, callback, help_text in self._commands():
            yield DiscoveryHit(title, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, callback, help_text in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback, help=help_text)


def open_camp(app: App[Any]) -> None:
    """Push the camp screen over the main app; its campaign lives in the data dir."""
    from stockade.tui.camp import open_campaign
    from stockade.tui.camp.screen import CampScreen

    try:
        campaign = open_campaign(None, {})
    except Exception as exc:  # a damaged campaign log must not take the book down
        app.notify(f"camp: {exc}", severity="error", markup=False)
        return
    app.push_screen(CampScreen(campaign), lambda _result: campaign.close())
