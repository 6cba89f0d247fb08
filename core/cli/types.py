"""The types every subcommand handler shares."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

SubParsers = argparse._SubParsersAction  # argparse's own (private) name for add_subparsers()


class UserInterface(Protocol):
    """What tui/launcher.py hands to ``core.cli.main`` to open a screen; the core never
    imports it, so the headless commands never load Textual."""

    def open_game(self, path: Path | None) -> int: ...


Handler = Callable[[argparse.Namespace, Any], int]

__all__ = ["Handler", "SubParsers", "UserInterface"]
