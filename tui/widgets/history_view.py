"""The event history: one numbered sentence per entry, marked by status.

Updated from the core's ``Change``: every write returns one, the app publishes it as a
``GameUpdate`` (``tui.table_app``) that the view watches, and it rewrites exactly the lines it names
(an undo marks its group's lines; it never rebuilds the list, recomputes the whole
history or compares records). Status is shown by a word and a symbol, never by colour
alone. Undo / redo / strike records have their own lines ("41 · undo of entry 40"), as
in ``stockade history``, so the numbers run without a gap and the player sees why an
entry reads undone or abandoned.

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

import bisect
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from rich.text import Text
from textual import events
from textual.widgets import OptionList
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState

from stockade.core.book.change import Change
from stockade.core.book.describe import sentence, sentence_for
from stockade.core.book.game import Game
from stockade.core.model import events as ev
from stockade.tui.bindings import bindings as key_bindings
from stockade.tui.table_app import GameUpdate, table_app, watch_game

MARKS = {
    "ok": ("  ", ""),
    "undone": ("↶ ", "undone"),
    "abandoned": ("⑂ ", "abandoned branch"),
    "struck": ("✗ ", "struck"),
    "conflict": ("⚠ ", "CONFLICT"),
    "control": ("· ", ""),
}
STYLES = {
    "ok": "",
    "undone": "dim italic",
    "abandoned": "dim italic",
    "struck": "dim strike",
    "conflict": "bold",
    "control": "dim",
}


PENDING = "reading the log…"  # what a line says until its names are read (see above)
NUMBER_PAUSE = 1.0  # seconds: digits typed further apart start a new entry number


@dataclass(frozen=True)
class Line:
    seq: int
    status: str
    text: str
    reason: str = ""
    pending: bool = False  # the names of its units are still being read from the log
    heading: bool = False  # a phase change: a heading between the entries, not an entry
    amended_by: int = 0  # the amendment that mended it (its sentence is the amendment's)


def line_prompt(line: Line, error_style: str = "") -> Text:
    mark, word = MARKS.get(line.status, ("? ", line.status))
    out = Text(no_wrap=False)
    if line.heading:
        style = "dim strike" if line.status == "struck" else "dim"
        out.append(f"── {line.seq} {line.text}", style=style)
        if word:
            out.append(f"  [{word}{': ' + line.reason if line.reason else ''}]", style="dim italic")
        return out
    out.append(f"{line.seq:>3} ", style="dim")
    out.append(mark, style=error_style if line.status == "conflict" else "")
    out.append(line.text, style="dim italic" if line.pending else STYLES.get(line.status, ""))
    if word:
        out.append(f"  [{word}", style="bold " + (error_style if line.status == "conflict" else ""))
        out.append(f": {line.reason}]" if line.reason else "]", style="italic")
    elif line.reason:  # an entry in effect that holds in part (core/rules/partial.py)
        out.append(f"  [holds in part: {line.reason}]", style="italic")
    if line.amended_by:
        out.append(f"  [amended by entry {line.amended_by}]", style="italic")
    return out


def can_word(game: Game, seq: int) -> bool:
    """Can entry ``seq`` be worded now without replaying the log on this thread: it
    folded in this process (its names are kept), or the replay is built. An undo /
    redo / strike record names no unit: it is worded at once."""
    return seq in game.when or game.names_then_ready


def entry_line(game: Game, record: ev.Record) -> Line:
    status, reason = game.entry_status(record)
    seq = record.seq
    timeline = game.timeline
    amended_by = timeline.amendment_of(seq) if seq in timeline.amends else 0
    if status == "ok" and not reason:
        reason = game.projection.partial.get(seq, "")
    heading = isinstance(record, ev.PhaseSet)
    if not (ev.is_control(record) or can_word(game, seq)):
        return Line(seq, status, PENDING, reason, True, heading, amended_by)
    standing = timeline.standing(record)
    return Line(seq, status, sentence_for(standing, game), reason, False, heading, amended_by)


def all_lines(game: Game) -> list[Line]:
    """Every record's line (a first fill); the entries whose names are still to be
    read from the log say so (``PENDING``) instead."""
    return [
        Line(
            entry.seq,
            entry.status,
            sentence(entry, game),
            entry.reason,
            heading=isinstance(entry.record, ev.PhaseSet),
            amended_by=entry.amended_by,
        )
        if entry.status == "control" or can_word(game, entry.seq)
        else Line(
            entry.seq,
            entry.status,
            PENDING,
            entry.reason,
            pending=True,
            heading=isinstance(entry.record, ev.PhaseSet),
            amended_by=entry.amended_by,
        )
        for entry in game.iter_history(then=False)
    ]


def lines_for_change(game: Game, change: Change, shown: list[int]) -> list[Line]:
    """The lines ``change`` touched, read off the change (never by comparing records):
    the records it appended (undo / redo / strike records too); the entries it added,
    undid, struck, restored or left behind; the whole command groups of its undo /
    redo records; the entries whose conflict came or went; and
    after a strike or unstrike every shown entry from its target on (they were folded
    again: their Location words and conflicts may read otherwise). ``shown`` are the
    seqs on the list, ascending."""
    records = game.records
    seqs = {
        *change.appended,
        *change.added,
        *change.undone,
        *change.struck,
        *change.restored,
        *change.abandoned,
        *change.new_conflicts,
        *change.resolved_conflicts,
        *change.amended,
        *(later.seq for later in change.later),
    }
    groups = game.timeline.groups
    for s in change.appended:
        record = records[s - 1]
        if isinstance(record, (ev.Undo, ev.Redo)):
            seqs.update(r.seq for r in groups.get(record.target, ()))
            if record.target in game.timeline.replacements:  # an amendment's own line
                seqs.add(record.target)
    if change.action in ("strike", "unstrike") and change.target:
        seqs.update(shown[bisect.bisect_left(shown, change.target) :])
    if change.amended:  # folded again from the first entry it mended
        seqs.update(shown[bisect.bisect_left(shown, min(change.amended)) :])
    return [entry_line(game, records[s - 1]) for s in sorted(seqs) if 0 < s <= len(records)]


class HistoryView(OptionList):
    """The numbered history. Arrows and j/k move; the option id is the entry's seq."""

    BINDINGS = key_bindings("list")

    def __init__(self, follow_changes: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._entries: dict[int, Line] = {}
        self._index: dict[int, int] = {}  # seq -> option index
        self._order: list[int] = []  # the seqs shown, ascending
        self._game: Any = None
        self._records: Sequence[ev.Record] | None = (
            None  # game.records when last filled (recover() replaces it)
        )
        self._seen = 0  # records taken into account
        self.follow_changes = follow_changes  # the main view follows; replay does not
        self._pending: set[int] = set()  # seqs shown as PENDING
        self._reading: tuple[Any, Worker[Any]] | None = None  # (game, its names worker)
        self.rebuilds = 0  # how many lines were rewritten in place (tests read it)
        self._number = ""  # the entry number being typed
        self._number_at = 0.0  # when its last digit was typed

    def sync_game(self, game: Game, follow: bool = True) -> None:
        """Fill the list from the whole history (first fill, or another game)."""
        lines = all_lines(game)
        if self._entries and set(self._entries) - {line.seq for line in lines}:
            self._entries.clear()  # another game, or a log re-read shorter: refill
            self._pending.clear()
            self._index.clear()
            self._order.clear()
            self.clear_options()
        self._game, self._records, self._seen = game, game.records, len(game.records)
        self.sync(lines, follow)

    def apply_change(self, game: Game, change: Change, follow: bool | None = None) -> None:
        """Rewrite the lines ``change`` names. A change that does not follow what the
        list shows (another game, a log re-read) refills it instead."""
        follow = self.follow_changes if follow is None else follow
        first = change.appended[0] if change.appended else self._seen + 1
        current = game is self._game and game.records is self._records
        if current and change.appended and change.appended[-1] <= self._seen:
            return  # a full fill already showed it
        if not current or first != self._seen + 1:
            self.sync_game(game, follow)
            return
        self._seen += len(change.appended)
        self.sync(lines_for_change(game, change, self._order), follow)

    def shows(self, game: Game) -> bool:
        """Is the list up to date with ``game`` (as far as changes were reported)?"""
        records = self._records
        return game is self._game and game.records is records and len(records or ()) == self._seen

    def on_mount(self) -> None:
        super().on_mount()
        if self.follow_changes:  # the main view; replay's is told by its screen
            watch_game(self, self._game_updated)

    def _game_updated(self, update: GameUpdate) -> None:
        game = table_app(self).game
        if update.change is not None:
            self.apply_change(game, update.change)
        elif not self.shows(game):
            self.sync_game(game)

    def sync(self, lines: list[Line], follow: bool = True) -> None:
        """Take ``lines`` (some or all): append new ones, rewrite changed ones in place."""
        error = self.app.theme_variables.get("error", "")
        new: list[Option] = []
        for line in lines:
            old = self._entries.get(line.seq)
            if old is None:
                self._entries[line.seq] = line
                self._index[line.seq] = self.option_count + len(new)
                self._order.append(line.seq)
                prompt = line_prompt(line, error)
                new.append(Option(prompt, id=str(line.seq), disabled=line.heading))
            elif old != line:
                self._entries[line.seq] = line
                self._rewrite(self._index[line.seq], line_prompt(line, error))
                self.rebuilds += 1
            if line.pending:
                self._pending.add(line.seq)
            else:
                self._pending.discard(line.seq)
        if new:
            self.add_options(new)
        if follow and (new or self.highlighted is None) and self.option_count:
            self.highlighted = self._last_entry()
            self.call_after_refresh(self.scroll_end, animate=False)  # a heading below it
        elif follow and lines and self.highlighted is not None:
            # a rewritten line (an undo marks the newest entry): keep it in view
            self.call_after_refresh(self._keep_in_view)
        if self._pending and (self._reading is None or self._reading[0] is not self._game):
            self._read_names(self._game)

    # ------------------------------------------ names of never-folded entries
    def _read_names(self, game: Game) -> None:
        """Build the log's replay (``Game.names_then``) in a thread, then word the
        PENDING lines. Another view asking meanwhile (the replay screen) waits for the
        same build: the core lets one caller build it."""
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
        self._reading = None
        if game is not self._game or game.records is not self._records or not self._pending:
            return  # another game, or the log re-read: its refill asks again
        records = self._records or []  # game.records, as the check above found it
        if event.state == WorkerState.ERROR:  # the replay failed: say so, once
            self.log.error(f"reading the history's names failed: {worker.error!r}")
            text = f"(could not read this entry's names from the log: {worker.error})"
            lines = []
            for s in sorted(self._pending):
                status, reason = game.entry_status(records[s - 1])
                lines.append(Line(s, status, text, reason))
        else:
            lines = [entry_line(game, records[s - 1]) for s in sorted(self._pending)]
        self.sync(lines, follow=False)

    def _rewrite(self, index: int, prompt: Text) -> None:
        """Replace one option's prompt (Textual's own way: no OptionList internals)."""
        self.replace_option_prompt_at_index(index, prompt)

    def on_resize(self) -> None:
        # A new width re-wraps every line: once laid out again, the followed line
        # (the newest entry) must still be in view, at any size, after any resize.
        self.call_after_refresh(self._keep_in_view)

    def _keep_in_view(self) -> None:
        if self.highlighted is not None:
            self.scroll_to_highlight()

    @property
    def selected_seq(self) -> int | None:
        if self.highlighted is None or not self.option_count:
            return None
        option = self.get_option_at_index(self.highlighted)
        return int(option.id) if option.id else None

    def select_seq(self, seq: int) -> None:
        if seq in self._index:
            self.highlighted = self._index[seq]

    def _last_entry(self) -> int:
        """The index of the last line that is an entry (not a phase heading)."""
        for index in range(self.option_count - 1, -1, -1):
            if not self.get_option_at_index(index).disabled:
                return index
        return self.option_count - 1

    def go_to_entry(self, seq: int) -> bool:
        """Highlight entry ``seq``; a phase heading's number goes to the first entry
        under it. False when there is none."""
        order = self._order
        for s in order[bisect.bisect_left(order, seq) :]:
            index = self._index[s]
            if not self.get_option_at_index(index).disabled:
                self.highlighted = index
                return True
        return False

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
        if self._order and int(number) > self._order[-1]:
            number = digit
        self._number, self._number_at = number, now
        event.stop()
        self.go_to_entry(int(number))

    def line(self, seq: int) -> Line | None:
        return self._entries.get(seq)
