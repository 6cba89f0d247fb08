"""The pieces every subcommand's parser is made of: the one-line-error parser, one
subcommand with its summary and examples, and the ``--json`` and ``FILE`` arguments.

Imports nothing of Stockade's but the CLI's errors and its width (core/cli/width.py,
which every row-printing subcommand's ``--width`` is): a subcommand module takes these
without pulling in any other subcommand's code.
"""

from __future__ import annotations

import argparse

from stockade.core.cli import argspec
from stockade.core.cli.errors import USAGE, CliError
from stockade.core.cli.width import terminal_width

# typing costs ~2 ms to import; mypy reads a TYPE_CHECKING of our own the same way
TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Any, NoReturn

    from stockade.core.cli.types import Handler, SubParsers


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, told the width (see ``terminal_width``)."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        width = terminal_width() - 2 if width is None else width
        super().__init__(prog, indent_increment, max_help_position, width)


class RawDescriptionHelpFormatter(HelpFormatter, argparse.RawDescriptionHelpFormatter):
    """argparse's, told the width (see ``terminal_width``)."""


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (``stockade: ...``), exit 2; help
    laid out without importing shutil (``HelpFormatter``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise CliError(f"{message} (see '{self.prog} --help')", USAGE)


def stockade_version() -> str:
    """The installed distribution's version (pyproject.toml), or "unknown" when run
    from a tree that was never installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("stockade")
    except PackageNotFoundError:
        return "unknown"


class VersionAction(argparse.Action):
    """``--version``: asks the installed metadata only when the option is given (reading
    it costs every other command its import time)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS) -> None:
        super().__init__(
            option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="show the version"
        )

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        print(f"stockade {stockade_version()}")
        parser.exit()


def add_command(
    sub: SubParsers[argparse.ArgumentParser],
    name: str,
    summary: str,
    example: str | list[str],
    func: Handler | None = None,
    **defaults: Any,
) -> argparse.ArgumentParser:
    """One subcommand: its one-line summary (in ``stockade --help`` and atop its own
    help) and an example or two (at the foot of its help). Every subcommand is made
    here; tests/cli/test_cli_conventions.py checks that each has both."""
    examples = [example] if isinstance(example, str) else example
    parser = sub.add_parser(
        name,
        help=summary,
        description=summary[:1].upper() + summary[1:] + ".",
        epilog="example"
        + ("s" if len(examples) > 1 else "")
        + ":\n"
        + "\n".join(f"  {e}" for e in examples),
        formatter_class=RawDescriptionHelpFormatter,
    )
    if func is not None:
        parser.set_defaults(func=func, **defaults)
    return parser


def add_json(parser: argparse.ArgumentParser) -> None:
    argspec.JSON.add_to(parser)


def add_file(parser: argparse.ArgumentParser) -> None:
    argspec.FILE.add_to(parser)


__all__ = ["OneLineParser", "VersionAction", "add_command", "add_file", "add_json"]
