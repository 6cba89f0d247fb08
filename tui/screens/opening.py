"""The frame the app paints while the game is read: the main screen's outline, empty.

It imports no part of the core and mounts a handful of plain widgets, so it paints
before the core is imported and the game folded (the app reads the game in a thread,
``tui.reading``). What the player types meanwhile is kept by the app and shown here;
if the game cannot be read, the reason is shown here too, with what was typed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Static

from stockade.tui.screens.too_small import TOO_SMALL


def size_words(size: int) -> str:
    """A file size as the player reads it: 820 bytes, 14 KB, 32 MB."""
    for unit, step in (("GB", 2**30), ("MB", 2**20), ("KB", 2**10)):
        if size >= step:
            return f"{size / step:.0f} {unit}"
    return f"{size} bytes"


class OpeningScreen(Screen[None]):
    """Header, two empty panels, the history's place and the command bar's line."""

    # what the player typed while the game was read, as it reads (": next ⏎")
    typed: reactive[str] = reactive("", init=False)
    # why the game could not be read ("" while it is being read)
    problem: reactive[str] = reactive("", init=False)

    def __init__(self, path: Path, when_painted: Callable[[], None]) -> None:
        super().__init__()
        self.path = path
        self._when_painted = when_painted

    def compose(self) -> ComposeResult:
        yield Static(TOO_SMALL, id="too-small")
        with Vertical(id="main"):
            yield Static(self._reading(), id="opening-header", markup=False)
            with Horizontal(id="opening-sides"):
                yield Static(classes="opening-panel")
                yield Static(classes="opening-panel")
            yield Static(
                "keys typed now are kept, and entered in order once the game is read",
                id="opening-history",
                markup=False,
            )
            yield Static(self._bar(), id="opening-bar", markup=False)
            yield Static("ctrl+q quit", id="opening-keys", markup=False)

    def on_mount(self) -> None:
        # After this screen's first paint: nothing the read costs comes before it.
        self.call_after_refresh(self._when_painted)
        self._seconds = 0
        self._clock = self.set_interval(1.0, self._tick)

    def _tick(self) -> None:
        """A long read says it is still going, every second."""
        self._seconds += 1
        self.query_one("#opening-header", Static).update(self._reading(self._seconds))

    def _reading(self, seconds: int = 0) -> str:
        try:
            size = f" ({size_words(self.path.stat().st_size)})"
        except OSError:
            size = ""
        return f"Stockade · reading {self.path.name}{size}…" + (f" {seconds} s" if seconds else "")

    def _bar(self) -> str:
        if self.typed:
            return f"typed: {self.typed}"
        return "press : to type a command"

    def watch_typed(self) -> None:
        head = "not entered (no game): " if self.problem else "typed: "
        self.query_one("#opening-bar", Static).update(
            f"{head}{self.typed}" if self.typed else self._bar()
        )

    def watch_problem(self, problem: str) -> None:
        self._clock.stop()
        self.query_one("#opening-header", Static).update(f"Stockade · {problem}")
        self.query_one("#opening-history", Static).update(
            f"{problem}\n\nNothing was written to the file. ctrl+q quits."
        )
        self.add_class("-failed")
        self.watch_typed()
