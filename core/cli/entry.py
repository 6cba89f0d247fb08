"""The headless ``stockade`` command line proper (``stockade.core.cli.main`` runs it).
``main(argv, ui)`` never imports Textual: the launcher (tui/launcher.py) injects ``ui``
with ``open_game(path)`` and ``open_camp(path, options)``; without it the UI commands
exit 2 with one line."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from stockade.core.cli.errors import USAGE, CliError
from stockade.core.cli.guard import guarded
from stockade.core.cli.output import visible_output
from stockade.core.cli.types import Handler, UserInterface


def main(argv: list[str] | None = None, ui: UserInterface | None = None) -> int:
    """Run one ``stockade`` command; return its exit code (core/cli/errors.py's ``Exit``
    table, documented in docs/commands.md). Never shows a traceback (core/cli/guard.py)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    return guarded(argv, lambda: _dispatch(argv, ui))


def _dispatch(argv: list[str], ui: UserInterface | None) -> int:
    from stockade.core.cli.arguments import SUBCOMMANDS, build_parser, groups_for

    if "_ARGCOMPLETE" in os.environ:  # the shell is asking for completions: every command
        _complete(build_parser())
    if not argv:
        return _open_ui(ui, None)
    if len(argv) == 1 and not argv[0].startswith("-") and argv[0] not in SUBCOMMANDS:
        return _open_ui(ui, Path(argv[0]))
    parser = build_parser(groups_for(argv))  # only what the command line names
    with visible_output():  # nothing from a log or an argument drives the terminal
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help()
            return USAGE
        handler: Handler = args.func
        return int(handler(args, ui) or 0)


def _complete(parser: argparse.ArgumentParser) -> None:
    """Answer the completion hook of 'stockade completion SHELL' (argcomplete): it
    prints the candidates and exits."""
    import argcomplete

    argcomplete.autocomplete(parser)


def _open_ui(ui: UserInterface | None, path: Path | None) -> int:
    if ui is None:
        raise CliError("no terminal UI here; use a subcommand (stockade --help)", USAGE)
    return int(ui.open_game(path) or 0)


__all__ = ["main", "CliError"]
