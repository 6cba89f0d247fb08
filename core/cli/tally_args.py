"""The ``tally`` command's arguments, defined once: the command line proper
(core/cli/read_commands.py) builds its ``tally`` from ``add_arguments``, and the tally
answered from the derived store (core/cli/stored_tally.py) reads its command line with
the same arguments (``parse``), so the two can never read one command line two ways.

Imports argparse and the parser's pieces only (no model, no msgspec).
"""

from __future__ import annotations

import argparse

from stockade.core.cli.parsing import HelpFormatter, add_file, add_json

TYPE_CHECKING = False  # typing costs ~2 ms to import; mypy reads this the same way

if TYPE_CHECKING:
    from typing import NoReturn

FORMATS = ("text", "md", "html", "bbcode", "csv")
DEFAULT_FORMAT = "text"
SUMMARY = "the CVP tally, every line explained"
EXAMPLES = ["stockade tally game.jsonl", "stockade tally game.jsonl --format bbcode --at 40"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``tally``'s arguments: FILE, --json, --at N, --format F."""
    add_file(parser)
    add_json(parser)
    parser.add_argument("--at", type=int, metavar="N", help="as it stood after entry N")
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default=DEFAULT_FORMAT,
        help="text (default), md (Markdown), html, bbcode (forums) or csv",
    )


class _NotPlain(Exception):
    """The command line is one only the command line proper answers (an error, help)."""


class _QuietParser(argparse.ArgumentParser):
    """Says nothing and exits nowhere: any error or exit is the full path's to make."""

    def error(self, message: str) -> NoReturn:
        raise _NotPlain(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        raise _NotPlain(message or "")


def parse(argv: list[str]) -> argparse.Namespace | None:
    """``tally``'s arguments (``argv`` after the word ``tally``) as the command line
    proper reads them, or None for one it would refuse or answer with help (the
    quiet parser has no ``--help``: such a line is the full path's to answer)."""
    parser = _QuietParser(prog="stockade tally", add_help=False, formatter_class=HelpFormatter)
    add_arguments(parser)
    try:
        return parser.parse_args(argv)
    except _NotPlain:
        return None


__all__ = ["DEFAULT_FORMAT", "EXAMPLES", "FORMATS", "SUMMARY", "add_arguments", "parse"]
