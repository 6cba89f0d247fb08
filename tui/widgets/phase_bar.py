"""The header bar: scenario, Game Turn, ATTACKER and the eight phases.

The current phase is marked by brackets and a pointer as well as by colour, so it reads
the same in any theme and without colour.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widget import Widget

from stockade.core.model.events import PHASES
from stockade.core.model.state import GameState
from stockade.tui.widgets.laid_out_once import LaidOutOnce


class PhaseBar(LaidOutOnce, Widget):
    DEFAULT_CSS = """
    PhaseBar {
        height: 2;
        background: $panel;
        padding: 0 1;
    }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._state: GameState | None = None
        self._flags: list[str] = []
        self._note = ""
        self._shown: tuple[object, ...] | None = None

    def show(self, state: GameState, flags: list[str] | None = None, note: str = "") -> None:
        """Show ``state``; repainted only if what the bar says changed (a resize or a
        theme change repaints it anyway: ``render`` reads the width and the colours).
        ``note`` (replay's position) goes on the phases line, where there is room."""
        flags = list(flags or [])
        shown = (
            state.scenario, state.turn, state.attacker, state.phase, state.ended,
            tuple(flags), note,
        )  # fmt: skip
        if state is self._state and shown == self._shown:
            return
        self._state, self._flags, self._note, self._shown = state, flags, note, shown
        self.refresh()

    def render(self) -> Text:
        state = self._state
        if state is None:
            return Text("Stockade")
        styles = self.app.theme_variables
        accent = styles.get("primary", "")
        rest = Text(no_wrap=True)
        rest.append(f"   Game Turn {state.turn}", style="bold")
        if state.attacker:
            rest.append("   ATTACKER: ")
            rest.append(state.attacker, style=f"bold {accent}")
        for flag in self._flags:
            rest.append(f"   [{flag}]", style="bold " + styles.get("warning", ""))
        # One line: the scenario's name gives way first (the turn, the ATTACKER and the
        # flags such as REPLAY or CONFLICT must stay readable at 80 columns).
        room = max(8, self.content_region.width - rest.cell_len)
        top = Text(state.scenario or "(no scenario)", style="bold", no_wrap=True)
        top.truncate(room, overflow="ellipsis")
        top.append_text(rest)
        top.truncate(max(1, self.content_region.width), overflow="ellipsis")
        phases = Text(no_wrap=True, overflow="ellipsis")
        for phase in PHASES:
            if state.ended:
                phases.append(f" {phase} ", style="dim")
            elif phase == state.phase:
                phases.append(f"▶[{phase}]", style=f"bold reverse {accent}")
            else:
                phases.append(f" {phase} ", style="dim")
        if state.ended:
            phases.append("  ■ ENDED" if self._note else "  ■ GAME ENDED", style="bold")
        if self._note:
            phases.append(f"  [{self._note}]", style="bold " + styles.get("warning", ""))
        phases.truncate(max(1, self.content_region.width), overflow="ellipsis")
        return Text("\n").join([top, phases])
