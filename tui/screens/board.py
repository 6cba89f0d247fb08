"""What the main screen and replay mode both show: the phase bar, one panel per side and
the history; and what any screen says when the terminal is too small. Apart from the
main screen, so that the screens the main screen opens need not import it back."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical

from stockade.core.book.game import Game
from stockade.tui.screens.too_small import TOO_SMALL
from stockade.tui.widgets.history_view import HistoryView
from stockade.tui.widgets.phase_bar import PhaseBar
from stockade.tui.widgets.side_panel import SidePanelView

__all__ = ["TOO_SMALL", "compose_board"]


def compose_board(game: Game) -> ComposeResult:
    """The phase bar, one panel per side and the history: shared with replay mode.
    (``part``: what a screen too small hides, where no container holds them.)"""
    yield PhaseBar(id="phase-bar", classes="part")
    with Vertical(id="board", classes="part"):
        with Horizontal(id="sides"):
            for name in game.state.sides:
                yield SidePanelView(name)
        yield HistoryView(id="history")
