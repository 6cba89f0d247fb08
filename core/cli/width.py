"""How wide the CLI lays its rows out (core/model/columns.py): ``--width N`` when
given, else the terminal's width when stdout is a terminal; piped into a file or a
script, None: every row stays one line, as scripts and the golden files read them.

Imports nothing of Stockade's but the declarations of arguments (core/cli/argspec.py),
nor shutil: the tally read back from the derived store chooses its width with this.
"""

from __future__ import annotations

import os
import sys

from stockade.core.cli import argspec

TYPE_CHECKING = False  # typing costs ~2 ms to import; mypy reads this the same way

if TYPE_CHECKING:
    from typing import Any

WIDTH = argspec.Option(
    "--width",
    "lay rows out N columns wide, a long row's last text wrapped under itself; 0: one "
    "line a row (default: the terminal's width, $COLUMNS first; piped: one line a row)",
    type=int,
    metavar="N",
)


def terminal_width() -> int:
    """The terminal's width as ``shutil.get_terminal_size`` finds it ($COLUMNS, then
    stdout's terminal, else 80), without importing shutil: argparse imports it (and
    with it bz2 and lzma, ~4 ms) for every formatter it makes, and it makes one for
    every argument added, help or not."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 80
    return columns


def chosen(args: Any) -> int | None:
    """The width to lay rows out in for a command read into ``args`` (its ``width``,
    ``--width``): N as given (0: none), else the terminal's when stdout is one, else
    None."""
    given = getattr(args, "width", None)
    if given is not None:
        return given if given > 0 else None
    try:
        if not sys.stdout.isatty():
            return None
    except (AttributeError, ValueError):  # no stdout, or a closed one
        return None
    return terminal_width()


__all__ = ["WIDTH", "chosen", "terminal_width"]
