"""The ``stockade`` command line: the root parser and which module makes each
subcommand.

A command builds only the parser of the subcommand it names: ``stockade tally FILE``
imports the module of ``tally`` and nothing of ``do``, ``camp`` or ``serve``. The full
parser (every subcommand) is built for ``stockade --help``, a word that names no
subcommand, and the shell's completion hook.

To add a subcommand: write its ``register(sub)`` (argparse set-up with
``parsing.add_command``) and handler in the module of its group, or in a new module,
and name it in ``SUBCOMMANDS``. tests/test_cli_conventions.py checks that every name
there is made by its module, and every subcommand is named there.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Iterable
from typing import cast

from stockade.core.cli.errors import CliError
from stockade.core.cli.parsing import OneLineParser, VersionAction
from stockade.core.cli.types import SubParsers

# Each subcommand -> the module whose ``register(sub)`` makes it (with the rest of its
# group). Modules are imported by name, only when one of their subcommands is wanted.
SUBCOMMANDS: dict[str, str] = {
    "new": "stockade.core.cli.game_commands",
    "do": "stockade.core.cli.game_commands",
    "run": "stockade.core.cli.game_commands",
    "undo": "stockade.core.cli.game_commands",
    "redo": "stockade.core.cli.game_commands",
    "strike": "stockade.core.cli.game_commands",
    "unstrike": "stockade.core.cli.game_commands",
    "tally": "stockade.core.cli.read_commands",
    "history": "stockade.core.cli.read_commands",
    "check": "stockade.core.cli.log_commands",
    "repair": "stockade.core.cli.log_commands",
    "locate": "stockade.core.cli.log_commands",
    "rulings": "stockade.core.cli.log_commands",
    "completion": "stockade.core.cli.log_commands",
    "rules": "stockade.core.cli.rules_command",
    "verify": "stockade.core.cli.table_commands",
    "watch": "stockade.core.cli.table_commands",
    "serve": "stockade.core.cli.table_commands",
    "camp": "stockade.core.camp.cli",
}
# A module here that fails to import leaves its subcommands saying so, and the rest of
# the CLI working (the POW camp is a game of its own beside the book).
OPTIONAL = frozenset({"stockade.core.camp.cli"})


def build_parser(modules: Iterable[str] | None = None) -> argparse.ArgumentParser:
    """The ``stockade`` parser with the subcommands of ``modules`` (see ``modules_for``),
    or with every subcommand when ``modules`` is None."""
    parser = OneLineParser(
        prog="stockade",
        description="Stockade keeps the book on ASL rule A20 (Prisoners). "
        "Run 'stockade' or 'stockade FILE' for the terminal UI; the "
        "subcommands below work without it.",
        epilog="The command language for 'do' and 'run', the JSON replies and the exit "
        "codes are in docs/commands.md. 'stockade COMMAND --help' shows an example.",
    )
    parser.add_argument("--version", action=VersionAction)
    # Subcommand parsers are OneLineParsers too (argparse makes them of the parent's
    # class); typed as plain ArgumentParsers so every register() takes them.
    sub = cast(
        "SubParsers[argparse.ArgumentParser]",
        parser.add_subparsers(dest="command", metavar="COMMAND"),
    )
    every = dict.fromkeys(SUBCOMMANDS.values())  # each module once, in table order
    for module in every if modules is None else [m for m in every if m in set(modules)]:
        _register(sub, module)
    return parser


def modules_for(argv: list[str]) -> list[str] | None:
    """The modules whose subcommands ``argv`` needs: the one of the subcommand it names,
    none for a bare ``--version``, or None (every one: the help lists them all, and an
    unknown word is answered with the list)."""
    word = next((a for a in argv if not a.startswith("-")), None)
    if word in SUBCOMMANDS:
        return [SUBCOMMANDS[word]]
    if word is None and argv and all(a == "--version" for a in argv):
        return []
    return None


def _register(sub: SubParsers[argparse.ArgumentParser], module: str) -> None:
    if module not in OPTIONAL:
        importlib.import_module(module).register(sub)
        return
    try:
        importlib.import_module(module).register(sub)
    except Exception as exc:  # ImportError or anything its import raised
        why = f"{type(exc).__name__}: {exc}"

        def unavailable(args: argparse.Namespace, ui: object) -> int:
            raise CliError(f"{args.command}: failed to load ({why})")

        for name in (n for n, m in SUBCOMMANDS.items() if m == module):
            broken = sub.add_parser(name, help="(failed to load)")
            broken.add_argument("rest", nargs=argparse.REMAINDER)
            broken.set_defaults(func=unavailable)


def subcommand_names(parser: argparse.ArgumentParser) -> set[str]:
    for action in parser._actions:  # argparse keeps subparsers as a private action
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    return set()
