"""The key footer, laid out again only when the keys it shows changed.

Textual's ``Footer`` recomposes all its key widgets after every bindings refresh (a
focus change, an action's ``check_action`` result possibly changing, a theme or keymap
change), once per signal: at start-up that was 26 recomposes. This one waits for the
next refresh (coalescing the signals), then compares the keys it would show, and
whether each is enabled, with the ones it shows, and hands on to ``Footer`` (its
public ``bindings_changed``) only when they differ. No private name of Textual's
widgets is read or set.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Footer

# One shown key: (binding, tooltip, key display), or ("palette", binding, tooltip, key
# display) for the command palette's. Only compared with the last layout, never read.
_Shown = tuple[Binding | str, ...]


def _action_of(widget: Widget) -> str | None:
    """The action of one of ``Footer``'s key widgets (its public ``action``), else None.

    Textual exports no name for that widget class: it is told by what it carries."""
    action = getattr(widget, "action", None)
    return action if isinstance(action, str) and hasattr(widget, "key_display") else None


def _registry_order(key: Widget) -> int:
    """Where the key's action stands in ``tui.bindings`` (the palette's key last)."""
    from stockade.tui.bindings import KEYS

    action = _action_of(key)
    if action == "command_palette":
        return len(KEYS)
    return next((n for n, k in enumerate(KEYS) if k.action == action), len(KEYS))


class StockadeFooter(Footer):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._pending = False
        self._layout: tuple[_Shown, ...] | None = None
        self._enabled: dict[str, bool] = {}
        self.recomposes = 0  # how many times the keys were laid out (tests read it)

    def compose(self):
        # A compact footer's keys are made compact from the start (the data binding
        # would add the class after mounting: one restyle per key at every layout).
        # Keys come in the registry's order: a remapped key keeps its place.
        widgets = list(super().compose())
        keys = sorted((w for w in widgets if _action_of(w) is not None), key=_registry_order)
        for widget in widgets:
            if _action_of(widget) is not None:
                widget = keys.pop(0)
                if self.compact:
                    widget.set_class(True, "-compact", update=False)
            yield widget

    def _keys(self) -> tuple[tuple[_Shown, ...], dict[str, bool]]:
        """What ``Footer.compose`` lays out, and which action's key is enabled."""
        app = self.app
        bindings = self.screen.active_bindings
        layout: list[_Shown] = []
        enabled: dict[str, bool] = {}
        for _, binding, on, tooltip in bindings.values():
            if binding.show:
                layout.append((binding, tooltip, app.get_key_display(binding)))
                enabled.setdefault(binding.action, on)
        if self.show_command_palette and app.ENABLE_COMMAND_PALETTE:
            found = bindings.get(app.COMMAND_PALETTE_BINDING)
            if found is not None:
                _, binding, on, tooltip = found
                layout.append(("palette", binding, tooltip, app.get_key_display(binding)))
                enabled.setdefault(binding.action, on)
        return tuple(layout), enabled

    def bindings_changed(self, screen) -> None:
        if self.is_attached and screen is self.screen and not self._pending:
            self._pending = True
            self.call_after_refresh(self._update_keys)

    def _update_keys(self) -> None:
        self._pending = False
        if not self.is_attached or not self.app.app_focus:
            return  # Footer lays nothing out then either: asked again on focus
        layout, enabled = self._keys()
        if layout == self._layout and enabled == self._enabled:
            return
        self._layout, self._enabled = layout, enabled
        self.recomposes += 1
        super().bindings_changed(self.screen)  # Footer's own: lays the keys out again
