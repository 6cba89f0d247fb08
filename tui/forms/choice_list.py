"""A form's list field: its words shown inside the form, one behaviour for every list.

Arrows move within the list, a letter picks the next word starting with it (and stays
in the list), enter confirms the highlighted word and the form moves on. The pick is
marked ● (the others ○), so it reads without colour.
"""

from __future__ import annotations

import math

from rich.text import Text
from textual import on
from textual.events import Focus, Key, Show
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from stockade.tui.forms.picker import UnitPicker
from stockade.tui.plain import plain

PICKED, NOT_PICKED = "● ", "○ "


class ChoiceList(OptionList):
    """One word of a few (``value`` is "" until one is picked)."""

    class Changed(Message):
        def __init__(self, choice: ChoiceList) -> None:
            super().__init__()
            self.choice = choice

    def __init__(self, options: list[tuple[str, str]], value: str = "", id: str = "") -> None:
        self.labels = [(label, word) for label, word in options]
        self._value = value if value in {w for _l, w in self.labels} else ""
        self.drawn_at = math.inf  # when it was last drawn (``Message.time``)
        super().__init__(*[self._option(label, word) for label, word in self.labels], id=id)

    def _option(self, label: str, word: str) -> Option:
        mark = PICKED if word == self._value else NOT_PICKED
        return Option(Text.assemble(mark, plain(label)), id=word)

    @property
    def value(self) -> str:
        return self._value

    @value.setter
    def value(self, word: str) -> None:
        word = word if word in {w for _l, w in self.labels} else ""
        if word == self._value:
            return
        self._value = word
        for label, option_word in self.labels:
            self.replace_option_prompt(option_word, self._option(label, option_word).prompt)
        if word:
            self.highlighted = self.get_option_index(word)
        self.post_message(self.Changed(self))

    def on_mount(self) -> None:
        if self._value:
            self.highlighted = self.get_option_index(self._value)

    def on_focus(self, event: Focus) -> None:
        if self.highlighted is None and self.option_count:
            self.highlighted = self.get_option_index(self._value) if self._value else 0

    @on(Show)
    def _drawn(self, event: Show) -> None:  # beside OptionList's own on_show
        self.drawn_at = event.time

    def on_key(self, event: Key) -> None:
        """A letter picks the next word that starts with it, and stays in the list; a
        key typed before the list was drawn (it appears when another field asks for
        it) picks nothing."""
        if event.time < self.drawn_at:
            event.stop()
            event.prevent_default()
            return
        char = event.character
        if not char or not char.isalnum():
            return
        hits = [w for label, w in self.labels if label.lower().startswith(char.lower())]
        if not hits:
            return
        event.stop()
        event.prevent_default()
        now = hits.index(self._value) if self._value in hits else -1
        self.value = hits[(now + 1) % len(hits)]

    @on(OptionList.OptionSelected)
    def _confirmed(self, event: OptionList.OptionSelected) -> None:
        """Enter (or a click) on a word: it is the pick, and the form moves on."""
        event.stop()
        self.value = event.option.id or ""
        self.post_message(UnitPicker.Done(self))
