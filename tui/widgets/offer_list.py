"""The entries that may happen now, listed above the empty command bar.

The lines come from the core (``core.commands.offers``), each with the rule that
allows it; this widget only shows them and which one is picked (▸, not colour
alone). It never takes the focus: the bar's keys move the pick (↓ ↑) and fill the
bar with it (tab); a click fills the bar too.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.message import Message
from textual.message_pump import MessagePump
from textual.widgets import OptionList
from textual.widgets.option_list import Option


class OfferList(OptionList, can_focus=False):
    DEFAULT_CSS = """
    OfferList {
        display: none;
        height: auto;
        max-height: 5;
        border: none;
        padding: 0 1;
        background: $boost;
    }
    OfferList.-shown { display: block; }
    """

    class Picked(Message):
        """A line was clicked: the bar takes it."""

        def __init__(self, line: str) -> None:
            super().__init__()
            self.line = line

    def __init__(self, bar: MessagePump, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bar = bar  # told what was picked: the list sits beside it, not inside
        self.lines: list[tuple[str, str]] = []  # (line, rule)

    def show(self, lines: list[tuple[str, str]], shown: bool) -> None:
        """The entries to list, and whether to list them now."""
        if lines != self.lines:
            self.lines = lines
            self.set_options(self._prompt(i, 0) for i in range(len(lines)))
            self.highlighted = 0 if lines else None
        self.set_class(shown and bool(lines), "-shown")

    @property
    def shown(self) -> bool:
        return self.has_class("-shown")

    @property
    def picked(self) -> str:
        """The line picked now ("" when none)."""
        at = self.highlighted
        return self.lines[at][0] if self.shown and at is not None else ""

    def step(self, step: int) -> bool:
        """Pick the next (previous) line; False at either end, nothing moved."""
        at = self.highlighted
        if not self.shown or at is None or not 0 <= at + step < len(self.lines):
            return False
        self.highlighted = at + step
        return True

    def _prompt(self, index: int, highlighted: int | None) -> Option:
        line, rule = self.lines[index]
        mark = "▸ " if index == highlighted else "  "
        return Option(Text.assemble(mark, line, ("  " + rule, "dim")))

    def watch_highlighted(self, highlighted: int | None) -> None:
        super().watch_highlighted(highlighted)
        # (set_options moves the highlight while the options are being replaced)
        for index in range(min(self.option_count, len(self.lines))):
            self.replace_option_prompt_at_index(index, self._prompt(index, highlighted).prompt)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.bar.post_message(self.Picked(self.lines[event.option_index][0]))
