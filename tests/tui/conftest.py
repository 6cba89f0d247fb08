"""Fixtures of the TUI's tests (Pilot and SVG snapshot tests); their helpers that are
not fixtures are in tests/tui/support.py."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from stockade.core.book.game import Game
from tests.tui.support import new_game


def pytest_collection_finish(session: pytest.Session) -> None:
    """What the process holds once the tests are collected (the interpreter's, pytest's,
    Textual's and Stockade's modules, the collected items) lives to the end of the run:
    it is moved out of the cyclic collector's walks, as the launcher does for the app
    (``gc.freeze``). Each Pilot test leaves an app's worth of cycles behind, and the
    full collections that free them then walk only what was made since, not the whole
    process again (a quarter of a TUI test's CPU went to those walks). Garbage is
    collected first, so nothing that could be freed is kept."""
    gc.collect()
    gc.freeze()


@pytest.fixture
def small_game(tmp_path: Path) -> Game:
    """An empty game on disk, German (ELR 3) against American (ELR 4), no clock yet."""
    return new_game(tmp_path, "Keys", [("German", "German", 3), ("American", "American", 4)])
