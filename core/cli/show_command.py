"""``stockade show FILE [--at N] [--json]``: the board as text (every unit, each side's
ELR, No Quarter and Massacre), for a plain terminal, a script or a PBEM opponent.
Self-contained: arguments.py names it in ``SUBCOMMANDS``."""

from __future__ import annotations

import argparse
import sys

from stockade.core.cli.errors import Exit
from stockade.core.cli.parsing import add_command, add_file, add_json
from stockade.core.cli.types import SubParsers
from stockade.core.cli.width import WIDTH, chosen


def register(sub: SubParsers[argparse.ArgumentParser]) -> None:
    """Add ``show``."""
    show = add_command(
        sub,
        "show",
        "every unit (side, counter, Location, status, Guard, Melee) and each side's flags",
        ["stockade show game.jsonl", "stockade show game.jsonl --at 40 --json"],
        cmd_show,
    )
    add_file(show)
    show.add_argument("--at", type=int, metavar="N", help="as it stood after entry N")
    add_json(show)
    WIDTH.add_to(show)


def cmd_show(args: argparse.Namespace, ui: object) -> int:
    import msgspec

    from stockade.core.cli.read_commands import state_to_read
    from stockade.core.reads.board import board, board_lines, unit_rows

    state = state_to_read(args.file, args.at)
    if getattr(args, "json", False):
        from stockade.core.cli.jsonout import emit

        emit("show", at=args.at, **msgspec.to_builtins(board(state)))
        return Exit.OK
    # written a line at a time: a campaign's rows and text are never held whole
    sys.stdout.writelines(
        line + "\n"
        for line in board_lines(board(state, units=False), unit_rows(state), chosen(args))
    )
    return Exit.OK
