"""Subcommands that take a game beyond one terminal: verify (a log that crossed the
internet), watch (a live second view) and serve (the book in a browser)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from stockade.core.cli.errors import CliError, Exit


def register(sub) -> None:
    """Add ``verify``, ``watch`` and ``serve`` to the ``stockade`` parser."""
    verify = sub.add_parser(
        "verify",
        help="does NEW extend OLD with nothing rewritten? (PBEM: the log your opponent sent)",
    )
    verify.add_argument("old", type=Path, metavar="OLD", help="the copy you kept")
    verify.add_argument("new", type=Path, metavar="NEW", help="the log you received")
    verify.set_defaults(func=cmd_verify)


def cmd_verify(args, ui) -> int:
    """Exit 0 when NEW extends OLD; 6 (REWRITTEN) naming the first differing line."""
    from stockade.core.describe import sentence
    from stockade.core.game import Game
    from stockade.core.logfile import load
    from stockade.core.verify import Unreadable, compare

    try:
        verdict = compare(args.old, args.new)
    except Unreadable as exc:
        raise CliError(str(exc), Exit.DAMAGED) from None
    if not verdict.extends:
        raise CliError(f"{args.new} does not extend {args.old}: {verdict.why}", Exit.REWRITTEN)
    same = f"lines 1-{verdict.old_lines}" if verdict.old_lines > 1 else "line 1"
    print(
        f"{args.new} extends {args.old}: nothing rewritten ({same} the same, byte for "
        f"byte; {verdict.chain})"
    )
    if not verdict.added:
        print("no entries added")
        return Exit.OK
    first, last = verdict.added[0].line, verdict.added[-1].line
    span = f"line {first}" if first == last else f"lines {first}-{last}"
    print(f"{len(verdict.added)} entries added ({span}):")
    game = Game(load(args.new).records)
    entries = {e.seq: e for e in game.history()}
    width = max(len(a.side or "-") for a in verdict.added)
    for added in verdict.added:
        text = sentence(entries[added.record.seq], game)
        print(f"  {added.line:>5}  {(added.side or '-'):<{width}}  {text}")
    sides = Counter(a.side or "(no side)" for a in verdict.added)
    print("sides named on the added entries: " + ", ".join(f"{s} {n}" for s, n in sides.items()))
    return Exit.OK
