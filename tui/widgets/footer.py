"""The key footer, laid out again only when the keys it shows changed.

Textual's ``Footer`` recomposes all its key widgets after every bindings refresh (a
focus change, an action's ``check_action`` result possibly changing, a theme or keymap
change), once per signal: at start-up that was 26 recomposes. This one waits for the
next refresh (coalescing the signals), then compares the keys it would show with the
ones it shows, and hands on to ``Footer`` (its public ``bindings_changed``) only when
they differ. When only which keys are enabled changed (an undo makes redo possible),
the keys stay and each is dimmed or not in place: a recompose there was most of the
cost of an undo (~20 ms of ~35). No private name of Textual's widgets is read or set.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
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


_LIVE_KEYS: dict[type, type[Any]] = {}


def _live_key_class(base: type[Widget]) -> type[Any]:
    """``Footer``'s key class, told enabled or not by its ``-disabled`` class alone.

    Textual's key keeps its enabled state in a private attribute set once, when it is
    made, and a click reads that; this subclass reads the class, which the footer sets
    in place when only the enabled states change. Made from the key's own class
    (Textual exports no name for it), once."""
    live = _LIVE_KEYS.get(base)
    if live is None:

        class LiveFooterKey(base):  # type: ignore[valid-type,misc]  # a class known at run time
            def on_mouse_down(self, event: events.MouseDown) -> None:
                event.prevent_default()  # instead of the key's own handler, not as well
                if self.has_class("-disabled"):
                    self.app.bell()
                else:
                    self.app.simulate_key(self.key)

        live = _LIVE_KEYS[base] = LiveFooterKey
    return live


def _live(key: Widget) -> Widget:
    """``key`` made again as a ``LiveFooterKey``, with the same key, words and classes."""
    disabled = key.has_class("-disabled")
    live: Widget = _live_key_class(type(key))(
        key.key,  # type: ignore[attr-defined]  # FooterKey's public attributes
        key.key_display,  # type: ignore[attr-defined]
        key.description,  # type: ignore[attr-defined]
        key.action,  # type: ignore[attr-defined]
        disabled=disabled,
        tooltip=key.tooltip or "",
        classes=" ".join(sorted(key.classes - {"-disabled"})),
    )
    if "-command-palette" not in key.classes:  # Footer binds the others' compact style
        live.data_bind(compact=Footer.compact)
    return live


def _registry_order(key: Widget) -> int:
    """Where the key's action stands in ``tui.bindings`` (the palette's key last)."""
    from stockade.tui.bindings import KEYS

    action = _action_of(key)
    if action == "command_palette":
        return len(KEYS)
    return next((n for n, k in enumerate(KEYS) if k.action == action), len(KEYS))


class StockadeFooter(Footer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pending = False
        self._layout: tuple[_Shown, ...] | None = None
        self._enabled: dict[str, bool] = {}
        self.recomposes = 0  # how many times the keys were laid out (tests read it)
        self.restyles = 0  # how many times only their enabled states changed (the same)

    def compose(self) -> ComposeResult:
        # A compact footer's keys are made compact from the start (the data binding
        # would add the class after mounting: one restyle per key at every layout).
        # Keys come in the registry's order: a remapped key keeps its place.
        widgets = list(super().compose())
        keys = sorted((_live(w) for w in widgets if _action_of(w) is not None), key=_registry_order)
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

    def bindings_changed(self, screen: Screen[Any]) -> None:
        if self.is_attached and screen is self.screen and not self._pending:
            self._pending = True
            self.call_after_refresh(self._update_keys)

    def _update_keys(self) -> None:
        self._pending = False
        if not self.is_attached:
            return
        layout, enabled = self._keys()
        if layout == self._layout and enabled == self._enabled:
            return
        if layout == self._layout:  # the same keys: dim or undim them in place
            self._enabled = enabled
            self.restyles += 1
            for key in self.walk_children(Widget):
                action = _action_of(key)
                if action is not None:
                    key.set_class(not enabled.get(action, True), "-disabled")
            return
        self._layout, self._enabled = layout, enabled
        self.recomposes += 1
        super().bindings_changed(self.screen)  # Footer's own: lays the keys out again
        if not self.app.app_focus:
            # Footer's own lays nothing out while the app is blurred (a browser tab in
            # the background when the main screen comes up, after the frame): the
            # keys are laid out all the same, not left blank until a focus.
            self.call_after_refresh(self.recompose)
