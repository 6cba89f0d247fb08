"""The event history: one numbered sentence per entry, marked by status.

Updated incrementally: ``sync_game`` asks a ``HistoryTracker`` which entries an undo,
redo, strike or new entry touched, appends the new ones and rewrites only the lines
that changed (an undo marks its group's lines, it never rebuilds the list nor
recomputes the whole history). Status is shown by a word and a symbol, never by colour
alone.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

import msgspec
from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from stockade.core import events as ev
from stockade.core.describe import sentence_for
from stockade.tui.bindings import bindings as key_bindings

MARKS = {
    "ok": ("  ", ""),
    "undone": ("↶ ", "undone"),
    "abandoned": ("⑂ ", "abandoned branch"),
    "struck": ("✗ ", "struck"),
    "conflict": ("⚠ ", "CONFLICT"),
}
STYLES = {
    "ok": "",
    "undone": "dim italic",
    "abandoned": "dim italic",
    "struck": "dim strike",
    "conflict": "bold",
}


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


class HistoryTracker:
    """Which history lines a change to the game touched, without walking the game.

    A line (``Line``) is one domain entry: its status (ok / undone / abandoned /
    struck / conflict, as ``Game.history`` says it) and its sentence
    (``core.describe``), which depends on the record, the entry's time (``game.when``)
    and how the state names the units it mentions now (side, counters, location).
    After a change, the lines that can differ are:

    * the new records' lines (a new entry, or the group a redo brings back);
    * the groups named by new undo / redo records (marked undone, or ok again);
    * the groups a new entry left behind (the redo stack: now an abandoned branch);
    * after a strike or unstrike of entry N: every line from N on (the core refolds
      from there; times and conflicts after it may change);
    * lines whose conflict appeared, went or changed;
    * lines naming a unit the state now names differently (one pass over the units,
      not over the history).

    So an undo costs O(its group + units), never O(entries). ``changed()`` returns
    those lines (new ones last, in order); ``lines()`` every line, for a first fill.
    """

    def __init__(self, game) -> None:
        self.game = game
        self.records = game.records  # replaced wholesale by Game.recover(): start over
        self.seen = 0
        self.order: list[int] = []  # seqs of the lines, ascending
        self.mentions: dict[str, list[int]] = {}  # handle -> seqs of lines naming it
        self.names: dict[str, tuple] = {}  # handle -> how the state names it
        self.redo: list[int] = []
        self.conflicts: dict[int, object] = {}

    def current(self, game) -> bool:
        return game is self.game and game.records is self.records and len(game.records) >= self.seen

    # ----------------------------------------------------------------- lines
    def line(self, record: ev.Record) -> Line:
        game = self.game
        status, reason = game.entry_status(record)
        return Line(record.seq, status, sentence_for(record, game), reason)

    def lines(self) -> list[Line]:
        """Every line (a first fill): the core's own ``history()``."""
        from stockade.core.describe import sentence

        game = self.game
        out = []
        for entry in game.history():
            if entry.status == "control":
                continue
            out.append(Line(entry.seq, entry.status, sentence(entry, game), entry.reason))
            self._learn(entry.record)
        self.seen = len(game.records)
        self.redo = list(game.timeline.redo_stack)
        self.conflicts = dict(game.conflicts)
        self.names = self._names()
        return out

    def _learn(self, record: ev.Record) -> None:
        self.order.append(record.seq)
        for handle in _handles(record):
            self.mentions.setdefault(handle, []).append(record.seq)

    def _names(self) -> dict[str, tuple]:
        return {
            h: (u.side, u.counter, tuple(o.counter for o in u.origins), u.location)
            for h, u in self.game.state.units.items()
        }

    def changed(self) -> list[Line]:
        game = self.game
        tl = game.timeline
        records = game.records
        dirty: set[int] = set()
        new: list[ev.Record] = []
        tail_from: int | None = None
        for record in records[self.seen :]:
            if isinstance(record, (ev.Undo, ev.Redo)):
                dirty.update(r.seq for r in tl.groups.get(record.target, ()))
            elif isinstance(record, (ev.Strike, ev.Unstrike)):
                tail_from = record.target if tail_from is None else min(tail_from, record.target)
            elif not ev.is_control(record):
                new.append(record)
        self.seen = len(records)
        if new:
            for grp in self.redo:  # left behind by a new entry: an abandoned branch
                dirty.update(r.seq for r in tl.groups.get(grp, ()))
        self.redo = list(tl.redo_stack)
        conflicts = game.conflicts
        if conflicts or self.conflicts:
            dirty.update(
                seq
                for seq in conflicts.keys() | self.conflicts.keys()
                if conflicts.get(seq) is not self.conflicts.get(seq)
            )
            self.conflicts = dict(conflicts)
        if tail_from is not None:
            dirty.update(self.order[bisect.bisect_left(self.order, tail_from) :])
        names = self._names()
        if names != self.names:
            old = self.names
            for handle in old.keys() | names.keys():
                if old.get(handle) != names.get(handle):
                    dirty.update(self.mentions.get(handle, ()))
            self.names = names
        out = []
        known = len(self.order)
        for seq in sorted(dirty):
            if 1 <= seq <= len(records):
                record = records[seq - 1]
                position = bisect.bisect_left(self.order, seq, 0, known)
                if position < known and self.order[position] == seq:
                    out.append(self.line(record))
        for record in new:
            self._learn(record)
            out.append(self.line(record))
        return out


