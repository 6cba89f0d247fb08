"""The tally (``v``): each side's CVP with every line explained, CVP by Game Turn as a
small chart, and export to Markdown (``m``), HTML (``w``), BBCode (``b``, for forums) or
CSV (``c``) next to the game file."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.highlighter import ReprHighlighter
from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from stockade.core.book.game import Game
from stockade.core.book.tally import SideTally, Tally, tally, to_html, to_markdown, verdict_lines
from stockade.core.log.files import atomic_write
from stockade.core.reads.tally_formats import to_bbcode, to_csv
from stockade.core.reads.views import counter_set_aside
from stockade.tui.bindings import bindings as key_bindings
from stockade.tui.bindings import hint
from stockade.tui.paths import data_dir
from stockade.tui.plain import markup_safe, plain
from stockade.tui.screens.board import TOO_SMALL
from stockade.tui.screens.confirm import ConfirmScreen
from stockade.tui.table_app import table_app
from stockade.tui.widgets.footer import StockadeFooter
from stockade.tui.widgets.status_line import StatusLine

if TYPE_CHECKING:
    from stockade.core.model.state import GameState

_highlight = ReprHighlighter()


def _cell(text: str) -> Text:
    """A table cell from the game: plain text (never markup), highlighted as Rich
    highlights a plain string cell, so it looks exactly as before."""
    return _highlight(plain(text))


def refuse_planted(path: Path) -> None:
    """The export replaces its own earlier file, never a link or anything not a file."""
    if path.is_symlink() or (os.path.lexists(path) and not path.is_file()):
        what = "a link" if path.is_symlink() else "not a regular file"
        raise OSError(errno.EEXIST, f"{path.name} is {what}; not replacing it (remove it first)")


# Each export the tally screen writes, by the format its key names: the core's text.
EXPORTS: dict[str, Callable[[Tally], str]] = {
    "md": to_markdown,
    "html": to_html,
    "bbcode": to_bbcode,
    "csv": to_csv,
}


def export_path(game_path: Path | None, scenario: str, suffix: str) -> Path:
    """``<game>.tally.md`` beside the game file (the data dir for an unsaved game)."""
    if game_path is not None:
        return game_path.with_name(f"{game_path.stem}.tally.{suffix}")
    slug = "".join(ch if ch.isalnum() else "-" for ch in scenario.lower()).strip("-") or "game"
    return data_dir() / f"{slug}.tally.{suffix}"


BARS = "▁▂▃▄▅▆▇█"
GLOSSARY = "pts: base × multiplier; * prisoners still guarded: double if the game ended now (A20.1)"
SET_ASIDE = (
    "counter set aside: a captured leader or hero keeps its counter off the map, its "
    "captor noted (A20.5)"
)


def glossary(state: GameState) -> str:
    """The words the tally's lines use; "counter set aside" only in a game where a
    leader or hero was captured, the only lines that say it."""
    return f"{GLOSSARY} · {SET_ASIDE}" if counter_set_aside(state) else GLOSSARY


def turn_chart(by_turn: dict[int, int]) -> Text:
    """CVP by Game Turn as a one-line bar chart, each bar with its number (not the bar's
    height alone): ``by Game Turn  T1 ▃2  T2 ·0  T3 █4``; ``·`` is a turn with none."""
    out = Text("by Game Turn ", style="bold")
    top = max(by_turn.values(), default=0)
    for turn, points in by_turn.items():
        if points <= 0 or top <= 0:
            bar = "·"
        else:
            bar = BARS[max(0, min(len(BARS) - 1, round(points / top * (len(BARS) - 1))))]
        out.append(f" T{turn} ")
        out.append(bar, style="bold")
        out.append(f"{points} ")
    return out


def side_table(side: SideTally, ended: bool) -> Group:
    table = Table(expand=True, show_edge=False, pad_edge=False, box=None)
    for name, kw in (
        ("#", {"justify": "right"}),
        ("T", {"justify": "right"}),
        ("unit", {}),
        ("rule", {"no_wrap": True}),
        ("pts", {"no_wrap": True}),
        ("why", {}),
    ):
        table.add_column(name, **kw)
    for line in side.lines:
        mark = "" if line.banked else " *"
        table.add_row(
            str(line.seq),
            str(line.turn),
            _cell(f"{line.unit} {line.counter} {line.unit_kind}"),
            _cell(line.rule),
            f"{line.base}×{line.multiplier}={line.points}{mark}",
            _cell(line.why),
            style="" if line.banked else "italic",
        )
    total = Text(f"CVP {side.cvp}", style="bold")
    if not ended and side.cvp != side.cvp_if_ended:
        total.append(
            f" banked · {side.cvp_if_ended} if the game ended now "
            "(* = prisoners still guarded, double, A20.1)"
        )
    body: list[RenderableType] = [total, turn_chart(side.by_turn)]
    body.append(table if side.lines else Text("no casualties yet", style="dim"))
    return Group(*body)


class TallyScreen(Screen[None]):
    DEFAULT_CSS = """
    TallyScreen #tally-sides { height: 1fr; }
    TallyScreen .tally-side { width: 1fr; height: auto; border: round $panel; padding: 0 1; }
    TallyScreen #tally-title { background: $panel; padding: 0 1; text-style: bold; }
    TallyScreen #tally-glossary { color: $text-muted; padding: 0 1; }
    TallyScreen.-wide #tally-sides { layout: horizontal; }
    """
    BINDINGS = key_bindings("tally")

    def __init__(self) -> None:
        super().__init__()
        self.exported: dict[str, Path] = {}

    @property
    def game(self) -> Game:
        return table_app(self).game

    def compose(self) -> ComposeResult:
        t = tally(self.game.state)
        yield Static(TOO_SMALL, id="too-small")
        with Vertical(id="main"):
            status = "game over" if t.ended else f"Game Turn {t.turn}, in progress"
            yield Static(plain(f"CVP tally · {t.scenario} · {status}"), id="tally-title")
            yield Static(glossary(self.game.state), id="tally-glossary")
            with VerticalScroll(id="tally-sides"):
                for side in t.sides.values():
                    with Vertical(classes="tally-side") as box:
                        box.border_title = markup_safe(
                            f"{side.name} ({side.nationality}): CVP {side.cvp}"
                        )
                        yield Static(side_table(side, t.ended))
                if t.verdict is not None:
                    # the core's words: the headline, each condition's values and gaps
                    head, *rest = verdict_lines(t.verdict)
                    with Vertical(classes="tally-side", id="tally-verdict") as box:
                        box.border_title = "Victory Conditions"
                        yield Static(plain(head.removeprefix("Verdict: "), "bold"))
                        yield Static(plain("\n".join(line[2:] for line in rest)))
            yield StatusLine(id="status")
        yield StockadeFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one(StatusLine).say(
            hint(
                self.app,
                ("stockade.tally_markdown", "Markdown"),
                ("stockade.tally_html", "HTML"),
                ("stockade.tally_bbcode", "BBCode"),
                ("stockade.tally_csv", "CSV (exports go next to the game file)"),
                ("stockade.tally_down", "scroll"),
                "stockade.tally_back",
            ),
            "hint",
        )
        self.query_one("#tally-sides").focus()

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_scroll(self, step: int) -> None:
        box = self.query_one("#tally-sides", VerticalScroll)
        box.scroll_relative(y=step * 3)

    def action_export(self, fmt: str) -> None:
        t = tally(self.game.state)
        text = EXPORTS[fmt](t)
        path = export_path(self.game.path, t.scenario, fmt)
        if os.path.lexists(path) and path != self.exported.get(fmt) and not path.is_symlink():
            # A file this window did not write: replace it only when told to (y).
            def answered(answer: str | None) -> None:
                if answer is not None:
                    self._start_export(fmt, path, text)

            self.app.push_screen(
                ConfirmScreen("Replace the export?", f"{path} already exists. Replace it?"),
                answered,
            )
            return
        self._start_export(fmt, path, text)

    def _start_export(self, fmt: str, path: Path, text: str) -> None:
        self.query_one(StatusLine).say(f"writing {path} …", "info")
        self.write_export(fmt, path, text)

    @work(thread=True, group="export")
    def write_export(self, fmt: str, path: Path, text: str) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            refuse_planted(path)
            # A fresh temporary file with an unpredictable name, then a rename: nothing
            # planted beside the game (a link named like the export) is written through.
            atomic_write(path, text.encode("utf-8"))
        except OSError as exc:
            self.app.call_from_thread(self._exported, fmt, path, exc.strerror or str(exc))
            return
        self.app.call_from_thread(self._exported, fmt, path, "")

    def _exported(self, fmt: str, path: Path, problem: str) -> None:
        status = self.query_one(StatusLine)
        if problem:
            status.say(f"could not write {path}: {problem}", "refusal")
            self.app.notify(f"export failed: {problem}", severity="error", markup=False)
            return
        self.exported[fmt] = path
        status.say(f"exported the tally to {path}", "ok")
