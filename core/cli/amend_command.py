"""``stockade amend FILE N 'COMMAND'``: mend entry N where it stands, beside strike and
unstrike. ``--dry-run`` says what it would do (the later entries that would do
something else or no longer hold, the CVP and the verdict) and writes nothing."""

from __future__ import annotations

import argparse
from argparse import Namespace

import msgspec

from stockade.core.book.change import consequences, totals_of
from stockade.core.cli import jsonout
from stockade.core.cli.game_commands import answer
from stockade.core.cli.parsing import add_command, add_file, add_json
from stockade.core.cli.read_commands import open_to_read
from stockade.core.cli.types import SubParsers
from stockade.core.cli.writing import open_to_write
from stockade.core.commands.execute import amend


def register(sub: SubParsers[argparse.ArgumentParser]) -> None:
    p = add_command(
        sub,
        "amend",
        "mend entry N where it stands; later entries are checked again",
        [
            "stockade amend game.jsonl 12 'transfer g1 to a3'",
            "stockade amend game.jsonl 12 'transfer g1 to a3' --dry-run",
        ],
        cmd_amend,
        verb="amend",
    )
    add_file(p)
    p.add_argument("entry", type=int, metavar="N", help="the entry's number (history)")
    p.add_argument(
        "text", metavar="COMMAND", help="what the entry should have been, as typed in the bar"
    )
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="say what the amendment would do (later entries, CVP) and write nothing",
    )
    add_json(p)


def cmd_amend(args: Namespace, ui: object) -> int:
    if args.dry_run:
        game = open_to_read(args.file)
        outcome = amend(game, args.entry, args.text, preview=True)
        change = outcome.change
        assert change is not None
        if args.json:
            jsonout.emit(
                "amend", message=outcome.message, records=[], change=msgspec.to_builtins(change)
            )
            return 0
        print(f"{outcome.message} would (nothing written):")
        from stockade.core.book.tally import tally

        said = consequences(change, totals_of(tally(game.state)))
        for line in said or ["change nothing later, and no CVP"]:
            print(f"  {line}")
        return 0
    game = open_to_write(args.file)
    try:
        outcome = amend(game, args.entry, args.text)
    finally:
        game.close()
    return answer(args, "amend", game, outcome)
