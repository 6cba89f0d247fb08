"""The app's screens: main, history/replay, tally, help, confirmation."""

from __future__ import annotations


def all_screen_bindings() -> set[str]:
    """Every binding id defined on a screen or widget (for checking config keymaps)."""
    from textual.binding import Binding

    from tui.forms.base import FormScreen
    from tui.forms.menu import FormMenu
    from tui.screens.help import HelpScreen
    from tui.screens.main import MainScreen
    from tui.screens.replay import ReplayScreen
    from tui.screens.tally import TallyScreen
    from tui.widgets.command_bar import CommandInput
    from tui.widgets.history_view import HistoryView
    from tui.widgets.side_panel import SidePanelView

    ids: set[str] = set()
    for cls in (MainScreen, ReplayScreen, TallyScreen, HelpScreen, FormScreen, FormMenu,
                CommandInput, HistoryView, SidePanelView):
        ids |= {b.id for b in cls.BINDINGS if isinstance(b, Binding) and b.id}
    return ids
