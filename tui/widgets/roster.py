"""The roster: every unit of both sides, filterable by typing; also THE unit picker.

Rows come from the core (``core.reads.roster.roster`` for what each unit is, and for a picker
``core.reads.queries`` for whether it may be picked, with the rule and reason). The widget
only shows them: legal rows first as the core ranked them, the others greyed; below
the list, the highlighted row whole where its columns cut it ("unarmed, abandon…")
and its reason, each wrapped under its own words.

Keys: type to filter (handle, counter, kind, hex, side or status word), backspace to
unfilter, up/down/pgup/pgdn to move; in a picker enter picks, and in a multi-pick
space ticks (enter with nothing ticked takes the highlighted row). A picking key typed
before the list was drawn picks nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.events import Key, Show
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from stockade.core.model.plural import counted
from stockade.core.reads.queries import Choice
from stockade.core.reads.roster import RosterRow
from stockade.tui.plain import plain

# The layout of a modal that shows the roster: the roster screen and the forms' picker.
ROSTER_CSS = """
{cls} {{ align: center middle; }}
{cls} > Vertical {{
    width: 80; max-width: 100%; height: auto; max-height: 100%;
    border: thick $primary; background: $surface; padding: 0 1;
}}
{cls} #roster-keys {{ color: $text-muted; height: 1; }}
"""


@dataclass(frozen=True)
class RosterItem:
    row: RosterRow
    legal: bool = True
    why: str = ""  # the rule and reason it may not be picked, shown on focus
    note: str = ""  # a legal pick's caveat (over capacity: free or exchange the excess)
    implies: bool = False  # legal with a board fact the entry records (``Choice.implies``)


# The keys that pick or tick in a picker (enter, space, *): never from a list not yet drawn.
PICK_KEYS = ("enter", "space", "asterisk")

# The columns before and after the counter: handle 5, side 10, kind 7 | Location 6.
_FIXED = 5 + 10 + 7 + 6
COUNTER_MIN, COUNTER_MAX = 24, 48


def row_text(row: RosterRow, width: int = 80, status_room: int = 18) -> str:
    """``a1   American  squad  6-6-6   Q5    Good Order``, fitted to ``width``.

    The counter column takes what the status column (``status_room`` wide) leaves, so
    "(1)-0-6 [was 4-6-7 squad]" is not cut where the line has room for it."""
    return fitted(row, width, status_room)[0]


def fitted(row: RosterRow, width: int = 80, status_room: int = 18) -> tuple[str, bool]:
    """``row_text``, and whether it cut anything of the row ("…")."""
    room = max(COUNTER_MIN, min(COUNTER_MAX, width - _FIXED - status_room - 1))
    cut = len(row.counter) > room or len(row.side) > 9
    counter = row.counter if len(row.counter) <= room else row.counter[: room - 1] + "…"
    text = (
        f"{row.handle:<5}{row.side[:9]:<10}{row.kind:<7}{counter:<{room + 1}}"
        f"{row.location:<6}{row.status}"
    )
    return (text, cut) if len(text) <= width else (text[: width - 1] + "…", True)


def items_for(rows: list[RosterRow], choices: list[Choice] | None = None) -> list[RosterItem]:
    """Roster rows as items: all of them, or those a picker offers, in the core's order."""
    if choices is None:
        return [RosterItem(r) for r in rows]
    by_handle = {r.handle: r for r in rows}
    return [
        RosterItem(
            by_handle[c.handle],
            c.legal,
            c.why,
            f"{c.rule}: {c.note}" if c.note else "",
            bool(c.implies),
        )
        for c in choices
        if c.handle in by_handle
    ]


def _hanging(lines: list[tuple[str, str]]) -> Table:
    """Each line's mark in a column of its own and its words beside it: a wrapped line
    goes on under its words, never under the mark (reasons name units: plain text)."""
    grid = Table.grid()
    grid.add_column(no_wrap=True)
    grid.add_column(ratio=1)
    for mark, said in lines:
        grid.add_row(mark, plain(said))
    return grid


