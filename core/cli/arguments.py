"""The ``stockade`` command line: the root parser and which module makes each
subcommand.

A command builds only the parser of the subcommand it names: ``stockade tally FILE``
imports the module of ``tally`` and nothing of ``do``, ``camp`` or ``serve``. The full
parser (every subcommand) is built for ``stockade --help``, a word that names no
subcommand, and the shell's completion hook.

To add a subcommand: write its argparse set-up (with ``parsing.add_command``) in the
``register(sub)`` of its group's module and its handler beside it, then name it in
``SUBCOMMANDS`` with that group's loader below (a new group: a new module and a new
loader of three lines). tests/cli/test_cli_lazy.py checks that every name there is made by
its group, and that every subcommand is named there.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from typing import TypeAlias, cast

from stockade.core.cli.errors import CliError
from stockade.core.cli.parsing import OneLineParser, VersionAction
from stockade.core.cli.types import SubParsers

# a group adds its subcommands to the parser (quoted: argparse's class is not generic at run time)
Group: TypeAlias = "Callable[[SubParsers[argparse.ArgumentParser]], None]"


# One loader per group: it imports the group's module (only when one of its subcommands
# is wanted) and adds every subcommand of the group.
def game_group(sub: SubParsers[argparse.ArgumentParser]) -> None:
    from stockade.core.cli import game_commands

    game_commands.register(sub)


def amend_group(sub: SubParsers[argparse.ArgumentParser]) -> None:
    from stockade.core.cli import amend_command

    amend_command.register(sub)


def read_group(sub: SubParsers[argparse.ArgumentParser]) -> None:
    from stockade.core.cli import read_commands

    read_commands.register(sub)


def log_group(sub: SubParsers[argparse.ArgumentParser]) -> None:
    from stockade.core.cli import log_commands

    log_commands.register(sub)


def rules_group(sub: SubParsers[argparse.ArgumentParser]) -> None:
    from stockade.core.cli import rules_command

    rules_command.register(sub)


def show_group(sub: SubParsers[argparse.ArgumentParser]) -> None:
    from stockade.core.cli import show_command

    show_command.register(sub)


def table_group(sub: SubParsers[argparse.ArgumentParser]) -> None:
    from stockade.core.cli import table_commands

    table_commands.register(sub)


def camp_group(sub: SubParsers[argparse.ArgumentParser]) -> None:
    """The POW camp is a game of its own beside the book: if its module fails to load,
    ``stockade camp`` says so and the rest of the CLI works."""
    try:
        from stockade.core.camp import cli as camp_cli
    except Exception as exc:  # ImportError or anything its import raised
        why = f"{type(exc).__name__}: {exc}"

        def unavailable(args: argparse.Namespace, ui: object) -> int:
            raise CliError(f"camp: the POW-camp mode failed to load ({why})")

        broken = sub.add_parser("camp", help="the solitaire POW camp (failed to load)")
        broken.add_argument("rest", nargs=argparse.REMAINDER)
        broken.set_defaults(func=unavailable)
        return
    camp_cli.register(sub)


# Each subcommand -> the group that makes it.
SUBCOMMANDS: dict[str, Group] = {
    "new": game_group,
    "do": game_group,
    "run": game_group,
    "undo": game_group,
    "redo": game_group,
    "strike": game_group,
    "unstrike": game_group,
    "amend": amend_group,
    "tally": read_group,
    "history": read_group,
    "check": log_group,
    "repair": log_group,
    "locate": log_group,
    "rulings": log_group,
    "completion": log_group,
    "rules": rules_group,
    "show": show_group,
    "verify": table_group,
    "watch": table_group,
    "serve": table_group,
    "camp": camp_group,
}


def build_parser(groups: Iterable[Group] | None = None) -> argparse.ArgumentParser:
    """The ``stockade`` parser with the subcommands of ``groups`` (see ``groups_for``),
    or with every subcommand when ``groups`` is None."""
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
    every = list(dict.fromkeys(SUBCOMMANDS.values()))  # each group once, in table order
    wanted = every if groups is None else [g for g in every if g in set(groups)]
    for group in wanted:
        group(sub)
    return parser


def groups_for(argv: list[str]) -> list[Group] | None:
    """The groups whose subcommands ``argv`` needs: the one of the subcommand it names,
    none for a bare ``--version``, or None (every one: the help lists them all, and an
    unknown word is answered with the list)."""
    word = next((a for a in argv if not a.startswith("-")), None)
    if word in SUBCOMMANDS:
        return [SUBCOMMANDS[word]]
    if word is None and argv and all(a == "--version" for a in argv):
        return []
    return None


def subcommand_names(parser: argparse.ArgumentParser) -> set[str]:
    for action in parser._actions:  # argparse keeps subparsers as a private action
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    return set()
