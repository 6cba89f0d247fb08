"""What every test shares: its own config, data and cache dirs.

Stockade remembers the last game, writes config and caches folded states. A test that
touched the player's own dirs could pass or fail by what another run left there, and
would leave files behind; so every test gets fresh dirs under its ``tmp_path``:
``tmp_path / "config"``, ``"data"`` and ``"cache"`` (the ``stockade_dirs`` fixture, used
by all tests; ask for it by name to get the paths). A test that wants no snapshot cache
at all asks for ``cache_off``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass(frozen=True)
class StockadeDirs:
    config: Path
    data: Path
    cache: Path


@pytest.fixture(autouse=True)
def stockade_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> StockadeDirs:
    """STOCKADE_CONFIG_DIR, STOCKADE_DATA_DIR and STOCKADE_CACHE_DIR under tmp_path
    (the dirs themselves are made by Stockade when it first writes there)."""
    dirs = StockadeDirs(tmp_path / "config", tmp_path / "data", tmp_path / "cache")
    monkeypatch.setenv("STOCKADE_CONFIG_DIR", str(dirs.config))
    monkeypatch.setenv("STOCKADE_DATA_DIR", str(dirs.data))
    monkeypatch.setenv("STOCKADE_CACHE_DIR", str(dirs.cache))
    return dirs


@pytest.fixture
def cache_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """No snapshot cache: every open folds the whole log."""
    monkeypatch.setenv("STOCKADE_CACHE_DIR", "off")