class Roster(Vertical, can_focus=False):
    """The filter line, the rows and the highlighted row's reason."""

    DEFAULT_CSS = """
    Roster { height: auto; max-height: 100%; }
    Roster #roster-filter { height: 1; color: $text-muted; }
    Roster > OptionList, Roster > OptionList:focus {
        height: auto; max-height: 1fr; border: none; padding: 0; background: $surface;
    }
    Roster #roster-why { height: auto; color: $text-muted; }
    """

    class Picked(Message):
        def __init__(self, handles: list[str]) -> None:
            super().__init__()
            self.handles = handles

    def __init__(
        self,
        items: list[RosterItem],
        multi: bool = False,
        picking: bool = False,
        ticked: list[str] | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.items = items
        self.multi = multi
        self.picking = picking
        self.ticked: list[str] = list(ticked or [])
        self.filter = ""
        self._shown: list[RosterItem] = []
        self._cut: set[str] = set()  # the handles whose rows the columns cut ("…")
        self.drawn_at = math.inf  # when it was last drawn (``Message.time``)

    def compose(self) -> ComposeResult:
        yield Static(id="roster-filter")
        yield OptionList(id="roster-rows")
        yield Static(id="roster-why")

    def on_mount(self) -> None:
        self._fill()
        self.rows.focus()

    @property
    def rows(self) -> OptionList:
        return self.query_one("#roster-rows", OptionList)

    def _fill(self) -> None:
        shown = [i for i in self.items if i.row.matches(self.filter)]
        self._shown = shown
        width = max(20, (self.size.width or 76) - 4)
        status_room = max((len(i.row.status) for i in shown), default=10)
        # Every row gets the same lead (tick box, then ✗ or blank), so the columns of
        # legal and greyed rows line up.
        flags = any(not i.legal for i in shown)
        options = []
        self._cut = set()
        for item in shown:
            mark = ""
            if self.multi:
                mark = "✓ " if item.row.handle in self.ticked else "  "
            style = "" if item.legal else "dim"
            lead = mark + (("  " if item.legal else "✗ ") if flags else "")
            text, cut = fitted(item.row, width - len(lead), status_room)
            if cut:
                self._cut.add(item.row.handle)
            options.append(Option(plain(lead + text, style=style), id=item.row.handle))
        rows = self.rows
        highlighted = rows.highlighted
        rows.set_options(options)
        if options:
            rows.highlighted = min(highlighted or 0, len(options) - 1)
        legal = sum(1 for i in shown if i.legal)
        what = "type to filter: handle, counter, hex, status"
        self.query_one("#roster-filter", Static).update(
            Text.assemble(
                ("filter: ", "dim"),
                (self.filter or "", "bold"),
                ("▏", "bold"),
                (f"   {len(shown)} of {counted(len(self.items), 'unit')}", "dim"),
                (f", {legal} may be picked" if self.picking else "", "dim"),
                ("" if self.filter or self.picking else f" · {what}", "dim"),
            )
        )
        self._explain()

    def _explain(self) -> None:
        item = self.highlighted_item
        lines: list[tuple[str, str]] = []
        if item is None:
            if self.filter:
                lines.append(("", "no unit matches; backspace to widen the filter"))
        else:
            if item.row.handle in self._cut:  # the row whole, under the verdict's words
                lines.append(("  ", item.row.whole))
            lines.append(self._verdict(item))
        lines = [line for line in lines if line[1]]
        # nothing to say keeps its empty line: the list does not jump as the cursor moves
        self.query_one("#roster-why", Static).update(_hanging(lines) if lines else plain(""))

    def _verdict(self, item: RosterItem) -> tuple[str, str]:
        """The highlighted row's verdict: its mark, and its words."""
        if item.why:
            return "✗ ", item.why
        if self.picking and item.note:
            return "✓ ", f"may be picked; {item.note}"
        if self.picking:
            return "✓ ", "may be picked" + (f" · {len(self.ticked)} ticked" if self.multi else "")
        return "", ""

    @property
    def highlighted_item(self) -> RosterItem | None:
        index = self.rows.highlighted
        if index is None or not 0 <= index < len(self._shown):
            return None
        return self._shown[index]

    @on(OptionList.OptionHighlighted)
    def _highlighted(self) -> None:
        self._explain()

    def on_show(self, event: Show) -> None:
        self.drawn_at = event.time

    def on_key(self, event: Key) -> None:
        if self.picking and event.key in PICK_KEYS and event.time < self.drawn_at:
            # Typed before the list was drawn (an enter meant for the field before,
            # typed ahead of a list that opens by itself): it never picks from it.
            # Letters typed ahead still filter it.
            event.stop()
            event.prevent_default()
            return
        if event.character == " " and self.multi:
            self.action_tick()
        elif event.character == "*" and self.multi:
            self.action_tick_all()
        elif event.key == "backspace":
            self.filter = self.filter[:-1]
        elif event.key == "ctrl+u":
            self.filter = ""
        elif event.character and event.character.isprintable():
            self.filter += event.character
        else:
            return
        event.stop()
        event.prevent_default()
        self._fill()

    def action_tick(self) -> None:
        item = self.highlighted_item
        if not self.multi or item is None:
            return  # (space then filters: "prisoner g2")
        handle = item.row.handle
        if handle in self.ticked:
            self.ticked.remove(handle)
        else:
            self.ticked.append(handle)
        index = self.rows.highlighted
        self._fill()
        self.rows.highlighted = index

    def action_tick_all(self) -> None:
        """Tick every unit shown that may be picked as the book stands (a whole stack:
        filter, then *); those legal only by a board fact the entry would imply, when
        no other is (as ``core.reads.queries.book_picks``)."""
        shown = [i for i in self._shown if i.legal]
        legal = [i.row.handle for i in [i for i in shown if not i.implies] or shown]
        for handle in legal:
            if handle not in self.ticked:
                self.ticked.append(handle)
        self._fill()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if not self.picking:
            return
        handle = str(event.option.id)
        if self.multi:
            picked = self.ticked or [handle]
        else:
            picked = [handle]
        self.post_message(self.Picked(picked))
