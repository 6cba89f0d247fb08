"""Fixtures of the TUI's tests (Pilot and SVG snapshot tests); their helpers that are
not fixtures are in tests/tui/support.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from stockade.core.book.game import Game
from tests.tui.support import new_game


@pytest.fixture
def small_game(tmp_path: Path) -> Game:
    """An empty game on disk, German (ELR 3) against American (ELR 4), no clock yet."""
    return new_game(tmp_path, "Keys", [("German", "German", 3), ("American", "American", 4)])
