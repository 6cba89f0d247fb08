"""Subcommands that read or write one game: new, do, run, tally, history, undo, redo,
strike, unstrike. Each handler takes ``(args, ui)`` and returns the exit code."""

from __future__ import annotations

import json
import sys
from argparse import Namespace
from pathlib import Path
from typing import Any

import msgspec

from stockade.core.book.change import Change, consequences, totals_of
from stockade.core.book.describe import sentence
from stockade.core.book.game import Game
from stockade.core.book.new_game import create_game, side_spec
from stockade.core.cli import jsonout
from stockade.core.cli.errors import CliError, Exit
from stockade.core.commands import Outcome, ScriptRefusal, control, execute, run_script
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal


def warn(message: str) -> None:
    print(f"stockade: warning: {message}", file=sys.stderr)


def print_consequences(game: Game, change: Change | None) -> None:
    """The change's consequences, one indented line each, after the one-line reply."""
    if change is None:
        return
    from stockade.core.book.tally import tally

    for line in consequences(change, totals_of(tally(game.state))):
        print(f"  {line}")


def warn_conflicts(game: Game) -> None:
    """``tally`` and ``history`` on a log with conflicting entries say so on stderr."""
    if game.conflicts:
        n = len(game.conflicts)
        seqs = ", ".join(str(s) for s in sorted(game.conflicts)[:10])
        warn(
            f"{n} entr{'y' if n == 1 else 'ies'} no longer hold{'s' if n == 1 else ''} "
            f"({seqs}{', ...' if n > 10 else ''}): they are skipped until struck or fixed "
            "(stockade check lists them)"
        )


def open_to_read(path: Path) -> Game:
    """Open a log read-only (nothing on disk changes), printing its warnings."""
    game = Game.open(path, read_only=True)
    for message in game.warnings:
        if message != "opened read-only":
            warn(message)
    return game


def open_to_write(path: Path) -> Game:
    """Open a log for writing; refuse, naming why, when it cannot be written."""
    game = Game.open(path)
    if game.read_only:  # one line saying why, not the warnings and then the refusal
        game.close()
        why = game.problem or (game.journal.why_read_only if game.journal else "read-only")
        code = (
            Exit.DAMAGED if game.problem else Exit.LOCKED if _held_elsewhere(game) else Exit.REFUSED
        )
        raise CliError(f"{path}: cannot record into it ({why}); nothing was recorded", code)
    for message in game.warnings:
        warn(message)
    return game


def _held_elsewhere(game: Game) -> bool:
    return bool(game.journal and game.journal.lock_held_elsewhere)


def _rehearsal(path: Path) -> Game:
    """An in-memory copy of the game: commands are tried here first, so a refused
    command or script leaves the file byte for byte as it was."""
    game = Game.open(path, read_only=True)
    if game.problem:  # one line: the refusal names the bad line itself
        raise CliError(
            f"{path}: damaged at {game.problem}; nothing was recorded "
            f"(stockade repair {path} writes a repaired copy)",
            Exit.DAMAGED,
        )
    return Game(list(game.records))


# ------------------------------------------------------------------------- new
def parse_side(text: str) -> ev.SideSpec:
    parts = text.split(":")
    if len(parts) not in (2, 3) or not all(p.strip() for p in parts):
        raise CliError(f"--side '{text}': write NAME:NATIONALITY or NAME:NATIONALITY:ELR")
    try:
        return side_spec(*parts)
    except Refusal as refusal:
        raise CliError(f"--side '{text}': {refusal.text}") from None


def new_game(path: Path, scenario: str, side_texts: list[str], attacker_text: str = "") -> Game:
    """Create a game log from the words ``stockade new`` takes: two sides as
    ``NAME:NATIONALITY[:ELR]``, the first attacker by name (``core.book.new_game``).

    Raises ``CliError`` for input it cannot read, ``Refusal`` for a header the rules
    refuse and ``JournalError`` when the file cannot be made (it exists, no room)."""
    sides = [parse_side(s) for s in side_texts]
    try:
        return create_game(path, scenario, sides, attacker_text)
    except Refusal as refusal:
        if refusal.rule == "input":
            raise CliError(refusal.text) from None
        raise


def cmd_new(args: Namespace, ui: object) -> int:
    game = new_game(args.file, args.scenario, args.side, args.attacker or "")
    sides = list(game.state.sides.values())
    game.close()
    if args.json:
        jsonout.emit("new", file=str(args.file), records=[jsonout.record(r) for r in game.records])
        return 0
    print(
        f"created {args.file}: {args.scenario}, "
        + " vs ".join(f"{s.name} ({s.nationality}, ELR {s.elr})" for s in sides)
    )
    return 0


# ------------------------------------------------------------------ do and run
def cmd_do(args: Namespace, ui: object) -> int:
    execute(_rehearsal(args.file), args.text)  # raises the Refusal; nothing written
    game = open_to_write(args.file)
    try:
        outcome = execute(game, args.text)
    finally:
        game.close()
    message = outcome.message
    if args.json:
        jsonout.emit("do", **_reply(outcome))
        return 0
    if message:
        print(message)
    print_consequences(game, outcome.change)
    return 0


def read_script(name: str) -> list[str]:
    if name == "-":
        return sys.stdin.read().splitlines()
    try:
        return Path(name).read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise CliError(f"{name}: no such script") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"{name}: cannot read the script ({exc})") from None


