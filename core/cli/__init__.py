"""The headless ``stockade`` command line. ``main(argv, ui)`` never imports Textual:
the launcher (tui/launcher.py) injects ``ui`` with ``open_game(path)`` and
``open_camp(path, options)``; without it the UI commands exit 2 with one line.

This package imports nothing itself: the launcher reaches ``core.cli.stored_tally``
(the tally read from the derived store, which must start in a few milliseconds) through
it, so the command line proper (core/cli/entry.py, argparse and the rest) loads only
when ``main`` runs."""

from __future__ import annotations

# typing costs ~2 ms to import; mypy reads a TYPE_CHECKING of our own the same way
TYPE_CHECKING = False

if TYPE_CHECKING:
    from stockade.core.cli.types import UserInterface


def main(argv: list[str] | None = None, ui: UserInterface | None = None) -> int:
    """Run one ``stockade`` command; return its exit code (core/cli/entry.py)."""
    from stockade.core.log import derived

    # The code and data fingerprint of everything derived from a log (core/log/derived.py)
    # is taken first, before any data file is read: a change made while this runs can
    # then only make what it keeps a miss, never keep old results under new code.
    derived.code_fingerprint()
    from stockade.core.cli.entry import main as run

    return run(argv, ui)


__all__ = ["main"]
