"""The event history: one numbered sentence per record, marked by status.

A window on the log, not a list of it: the panel has a row per record (row ``i`` is
entry ``i + 1``) but words only the rows in view, reading each record from the game
when it comes into view (a long log's records are re-read from the file by offset,
``core.log.records``), and keeps the words of a few screens' worth. A game of 700,000
records costs the panel what a game of 30 does. The highlighted entry is shown whole
(wrapped over as many rows as it needs); every other row is one line, cut with "…".

Updated from the core's ``Change``: every write returns one, the app publishes it as a
``GameUpdate`` (``tui.table_app``) that the view watches, and it words again only the
lines the change names that it holds (an undo marks its group's lines; it never
recomputes the whole history or compares records). Status is shown by a word and a
symbol, never by colour alone. Undo / redo / strike records have their own lines ("41 ·
undo of entry 40"), as in ``stockade history``, so the numbers run without a gap and the
player sees why an entry reads undone or abandoned.

It reads like the side record: a phase change is a dim heading between the entries
("── 12 Turn 2, German RtPh"), not an entry line; ↑/↓ step over the entries only, and
typing an entry's number goes to it. An amended entry reads as amended (its new
sentence, "amended by entry M"); one that holds in part says which part it lost.

An entry that never folded in this process (undone, abandoned or struck before the log
was opened) is worded from a replay of the log (``core.book.names_replay``), which takes a
whole fold of it: the view never runs that on the event loop. Such an entry shows a
muted "reading the log…" until a worker thread has built the replay, then its
sentence, which never changes again; every other entry is worded at once.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import partial
from typing import Any, ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.containers import ScrollableContainer
from textual.geometry import Region, Size, Spacing
from textual.layout import DockArrangeResult
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget
from textual.worker import Worker, WorkerState

from stockade.core.book.change import Change
from stockade.core.book.game import Game
from stockade.core.model import events as ev
from stockade.tui.bindings import bindings as key_bindings
from stockade.tui.table_app import GameUpdate, table_app, watch_game
from stockade.tui.widgets.history_lines import (
    PENDING,
    Line,
    all_lines,
    entry_line,
    hanging_indent,
    line_prompt,
    lines_for_change,
    refolded_from,
    touched,
)
from stockade.tui.widgets.history_rows import row_strip, wrapped_entry
from stockade.tui.widgets.laid_out_once import LaidOutOnce

__all__ = ["PENDING", "HistoryView", "Line", "all_lines", "line_prompt", "lines_for_change"]

NUMBER_PAUSE = 1.0  # seconds: digits typed further apart start a new entry number
KEPT_SCREENS = 4  # the words of this many screens' worth of rows are kept


class HistoryView(LaidOutOnce, ScrollableContainer, can_focus=True):
    """The numbered history. Arrows and j/k move over the entries; ``highlighted`` is
    the row of the entry selected (its seq less one).

    A scroll container with no child that draws its own rows, as the side panels do
    (``tui.widgets.side_panel``): Textual asks a container to arrange itself inside
    the layout, where the list learns its width and settles its scrollbar; a long
    history laid out as a ``ScrollView`` showed its scrollbar only after its first
    layout, which laid the whole screen out and painted it again."""

    ALLOW_MAXIMIZE = True

    BINDINGS = key_bindings("list")
    COMPONENT_CLASSES: ClassVar[set[str]] = {"history-view--cursor"}

    highlighted: reactive[int | None] = reactive(None, init=False)

    class Highlighted(Message):
        """Another entry was selected (by a key, a click or the program)."""

        def __init__(self, view: HistoryView, seq: int) -> None:
            super().__init__()
            self.view = view
            self.seq = seq

        @property
        def control(self) -> HistoryView:
            return self.view

    def __init__(self, follow_changes: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.follow_changes = follow_changes  # the main view follows; replay does not
        self._game: Game | None = None
        # game.records when last filled (recover() replaces it)
        self._records: Sequence[ev.Record] | None = None
        self._seen = 0  # records taken into account: the rows
        self._worded: dict[int, tuple[Line, Text]] = {}  # seq -> its line, as shown
        self._reading: tuple[Game, Worker[Any]] | None = None  # (game, its names worker)
        self._cursor_rows = 1  # rows the highlighted entry takes, wrapped
        self._laid_width = 0  # the rows' width the last layout gave (0: not laid out)
        # the highlighted entry's wrapped lines: ((row, width, style), its text, lines)
        self._cursor_held: tuple[tuple[int, int, Style], Text, list[list[Segment]]] | None = None
        self.rebuilds = 0  # how many lines held were worded again (tests read it)
        self._number = ""  # the entry number being typed
        self._number_at = 0.0  # when its last digit was typed

    # ------------------------------------------------------------ the game
    def sync_game(self, game: Game, follow: bool = True) -> None:
        """Show ``game``'s whole history (first fill, or another game, or re-read)."""
        self._game, self._records, self._seen = game, game.records, len(game.records)
        self._worded.clear()
        if game.needs_names_then():  # some entry's names are to be read from the log
            self._read_names(game)
        self._grown(follow, new=True)

    def apply_change(self, game: Game, change: Change, follow: bool | None = None) -> None:
        """Word again the lines ``change`` names that are held. A change that does not
        follow what the list shows (another game, a log re-read) refills it instead."""
        follow = self.follow_changes if follow is None else follow
        first = change.appended[0] if change.appended else self._seen + 1
        current = game is self._game and game.records is self._records
        if current and change.appended and change.appended[-1] <= self._seen:
            return  # a full fill already showed it
        if not current or first != self._seen + 1:
            self.sync_game(game, follow)
            return
        self._seen += len(change.appended)
        refolded = refolded_from(change)
        again = touched(game, change) | {s for s in self._worded if refolded and s >= refolded}
        for seq in sorted(again & self._worded.keys()):
            old = self._worded.pop(seq)[0]
            if self._word(seq)[0] != old:
                self.rebuilds += 1
        self._grown(follow, new=bool(change.appended))

    def shows(self, game: Game) -> bool:
        """Is the list up to date with ``game`` (as far as changes were reported)?"""
        records = self._records
        return game is self._game and game.records is records and len(records or ()) == self._seen

    @property
    def line_count(self) -> int:
        """The rows of the list: one per record."""
        return self._seen

    @property
    def last_seq(self) -> int:
        return self._seen

    def line(self, seq: int) -> Line | None:
        """Entry ``seq``'s line as the list words it (read from the game if not held)."""
        if not 0 < seq <= self._seen:
            return None
        return self._word(seq)[0]

    def prompt(self, seq: int) -> Text | None:
        """Entry ``seq``'s line as it is shown, styled."""
        if not 0 < seq <= self._seen:
            return None
        return self._word(seq)[1]

    def _word(self, seq: int) -> tuple[Line, Text]:
        """Entry ``seq``'s line, kept while it is near the rows in view."""
        held = self._worded.get(seq)
        if held is not None:
            return held
        game, records = self._game, self._records
        assert game is not None and records is not None
        line = entry_line(game, records[seq - 1])
        worded = (line, line_prompt(line, self.app.theme_variables.get("error", "")))
        self._worded[seq] = worded
        if line.pending:
            self._read_names(game)
        return worded

    def _grown(self, follow: bool, new: bool) -> None:
        """After a fill or a change: the rows, the followed entry, a repaint."""
        self._forget_far()
        if follow and (new or self.highlighted is None) and self._seen:
            self._select(self._last_entry())
            self.call_after_refresh(self._follow_end)
        elif self.highlighted is not None and self.highlighted >= self._seen:
            self._select(self._last_entry() if self._seen else None)
        else:
            self._measure()
            if follow and self.highlighted is not None:
                # a rewritten line (an undo marks the newest entry): keep it in view
                self.call_after_refresh(self._keep_in_view)
        self.refresh()

    def _forget_far(self) -> None:
        """Keep the words of the rows near the view only: the list's memory is the
        window's, whatever the length of the log."""
        keep = KEPT_SCREENS * max(self.size.height, 8)
        if len(self._worded) <= keep:
            return
        top = self.scroll_offset.y
        near = range(top - keep // 2, top + keep // 2)
        cursor = (self.highlighted or 0) + 1
        for seq in [s for s in self._worded if s - 1 not in near and s != cursor]:
            del self._worded[seq]

    # ------------------------------------------ names of never-folded entries
    def _read_names(self, game: Game) -> None:
        """Build the log's replay (``Game.names_then``) in a thread, then word the
        PENDING lines again. Another view asking meanwhile (the replay screen) waits for
        the same build: the core lets one caller build it."""
        if self._reading is not None and self._reading[0] is game:
            return
        worker = self.run_worker(
            partial(game.names_then), thread=True, name="names-then", exit_on_error=False
        )
        self._reading = (game, worker)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if self._reading is None or worker is not self._reading[1]:
            return  # not this view's, or read for a game it no longer shows
        if event.state not in (WorkerState.SUCCESS, WorkerState.ERROR):
            return
        event.stop()
        game, _ = self._reading
        if game is not self._game or game.records is not self._records:
            self._reading = None
            return  # another game, or the log re-read: its refill asks again
        pending = [s for s, (line, _) in self._worded.items() if line.pending]
        if event.state == WorkerState.ERROR:  # the replay failed: say so, once
            # (kept as the reader of this game: the lines say why, no new build)
            self.log.error(f"reading the history's names failed: {worker.error!r}")
            text = f"(could not read this entry's names from the log: {worker.error})"
            error = self.app.theme_variables.get("error", "")
            for s in pending:
                old = self._worded[s][0]
                line = Line(s, old.status, text, old.reason, heading=old.heading)
                self._worded[s] = (line, line_prompt(line, error))
        else:
            self._reading = None
            for s in pending:
                del self._worded[s]
        self._measure()
        self.refresh()

    # ------------------------------------------------------------ the rows
    def _is_heading(self, row: int) -> bool:
        records = self._records
        return records is not None and isinstance(records[row], ev.PhaseSet)

    def _last_entry(self) -> int:
        """The row of the last line that is an entry (not a phase heading)."""
        for row in range(self._seen - 1, -1, -1):
            if not self._is_heading(row):
                return row
        return self._seen - 1

    def _row_at(self, y: int) -> tuple[int, int]:
        """The row at line ``y`` of the list, and which of its lines (the highlighted
        entry takes ``_cursor_rows`` lines, every other one line)."""
        cursor, tall = self.highlighted, self._cursor_rows
        if cursor is None or y < cursor:
            return y, 0
        if y < cursor + tall:
            return cursor, y - cursor
        return y - tall + 1, 0

    def _y_of(self, row: int) -> int:
        cursor = self.highlighted
        return row if cursor is None or row <= cursor else row + self._cursor_rows - 1

    def _width(self) -> int:
        return max(1, self._laid_width or self.scrollable_content_region.width)

    def _rows_tall(self, width: int) -> tuple[int, int]:
        """The list's height at ``width``: a line per row, the highlighted entry's
        wrapped lines; and how many lines that entry takes."""
        cursor = self.highlighted
        tall = 1
        if cursor is not None and 0 <= cursor < self._seen and width > 0:
            tall = len(self._cursor_lines(cursor, width))
        return self._seen + tall - 1, tall

    def _measure(self) -> None:
        """The list's size: asks for a layout when it changed (the layout sets it)."""
        if not self._laid_width:
            self.refresh(layout=True)  # not laid out yet: the first layout sizes it
            return
        height, self._cursor_rows = self._rows_tall(self._width())
        if height != self.virtual_size.height:
            self.refresh(layout=True)

    def arrange(self, size: Size, optimal: bool = False) -> DockArrangeResult:
        """The rows at ``size``'s width, or, when they overflow and the scrollbar is
        not shown yet, at the width the scrollbar leaves them; the list places no
        widget: its rows are the room to scroll (the arrangement's scroll spacing),
        which sets its virtual height, as ``SidePanelView.arrange`` does and for the
        same reason (the scrollbar decided in the layout that gives the width, not in
        a second layout of the screen)."""
        width = size.width
        height, tall = self._rows_tall(width)
        gutter = self.styles.scrollbar_size_vertical
        room = width + (gutter if self.show_vertical_scrollbar else 0)
        if (
            height > size.height
            and gutter
            and not self.show_vertical_scrollbar
            and self.styles.overflow_y == "auto"
        ):
            self.set_reactive(Widget.show_vertical_scrollbar, True)
            width -= gutter
            height, tall = self._rows_tall(width)
        self._laid_width, self._cursor_rows = max(1, width), tall
        # One column wide plus the scrollbar's: the rows are cut to the width they are
        # drawn at (no horizontal scrolling).
        return DockArrangeResult([], set(), Spacing(0, room, height, 0))

    def _cursor_lines(self, row: int, width: int | None = None) -> list[list[Segment]]:
        """The highlighted entry whole: its sentence wrapped under itself, the number
        and the mark on its first line only (a hanging indent)."""
        console = self.app.console
        style = self.get_component_rich_style("history-view--cursor")
        width = self._width() if width is None else width
        line, text = self._word(row + 1)
        held = self._cursor_held
        if held is not None and held[0] == (row, width, style) and held[1] is text:
            return held[2]  # measured, laid out and painted from the same lines
        whole = wrapped_entry(console, text, hanging_indent(line), width, style)
        self._cursor_held = ((row, width, style), text, whole)
        return whole

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self._width()
        row, part = self._row_at(y + scroll_y)
        if self._records is None or row >= self._seen:
            return Strip.blank(width, self.rich_style)
        if row == self.highlighted:
            lines = self._cursor_lines(row)
            segments = lines[part] if part < len(lines) else []
            return Strip(segments, width).crop(scroll_x, scroll_x + width)
        line = row_strip(self.app.console, self._word(row + 1)[1], width, self.rich_style)
        return line.crop(scroll_x, scroll_x + width)

    # ------------------------------------------------------------ selection
    def _select(self, row: int | None) -> None:
        self.highlighted = row
        self._measure()

    def watch_highlighted(self, row: int | None) -> None:
        self._measure()
        self._keep_in_view()
        self._forget_far()
        self.refresh()
        if row is not None and 0 <= row < self._seen:
            self.post_message(self.Highlighted(self, row + 1))

    def _keep_in_view(self) -> None:
        row = self.highlighted
        if row is not None:
            region = Region(0, self._y_of(row), self._width(), self._cursor_rows)
            self.scroll_to_region(region, animate=False, force=True, immediate=True)

    def _follow_end(self) -> None:
        """The newest entry followed: the end in view (a heading below it too), unless
        another entry was selected meanwhile (replay opens on the one it was asked)."""
        if self.highlighted == self._last_entry():
            self.scroll_end(animate=False, immediate=True)
        else:
            self._keep_in_view()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if round(old_value) != round(new_value):
            self.refresh()  # other rows in view (the list draws them, no child moves)

    def on_resize(self) -> None:
        # A new width re-wraps the highlighted entry: once laid out again, it must
        # still be in view, at any size, after any resize.
        self._measure()
        self.call_after_refresh(self._keep_in_view)

    @property
    def selected_seq(self) -> int | None:
        row = self.highlighted
        return row + 1 if row is not None and 0 <= row < self._seen else None

    def select_seq(self, seq: int) -> None:
        if 0 < seq <= self._seen:
            self.highlighted = seq - 1

    def go_to_entry(self, seq: int) -> bool:
        """Highlight entry ``seq``; a phase heading's number goes to the first entry
        under it. False when there is none."""
        for row in range(max(seq, 1) - 1, self._seen):
            if not self._is_heading(row):
                self.highlighted = row
                return True
        return False

    def _step(self, start: int, step: int) -> None:
        """To the first entry from ``start`` on in the direction of ``step``."""
        row = start
        while 0 <= row < self._seen:
            if not self._is_heading(row):
                self.highlighted = row
                return
            row += step

    def action_cursor_down(self) -> None:
        row = self.highlighted
        self._step(0 if row is None else row + 1, 1)

    def action_cursor_up(self) -> None:
        row = self.highlighted
        self._step(self._seen - 1 if row is None else row - 1, -1)

    def action_first(self) -> None:
        self._step(0, 1)

    def action_last(self) -> None:
        self._step(self._seen - 1, -1)

    def action_page_down(self) -> None:
        row = self.highlighted or 0
        target = row + max(1, self.scrollable_content_region.height - 1)
        if target < self._last_entry():
            self._step(target, 1)
        else:
            self.action_last()

    def action_page_up(self) -> None:
        row = self.highlighted or 0
        target = row - max(1, self.scrollable_content_region.height - 1)
        if target > 0:
            self._step(target, -1)
        else:
            self.action_first()

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        row, _ = self._row_at(offset.y + self.scroll_offset.y)
        if row < self._seen and not self._is_heading(row):
            self.highlighted = row

    def on_key(self, event: events.Key) -> None:
        """Typing a number goes to that entry: digits typed within ``NUMBER_PAUSE`` of
        each other make one number, unless it would be past the last entry (then the
        digit starts a new one)."""
        digit = event.character
        if digit is None or not digit.isdigit():
            return
        now = time.monotonic()
        number = "" if now - self._number_at > NUMBER_PAUSE else self._number
        number += digit
        if self._seen and int(number) > self._seen:
            number = digit
        self._number, self._number_at = number, now
        event.stop()
        self.go_to_entry(int(number))

    # ------------------------------------------------------------ following
    def on_mount(self) -> None:
        if self.follow_changes:  # the main view; replay's is told by its screen
            watch_game(self, self._game_updated)

    def _game_updated(self, update: GameUpdate) -> None:
        game = table_app(self).game
        if update.change is not None:
            self.apply_change(game, update.change)
        elif not self.shows(game):
            self.sync_game(game)
