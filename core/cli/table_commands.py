"""Subcommands that take a game beyond one terminal: verify (a log that crossed the
internet), watch (a live second view) and serve (the book in a browser)."""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stockade.core.cli.errors import CliError, Exit
from stockade.core.cli.parsing import add_command
from stockade.core.cli.types import SubParsers
from stockade.core.cli.width import WIDTH, chosen
from stockade.core.model.columns import laid_out, lead
from stockade.core.model.plural import counted, entries

if TYPE_CHECKING:
    from stockade.core.book.game import Game
    from stockade.core.model import events as ev


def register(sub: SubParsers[argparse.ArgumentParser]) -> None:
    """Add ``verify``, ``watch`` and ``serve`` to the ``stockade`` parser."""
    verify = add_command(
        sub,
        "verify",
        "does NEW (the log your opponent sent) extend OLD (the copy you kept) with "
        "nothing rewritten? Exit 6 naming the first line that differs",
        "stockade verify kept.jsonl received.jsonl",
        cmd_verify,
    )
    verify.add_argument("old", type=Path, metavar="OLD", help="the copy you kept")
    verify.add_argument("new", type=Path, metavar="NEW", help="the log you received")
    WIDTH.add_to(verify)

    watch = add_command(
        sub,
        "watch",
        "follow a game another window writes: each new entry and the change to the tally, "
        "as they come",
        ["stockade watch game.jsonl", "stockade watch game.jsonl --last 20"],
        cmd_watch,
    )
    watch.add_argument("file", type=Path, metavar="FILE")
    watch.add_argument(
        "--last", type=int, default=5, metavar="N", help="entries to show first (default 5)"
    )
    watch.add_argument(
        "--until", type=int, metavar="N", help="stop once the log holds N entries (scripts)"
    )
    watch.add_argument("--interval", type=float, default=0.25, metavar="S", help=argparse.SUPPRESS)
    WIDTH.add_to(watch)

    serve = add_command(
        sub,
        "serve",
        "the app in a browser, on 127.0.0.1; --lan for a tablet at the table, with a secret link",
        ["stockade serve game.jsonl", "stockade serve game.jsonl --lan"],
        cmd_serve,
    )
    serve.add_argument("file", type=Path, nargs="?", metavar="FILE")
    serve.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    serve.add_argument(
        "--lan",
        action="store_true",
        help="listen on the local network (a tablet at the table); requires the secret link",
    )
    serve.add_argument("--host", metavar="ADDRESS", help="listen on this address instead")
    serve.add_argument(
        "--require-token",
        action="store_true",
        help="the secret link is required (the default; kept for scripts)",
    )
    serve.add_argument(
        "--no-token",
        action="store_true",
        help="no secret link on 127.0.0.1 (any web page on this machine can then play)",
    )
    serve.add_argument(
        "--max-sessions",
        type=int,
        default=4,
        metavar="N",
        help="browser sessions at once, each a process (default 4)",
    )


def cmd_verify(args: argparse.Namespace, ui: Any) -> int:
    """Exit 0 when NEW extends OLD; 6 (REWRITTEN) naming the first differing line."""
    from stockade.core.book.describe import sentence_for
    from stockade.core.book.game import Game
    from stockade.core.book.names_replay import names_when_written
    from stockade.core.log.game_log import load
    from stockade.core.model import events as ev
    from stockade.core.reads.verify import Unreadable, compare

    try:
        verdict = compare(args.old, args.new)
    except Unreadable as exc:
        raise CliError(str(exc), Exit.DAMAGED) from None
    if not verdict.extends:
        raise CliError(f"{args.new} does not extend {args.old}: {verdict.why}", Exit.REWRITTEN)
    same = f"lines 1-{verdict.old_lines}" if verdict.old_lines > 1 else "line 1"
    said = (
        f"extends {args.old}: nothing rewritten ({same} the same, byte for byte; {verdict.chain})"
    )
    for line in laid_out(f"{args.new} ", said, chosen(args)):  # a path is one word
        print(line)
    if not verdict.added:
        print("no entries added")
        return Exit.OK
    first, last = verdict.added[0].line, verdict.added[-1].line
    span = f"line {first}" if first == last else f"lines {first}-{last}"
    print(f"{entries(len(verdict.added))} added ({span}):")
    records = load(args.new).records
    game = Game.load(records)
    # An added entry that no longer holds is worded with the names it had when it
    # was written: the fold names it from the history as it stands now.
    conflicting = {a.record.seq for a in verdict.added if a.record.seq in game.conflicts}
    then = names_when_written(records, conflicting)
    side_w = max(len(a.side or "-") for a in verdict.added)
    width = chosen(args)
    for added in verdict.added:
        text = sentence_for(added.record, game, then=then.get(added.record.seq))
        if added.acts_on:
            text += f" (an entry naming {added.acts_on})"
        cells = (f"{added.line:>5}", added.side or "-")
        for line in laid_out(lead(cells, (5, side_w), indent="  "), text, width):
            print(line)
    controls = sum(1 for a in verdict.added if ev.is_control(a.record))
    sides = Counter(a.side or "(no side)" for a in verdict.added if not ev.is_control(a.record))
    named = ", ".join(f"{s} {n}" for s, n in sides.items()) or "none"
    print(f"sides named on the added entries: {named}")
    if controls:
        print(
            f"and {counted(controls, 'undo, redo, strike or amend record')}, listed under "
            "'-': the log does not say who made them"
        )
    return Exit.OK


