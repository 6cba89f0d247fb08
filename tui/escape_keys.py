"""Esc then a key, typed quickly: the terminal sends them as the bytes of Alt+key.

A terminal sends Alt+n as Esc followed by n, so Esc then n typed quickly reaches the app
as the same two bytes: tmux joins them when n follows within its ``escape-time`` (500 ms
by default), and Textual reads an Esc followed within ``ESCDELAY`` (100 ms by default)
by n as one key, alt+n. Stockade binds no Alt key: an Alt+key that no binding in force
takes is read as what the player typed, Esc and then the key (Esc leaves the command
bar, closes a list, cancels a form; the key is the board's, or the next screen's).

What Textual maps to a key of its own (Esc then ':' arrives as ':', Esc then Enter as
Enter) has lost its Esc before the app sees it: only a terminal speaking the kitty
keyboard protocol (Textual asks for it) tells those apart.
"""

from __future__ import annotations

from textual import events
from textual.app import App


def escape_then(event: events.Key) -> str | None:
    """The key typed after Esc when ``event`` is an Alt+key with a character, else None."""
    char = event.character
    if not event.key.startswith("alt+") or char is None or len(char) != 1:
        return None
    return char if char.isprintable() else None


class EscapeThenKey(App[int]):
    """An app that reads an unbound Alt+key as Esc, then the key, in the key's turn:
    Esc reaches the focused widget before the key, and both before any later key."""

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded:
            char = escape_then(event)
            if char is not None and event.key not in self.active_bindings:
                for key in (events.Key("escape", "\x1b"), events.Key(char, char)):
                    key.time = event.time  # when it was typed (a list shown later ignores it)
                    await super().on_event(key)
                return
        await super().on_event(event)
