"""The app's screens: main, history/replay, tally, help, confirmation, games."""

from __future__ import annotations


def all_screen_bindings() -> set[str]:
    """Every binding id (for checking config keymaps): the registry's, ``tui.bindings``."""
    from stockade.tui.bindings import ids

    return ids()