# ------------------------------------------------------------------------- watch
def _history_lines(game: Game, record: ev.Record, width: int | None) -> list[str]:
    """``record`` as ``stockade history`` prints it (its row, ``history_row``)."""
    from stockade.core.book.describe import sentence
    from stockade.core.book.game import HistoryEntry
    from stockade.core.cli.read_commands import history_row

    status, reason = game.entry_status(record)
    turn, phase, attacker = game.when.get(record.seq, (0, "", ""))
    entry = HistoryEntry(record.seq, record.grp, record, status, reason, turn, phase, attacker)
    return laid_out(*history_row(entry, sentence(entry, game)), width)


def _points(game: Game) -> dict[str, tuple[int, int]]:
    from stockade.core.book.tally import tally

    return {n: (s.cvp, s.cvp_if_ended) for n, s in tally(game.state).sides.items()}


def _verdict(game: Game) -> str:
    """The verdict's headline ("" for a game without Victory Conditions)."""
    from stockade.core.book.tally import cvp_if_ended
    from stockade.core.book.verdict import judge

    verdict = judge(game.state, cvp_if_ended(game.state))
    return "" if verdict is None else verdict.headline


def tally_delta(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]) -> str:
    """One line naming each side whose CVP changed ("" when none did)."""
    parts = []
    for side, (cvp, if_ended) in after.items():
        was, was_if = before.get(side, (0, 0))
        if (cvp, if_ended) == (was, was_if):
            continue
        changes = []
        if cvp != was:
            changes.append(f"{was} -> {cvp} CVP ({cvp - was:+d})")
        if if_ended != was_if:
            changes.append(f"if the game ended now {was_if} -> {if_ended} ({if_ended - was_if:+d})")
        text = f"{side} " + ", ".join(changes)
        parts.append(text)
    return "tally: " + "; ".join(parts) if parts else ""


def cmd_watch(args: argparse.Namespace, ui: Any) -> int:
    """Print every entry another process appends, and the change to the tally, until
    Ctrl-C (or ``--until``). Only reads the log."""
    from stockade.core.book.follow import GameFollower

    follower = GameFollower(args.file)
    game = follower.game
    for message in game.warnings:
        if message != "opened read-only":
            print(f"stockade: warning: {message}", file=sys.stderr)
    state = game.state
    print(
        f"watching {args.file}: {entries(len(game.records))}, Turn {state.turn} "
        f"{state.attacker} {state.phase} (Ctrl-C to stop)",
        flush=True,
    )
    width = chosen(args)
    for record in game.records[-args.last :] if args.last > 0 else []:
        print(*_history_lines(game, record, width), sep="\n")
    points, verdict = _points(game), _verdict(game)
    try:
        while args.until is None or len(follower.game.records) < args.until:
            time.sleep(args.interval)
            new, why = follower.poll()
            game = follower.game
            if why:
                print(f"-- {why}: read again from the top ({entries(len(game.records))})")
            for record in new:
                print(*_history_lines(game, record, width), sep="\n")
            now = _points(game)
            delta = tally_delta(points, now)
            if delta:
                print(*laid_out("      ", delta, width), sep="\n")
            points = now
            said = _verdict(game)
            if said != verdict and said:
                print(*laid_out("      verdict: ", said, width), sep="\n")
            verdict = said
            sys.stdout.flush()
    except KeyboardInterrupt:
        pass  # Ctrl-C is how a watch ends
    return Exit.OK


# ------------------------------------------------------------------------- serve
def cmd_serve(args: argparse.Namespace, ui: Any) -> int:
    """Serve the app to browsers; the UI side does it (core never imports Textual)."""
    if ui is None or not hasattr(ui, "serve"):
        raise CliError("no UI to serve here; run the 'stockade' program", Exit.USAGE)
    if args.file is not None and not args.file.is_file():
        raise CliError(f"{args.file}: no such game log")
    return int(
        ui.serve(
            args.file,
            port=args.port,
            lan=args.lan,
            host=args.host,
            no_token=args.no_token and not args.require_token,
            max_sessions=args.max_sessions,
        )
        or 0
    )
