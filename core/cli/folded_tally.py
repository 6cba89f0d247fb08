"""``stockade tally`` folded from the log: the command itself (``fold``, which the
command line proper runs for ``tally``), and the same command started without the
command line proper (``answer``), when the derived store had no report for it.

``answer`` reads ``tally``'s arguments with ``tally``'s own declarations
(core/cli/tally_args.py, the strict reader that answers only a line argparse reads the
same way) and runs ``fold`` through the failure handling every command has
(core/cli/guard.py) with the same visible output: argparse, its parser of every
subcommand and the writer a game opens with are not imported for a read. Any other
line is None, and the command line proper reads it and says what is wrong.

Imports neither argparse, msgspec nor the model: the fold's modules load in ``fold``.
"""

from __future__ import annotations

import os
import sys

from stockade.core.cli import tally_args
from stockade.core.cli.errors import CliError
from stockade.core.cli.tally_report import TallyReport, keep, render, warnings_text

TYPE_CHECKING = False  # typing costs ~2 ms to import; mypy reads this the same way

if TYPE_CHECKING:
    from argparse import Namespace

    from stockade.core.cli import argspec


def answer(argv: list[str]) -> int | None:
    """Fold and print the tally for ``argv`` (``["tally", ...]``) and return its exit
    code, or None (nothing done) for a line the command line proper must read."""
    if not argv or argv[0] != "tally" or "_ARGCOMPLETE" in os.environ:
        return None
    from stockade.core.log import derived

    # first, as the command line proper takes it: the code and data before any is read
    derived.code_fingerprint()
    args = tally_args.parse(argv[1:])
    if args is None:
        return None
    from stockade.core.cli.guard import guarded
    from stockade.core.cli.output import visible_output

    def run() -> int:
        with visible_output():  # nothing from a log or an argument drives the terminal
            return fold(args)

    return guarded(argv, run)


def fold(args: Namespace | argspec.Namespace) -> int:
    """The tally, folded, printed from its report (``tally_report.render``, as the
    answer from the store prints it), and the report kept in the log's derived store
    under the digest of the very bytes this fold read.

    The log is opened read-only as ``Game.open`` opens it (``core.book.game_parts``:
    the store, the timeline, the fold), without the writer a game adds on top."""
    try:
        from stockade.core.book import tally as tallying
        from stockade.core.book.game_parts import open_parts
    except ImportError as exc:
        raise CliError(f"the tally is not available in this build ({exc})") from None
    # no undo journal unless ``--at`` asks for an earlier state (``state_at`` reads it)
    store, _timeline, projection = open_parts(args.file, read_only=True, undo=args.at is not None)
    warnings = [m for m in store.warnings if m != "opened read-only"]
    conflicts = sorted(projection.conflicts)
    state = projection.state
    if args.at is not None:
        last = len(store.records)
        if not 1 <= args.at <= last:
            sys.stderr.write(warnings_text(warnings, conflicts))
            raise CliError(f"--at {args.at}: the log has entries 1 to {last}")
        state = projection.state_at(args.at)
    report = TallyReport(tallying.tally(state), warnings, conflicts)
    err, out = render(report, args)
    sys.stderr.write(err)
    sys.stdout.write(out)
    content = store.content_key()
    if content is not None:
        keep(os.path.realpath(args.file), str(args.file), args.at, content, report)
    return 0


__all__ = ["answer", "fold"]
