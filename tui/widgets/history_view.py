"""The event history: one numbered sentence per entry, marked by status.

Updated incrementally: ``sync`` appends new entries and rewrites only the lines whose
status changed (an undo marks a line, it never rebuilds the list). Status is shown by a
word and a symbol, never by colour alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.binding import Binding
from textual.widgets import OptionList
from textual.widgets.option_list import Option

MARKS = {
    "ok": ("  ", ""),
    "undone": ("↶ ", "undone"),
    "abandoned": ("⑂ ", "abandoned branch"),
    "struck": ("✗ ", "struck"),
    "conflict": ("⚠ ", "CONFLICT"),
}
STYLES = {"ok": "", "undone": "dim italic", "abandoned": "dim italic", "struck": "dim strike",
          "conflict": "bold"}


@dataclass(frozen=True)
class Line:
    seq: int
    status: str
    text: str
    reason: str = ""


def line_prompt(line: Line, error_style: str = "") -> Text:
    mark, word = MARKS.get(line.status, ("? ", line.status))
    out = Text(no_wrap=False)
    out.append(f"{line.seq:>3} ", style="dim")
    out.append(mark, style=error_style if line.status == "conflict" else "")
    out.append(line.text, style=STYLES.get(line.status, ""))
    if word:
        out.append(f"  [{word}", style="bold " + (error_style if line.status == "conflict" else ""))
        out.append(f": {line.reason}]" if line.reason else "]", style="italic")
    return out


class HistoryView(OptionList):
    """The numbered history. Arrows and j/k move; the option id is the entry's seq."""

    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False, id="stockade.list_down"),
        Binding("k", "cursor_up", "Up", show=False, id="stockade.list_up"),
    ]

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._entries: dict[int, Line] = {}
        self._order: list[int] = []
        self.rebuilds = 0  # how many lines were rewritten in place (tests read it)

    def sync(self, lines: list[Line], follow: bool = True) -> None:
        """Bring the list up to ``lines``: append new ones, rewrite changed ones."""
        error = self.app.theme_variables.get("error", "")
        new: list[Option] = []
        for line in lines:
            old = self._entries.get(line.seq)
            if old is None:
                self._entries[line.seq] = line
                self._order.append(line.seq)
                new.append(Option(line_prompt(line, error), id=str(line.seq)))
            elif old != line:
                self._entries[line.seq] = line
                self.replace_option_prompt(str(line.seq), line_prompt(line, error))
                self.rebuilds += 1
        if new:
            self.add_options(new)
        if follow and (new or self.highlighted is None) and self.option_count:
            self.highlighted = self.option_count - 1

    @property
    def selected_seq(self) -> int | None:
        if self.highlighted is None or not self.option_count:
            return None
        option = self.get_option_at_index(self.highlighted)
        return int(option.id) if option.id else None

    def select_seq(self, seq: int) -> None:
        if str(seq) in {str(s) for s in self._order}:
            self.highlighted = self.get_option_index(str(seq))

    def line(self, seq: int) -> Line | None:
        return self._entries.get(seq)