def _handles(record) -> set[str]:
    """Every string a record holds (handles among them): the units its line may name.
    More than the handles (locations, reasons) costs nothing but a few spare lookups."""
    out: set[str] = set()

    def walk(value) -> None:
        if isinstance(value, str):
            out.add(value)
        elif isinstance(value, (list, tuple)):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(key)
                walk(item)
        elif isinstance(value, msgspec.Struct):
            for name in value.__struct_fields__:
                walk(getattr(value, name))

    for name in record.__struct_fields__:
        if name not in ("at", "v"):
            walk(getattr(record, name))
    return out


class HistoryView(OptionList):
    """The numbered history. Arrows and j/k move; the option id is the entry's seq."""

    BINDINGS = key_bindings("list")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._entries: dict[int, Line] = {}
        self._index: dict[int, int] = {}  # seq -> option index
        self._tracker: HistoryTracker | None = None
        self.rebuilds = 0  # how many lines were rewritten in place (tests read it)

    def sync_game(self, game, follow: bool = True) -> None:
        """Bring the list up to ``game``, computing only the lines a change touched."""
        tracker = self._tracker
        if tracker is not None and tracker.current(game):
            self.sync(tracker.changed(), follow)
            return
        self._tracker = tracker = HistoryTracker(game)
        lines = tracker.lines()
        if self._entries and set(self._entries) - {line.seq for line in lines}:
            self._entries.clear()  # another game, or a log re-read shorter: refill
            self._index.clear()
            self.clear_options()
        self.sync(lines, follow)

    def sync(self, lines: list[Line], follow: bool = True) -> None:
        """Take ``lines`` (some or all): append new ones, rewrite changed ones in place."""
        error = self.app.theme_variables.get("error", "")
        new: list[Option] = []
        for line in lines:
            old = self._entries.get(line.seq)
            if old is None:
                self._entries[line.seq] = line
                self._index[line.seq] = self.option_count + len(new)
                new.append(Option(line_prompt(line, error), id=str(line.seq)))
            elif old != line:
                self._entries[line.seq] = line
                self._rewrite(self._index[line.seq], line_prompt(line, error))
                self.rebuilds += 1
        if new:
            self.add_options(new)
        if follow and (new or self.highlighted is None) and self.option_count:
            self.highlighted = self.option_count - 1

    def _rewrite(self, index: int, prompt: Text) -> None:
        """Replace one option's prompt, re-measuring that option only.

        ``OptionList.replace_option_prompt`` drops every cached line height and
        measures all options again on the next paint: O(history) per undo. Here the
        option's own render cache is dropped and, if its height did not change,
        nothing else; if it did, only the options from it on are measured again.
        """
        try:
            option = self._options[index]
            option._set_prompt(prompt)
            cache = self._line_cache
            old_height = cache.heights.get(index)
            region = self.scrollable_content_region
            remeasure = False
            if old_height is not None and region:
                width = region.width - self._get_left_gutter_width()
                padding = self.get_component_styles("option-list--option").padding
                visual = self._get_visual(option)
                # OptionList itself passes its styles here; Visual.get_height is annotated
                # with the narrower RulesMap, which the styles object serves at run time.
                height = visual.get_height(self.styles, width - padding.width)  # type: ignore[arg-type]
                height += option._divider
                if height != old_height:
                    remeasure = True
                    del cache.lines[cache.index_to_line[index] :]
                    for later in range(index, len(self._options)):
                        cache.heights.pop(later, None)
                        cache.index_to_line.pop(later, None)
            renders = self._option_render_cache
            # SIM118 does not apply: Textual's LRUCache has keys() but no __iter__.
            for key in [key for key in renders.keys() if key[0] is option]:  # noqa: SIM118
                renders.discard(key)
        except (AttributeError, KeyError):  # OptionList internals changed: the slow way
            self.replace_option_prompt_at_index(index, prompt)
            return
        if remeasure:
            self._update_lines()
        self.refresh()

    @property
    def selected_seq(self) -> int | None:
        if self.highlighted is None or not self.option_count:
            return None
        option = self.get_option_at_index(self.highlighted)
        return int(option.id) if option.id else None

    def select_seq(self, seq: int) -> None:
        if seq in self._index:
            self.highlighted = self._index[seq]

    def line(self, seq: int) -> Line | None:
        return self._entries.get(seq)
