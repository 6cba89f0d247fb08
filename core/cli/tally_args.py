"""The ``tally`` command's arguments, defined once, as data (core/cli/argspec.py): the
command line proper (core/cli/read_commands.py) hands them to argparse
(``add_arguments``), and the tally answered from the derived store
(core/cli/stored_tally.py) reads its command line with the same declarations
(``parse``), which answers only a line argparse is certain to read the same way.

Imports no argparse, no model, no msgspec.
"""

from __future__ import annotations

from stockade.core.cli import argspec, width

TYPE_CHECKING = False  # typing costs ~2 ms to import; mypy reads this the same way

if TYPE_CHECKING:
    from typing import Any

FORMATS = ("text", "md", "html", "bbcode", "csv")
DEFAULT_FORMAT = "text"
SUMMARY = "the CVP tally, every line explained"
EXAMPLES = ["stockade tally game.jsonl", "stockade tally game.jsonl --format bbcode --at 40"]

ARGUMENTS = (
    argspec.FILE,
    argspec.JSON,
    argspec.Option("--at", "as it stood after entry N", type=int, metavar="N"),
    argspec.Option(
        "--format",
        "text (default), md (Markdown), html, bbcode (forums) or csv",
        choices=FORMATS,
        default=DEFAULT_FORMAT,
    ),
    width.WIDTH,
)


def add_arguments(parser: Any) -> None:
    """``tally``'s arguments (an argparse parser): FILE, --json, --at N, --format F,
    --width N."""
    for argument in ARGUMENTS:
        argument.add_to(parser)


def parse(argv: list[str]) -> argspec.Namespace | None:
    """``tally``'s arguments (``argv`` after the word ``tally``) as the command line
    proper reads them, or None for a line only argparse may read (an error, help, an
    option written in a way the strict reader does not take)."""
    return argspec.read(argv, ARGUMENTS)


__all__ = [
    "ARGUMENTS",
    "DEFAULT_FORMAT",
    "EXAMPLES",
    "FORMATS",
    "SUMMARY",
    "add_arguments",
    "parse",
]