def cmd_run(args: Namespace, ui: object) -> int:
    lines = read_script(args.script)
    label = "stdin" if args.script == "-" else args.script
    try:
        run_script(_rehearsal(args.file), lines)
    except ScriptRefusal as refusal:
        raise CliError(f"{label} {refusal}; nothing was recorded") from None
    game = open_to_write(args.file)
    try:
        outcomes = run_script(game, lines)
    finally:
        game.close()
    if args.json:
        replies = [{"line": n, **_reply(o)} for n, o in enumerate(outcomes, 1) if o.records]
        jsonout.emit("run", outcomes=replies)
        return 0
    if not args.quiet:
        for outcome in outcomes:
            if outcome.message:
                print(outcome.message)
    return 0


def _reply(outcome: Outcome) -> dict[str, Any]:
    """A do/run/undo/... reply: what the player would read, and the records written."""
    return {
        "message": outcome.message,
        "records": [jsonout.record(r) for r in outcome.records],
        # what the write did (core.book.change.Change): later entries, units, CVP deltas
        "change": msgspec.to_builtins(outcome.change) if outcome.change else None,
    }


# --------------------------------------------------------------- tally, history
TALLY_FORMATS = ("text", "md", "html", "bbcode", "csv")


def cmd_tally(args: Namespace, ui: object) -> int:
    try:
        from stockade.core.book import tally as tallying
        from stockade.core.reads import tally_formats
    except ImportError as exc:
        raise CliError(f"the tally is not available in this build ({exc})") from None
    game = open_to_read(args.file)
    warn_conflicts(game)
    state = game.state
    if args.at is not None:
        last = len(game.records)
        if not 1 <= args.at <= last:
            raise CliError(f"--at {args.at}: the log has entries 1 to {last}")
        state = game.state_at(args.at)
    result = tallying.tally(state)
    if args.json:
        jsonout.emit("tally", at=args.at, **tallying.to_json(result))
        return 0
    render = {
        "text": tallying.to_text,
        "md": tallying.to_markdown,
        "html": tallying.to_html,
        "bbcode": tally_formats.to_bbcode,
        "csv": tally_formats.to_csv,
    }
    sys.stdout.write(render[args.format](result).rstrip("\n") + "\n")
    return 0


_MARKS = {
    "ok": " ",
    "undone": "u",
    "abandoned": "a",
    "struck": "x",
    "conflict": "!",
    "control": "·",
}


def cmd_history(args: Namespace, ui: object) -> int:
    game = open_to_read(args.file)
    warn_conflicts(game)
    if args.json:
        entries = [
            {
                "seq": entry.seq,
                "group": entry.grp,
                "status": entry.status,
                "reason": entry.reason,
                "rule": entry.rule,
                "turn": entry.turn,
                "phase": entry.phase,
                "attacker": entry.attacker,
                "sentence": sentence(entry, game),
                "record": jsonout.record(entry.record),
            }
            for entry in game.history()
        ]
        jsonout.emit("history", file=str(args.file), problem=_problem(game), entries=entries)
        return 0
    for entry in game.history():
        line = f"{entry.seq:>5} {_MARKS.get(entry.status, '?')} {sentence(entry, game)}"
        if entry.status not in ("ok", "control"):
            line += f"  <{entry.status}{': ' + entry.reason if entry.reason else ''}>"
        print(line)
    return 0


# ------------------------------------------------------------ undo, redo, strike
def cmd_preview(args: Namespace) -> int:
    """``strike``/``unstrike --dry-run``: the core's preview, nothing written."""
    game = open_to_read(args.file)
    preview = {"strike": game.preview_strike, "unstrike": game.preview_unstrike}[args.verb]
    change = preview(args.entry)
    if args.json:
        jsonout.emit(args.verb, message="", records=[], change=msgspec.to_builtins(change))
        return 0
    print(f"{args.verb} {args.entry} would (nothing written):")
    from stockade.core.book.tally import tally

    said = consequences(change, totals_of(tally(game.state)))
    for line in said or ["change nothing later, and no CVP"]:
        print(f"  {line}")
    return 0


def cmd_control(args: Namespace, ui: object) -> int:
    if getattr(args, "dry_run", False):
        return cmd_preview(args)
    game = open_to_write(args.file)
    try:
        outcome = control(
            game, args.verb, getattr(args, "entry", None), getattr(args, "reason", "")
        )
    finally:
        game.close()
    # exit 4 (Exit.CONFLICTS) when done but the history is left with conflicts
    code = Exit.CONFLICTS if outcome.change and outcome.change.leaves_conflicts else Exit.OK
    if args.json:
        reply = _reply(outcome)
        if code != Exit.OK:  # "ok" is true exactly when the exit code is 0
            n = outcome.change.conflicts if outcome.change else 0
            reply["error"] = {
                "exit": int(code),
                "message": f"done, but {n} entries no longer hold; strike or fix them",
                "rule": None,
            }
        envelope = jsonout.envelope(args.verb, ok=code == Exit.OK, **reply)
        print(json.dumps(envelope, indent=2, ensure_ascii=False))
        return code
    print(outcome.message)
    print_consequences(game, outcome.change)
    return code


def _problem(game: Game) -> str | None:
    return str(game.problem) if game.problem else None


__all__ = ["cmd_new", "cmd_do", "cmd_run", "cmd_tally", "cmd_history", "cmd_control"]
