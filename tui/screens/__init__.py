"""The app's screens: main, history/replay, tally, help, confirmation."""

from __future__ import annotations


def all_screen_bindings() -> set[str]:
    """Every binding id defined on a screen or widget (for checking config keymaps)."""
    from textual.binding import Binding

    from stockade.tui.forms.base import FormScreen
    from stockade.tui.forms.menu import FormMenu
    from stockade.tui.forms.picker import UnitPicker
    from stockade.tui.screens.help import HelpScreen
    from stockade.tui.screens.main import MainScreen
    from stockade.tui.screens.replay import ReplayScreen
    from stockade.tui.screens.roster import PickScreen, RosterScreen
    from stockade.tui.screens.tally import TallyScreen
    from stockade.tui.widgets.command_bar import CommandInput
    from stockade.tui.widgets.history_view import HistoryView
    from stockade.tui.widgets.roster import Roster
    from stockade.tui.widgets.side_panel import SidePanelView

    ids: set[str] = set()
    for cls in (
        MainScreen,
        ReplayScreen,
        TallyScreen,
        HelpScreen,
        FormScreen,
        FormMenu,
        CommandInput,
        HistoryView,
        SidePanelView,
        RosterScreen,
        PickScreen,
        UnitPicker,
        Roster,
    ):
        ids |= {b.id for b in cls.BINDINGS if isinstance(b, Binding) and b.id}
    return ids
