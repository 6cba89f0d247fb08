"""User-supplied strings on screen as plain text, never markup.

Scenario names, Locations, handles, counters, side names, notes and refusals can
come from a log an opponent sent. Textual reads a ``str`` given to ``Static``,
``border_title``, ``notify`` or a Rich table cell as markup, so ``[link=file:///etc]``
in a name would become a live link and ``[on red]`` a style. Everything from a game
reaches the screen through ``plain`` (a Rich ``Text``: no markup at all) or, where
Textual only takes a string, ``markup_safe`` (markup-escaped). Both also show control
characters as ``\\x1b`` instead of sending them to the terminal.
"""

from __future__ import annotations

from rich.text import Text
from textual.markup import escape

from stockade.core.model.visible import visible


def plain(text: str, style: str = "") -> Text:
    """``text`` as a Rich Text: shown exactly as written, control characters visible."""
    return Text(visible(text), style=style)


def markup_safe(text: str) -> str:
    """``text`` for a place that parses markup (a border title): escaped, visible."""
    return escape(visible(text))
