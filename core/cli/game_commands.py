"""Subcommands that write one game: new, do, run, undo, redo, strike, unstrike (amend
is ``core.cli.amend_command``, which takes its reply from here). Each
handler takes ``(args, ui)`` and returns the exit code."""

from __future__ import annotations

import argparse
import json
from argparse import Namespace
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from stockade.core.book.change import consequences, totals_of
from stockade.core.book.game import Game
from stockade.core.book.new_game import create_game, side_spec
from stockade.core.cli import jsonout
from stockade.core.cli.errors import CliError, Exit
from stockade.core.cli.parsing import add_command, add_file, add_json
from stockade.core.cli.read_commands import keep_after_write, open_to_read
from stockade.core.cli.types import SubParsers
from stockade.core.cli.width import WIDTH, chosen
from stockade.core.cli.writing import open_to_write, reply_of
from stockade.core.commands import (
    Outcome,
    control,
    execute,
    told,
    writes_nothing,
)
from stockade.core.commands.handles import Context
from stockade.core.commands.verbs_victory import read_conditions
from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal, Refusal
from stockade.core.model.plural import agree, no_longer_hold
from stockade.core.model.visible import json_visible

if TYPE_CHECKING:
    from stockade.core.book.tally import Tally


def register(sub: SubParsers[argparse.ArgumentParser]) -> None:
    """Add ``new``, ``do``, ``run``, ``undo``, ``redo``, ``strike`` and ``unstrike``."""
    new = add_command(
        sub,
        "new",
        "start a new game log",
        "stockade new game.jsonl --scenario 'ASL 1' --side Russian:Russian:3 --side German:German",
        cmd_new,
    )
    add_file(new)
    new.add_argument("--scenario", required=True, help="the scenario's name")
    new.add_argument(
        "--side",
        action="append",
        required=True,
        metavar="NAME:NATIONALITY[:ELR]",
        help="a side (give two); ELR defaults to 3",
    )
    new.add_argument(
        "--attacker", metavar="SIDE", help="the side that moves first (default: the first --side)"
    )
    new.add_argument("--vc", default="", metavar="CONDITIONS", help="Victory Conditions (as 'vc')")
    new.add_argument("--vc-card", default="", metavar="WORDS", help="the card's own words")
    new.add_argument(
        "--strict",
        action="store_true",
        help="the players record every board fact (break, move, phase): no entry implies one",
    )
    add_json(new)

    do = add_command(
        sub,
        "do",
        "record one command of the command language",
        ["stockade do game.jsonl 'surrender g1 to a1'", "stockade do game.jsonl next --json"],
        cmd_do,
    )
    add_file(do)
    do.add_argument("text", metavar="COMMAND", help="one line, as typed in the TUI's ':' bar")
    add_json(do)
    WIDTH.add_to(do)

    run = add_command(
        sub,
        "run",
        "record a script of commands, one a line; all or nothing",
        ["stockade run game.jsonl turn2.txt", "echo next | stockade run game.jsonl -"],
        cmd_run,
    )
    add_file(run)
    run.add_argument("script", metavar="SCRIPT", help="a file of commands, or '-' for stdin")
    run.add_argument("-q", "--quiet", action="store_true", help="print nothing but errors")
    add_json(run)

    for verb, summary in (
        ("undo", "take back the last entry"),
        ("redo", "bring back the last undone entry"),
    ):
        p = add_command(sub, verb, summary, f"stockade {verb} game.jsonl", cmd_control, verb=verb)
        add_file(p)
        add_json(p)
        WIDTH.add_to(p)

    strike = add_command(
        sub,
        "strike",
        "strike entry N; later entries are checked again",
        "stockade strike game.jsonl 12 --reason 'wrong hex'",
        cmd_control,
        verb="strike",
    )
    add_file(strike)
    strike.add_argument("entry", type=int, metavar="N", help="the entry's number (history)")
    strike.add_argument("--reason", default="", help="why (kept in the history)")
    strike.add_argument(
        "--dry-run",
        action="store_true",
        help="say what the strike would do (later entries, CVP) and write nothing",
    )
    add_json(strike)
    WIDTH.add_to(strike)

    unstrike = add_command(
        sub,
        "unstrike",
        "bring back struck entry N",
        "stockade unstrike game.jsonl 12",
        cmd_control,
        verb="unstrike",
        reason="",
    )
    add_file(unstrike)
    unstrike.add_argument("entry", type=int, metavar="N", help="the struck entry's number")
    unstrike.add_argument(
        "--dry-run",
        action="store_true",
        help="say what bringing it back would do and write nothing",
    )
    add_json(unstrike)
    WIDTH.add_to(unstrike)


# ------------------------------------------------------------------------- new
def parse_side(text: str) -> ev.SideSpec:
    parts = text.split(":")
    if len(parts) not in (2, 3) or not all(p.strip() for p in parts):
        raise CliError(f"--side '{text}': write NAME:NATIONALITY or NAME:NATIONALITY:ELR")
    try:
        return side_spec(*parts)
    except Refusal as refusal:
        raise CliError(f"--side '{text}': {refusal}") from None


def new_game(
    path: Path,
    scenario: str,
    side_texts: list[str],
    attacker_text: str = "",
    vc_text: str = "",
    vc_card: str = "",
    strict: bool = False,
) -> Game:
    """Create a game log from the words ``stockade new`` takes: two sides as
    ``NAME:NATIONALITY[:ELR]``, the first attacker by name, and the Victory Conditions
    as the ``vc`` verb reads them (``core.book.new_game``).

    Raises ``CliError`` for input it cannot read, ``Refusal`` for a header the rules
    refuse and ``JournalError`` when the file cannot be made (it exists, no room)."""
    sides = [parse_side(s) for s in side_texts]
    conditions = None
    if vc_text.strip() or vc_card.strip():
        if not vc_text.strip():
            raise CliError("--vc-card keeps the card's words beside --vc: give --vc too")
        trial = Game.in_memory(scenario.strip() or "new", sides)  # to read the sides' names
        side_of = Context(trial.state).side
        conditions = read_conditions(vc_text, side_of, " ".join(vc_card.split()))
    try:
        return create_game(path, scenario, sides, attacker_text, conditions, strict)
    except InputRefusal as refusal:
        raise CliError(refusal.text) from None


def cmd_new(args: Namespace, ui: object) -> int:
    game = new_game(
        args.file,
        args.scenario,
        args.side,
        args.attacker or "",
        args.vc,
        args.vc_card,
        args.strict,
    )
    sides = list(game.state.sides.values())
    game.close()
    if args.json:
        jsonout.emit("new", file=str(args.file), records=[jsonout.record(r) for r in game.records])
        return 0
    print(
        f"created {args.file}: {args.scenario}, "
        + " vs ".join(f"{s.name} ({s.nationality}, ELR {s.elr})" for s in sides)
        + ("; strict: every board fact is recorded by the players" if args.strict else "")
    )
    return 0


# ------------------------------------------------------------------ do and run
def cmd_do(args: Namespace, ui: object) -> int:
    # One read, one fold, one parse, one check, one encode: the game opened for writing
    # is the one the command is tried on (``submit`` checks before it writes, so a
    # refused command writes nothing).
    if writes_nothing(args.text):  # help: read the game, never wait for its write lock
        game = open_to_read(args.file)
        try:
            return answer(args, "do", game, execute(game, args.text))
        finally:
            game.close()
    game = open_to_write(args.file)
    try:
        outcome = execute(game, args.text)
        standing = keep_after_write(args.file, game)  # before close: the lock is still held
    finally:
        game.close()
    return answer(args, "do", game, outcome, standing)


def cmd_run(args: Namespace, ui: object) -> int:
    from stockade.core.cli.run_command import cmd_run as run  # imported when run

    return run(args, ui)


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
    return answer(args, args.verb, game, outcome)


def answer(
    args: Namespace, verb: str, game: Game, outcome: Outcome, standing: Tally | None = None
) -> int:
    """Print what one entry did (its reply, then its consequences; or the JSON reply)
    and return the exit code: 4 (Exit.CONFLICTS) when it was done but left entries in
    the history that no longer hold, whether typed as ``do 'strike 2'`` or ``strike``."""
    code = Exit.CONFLICTS if outcome.change and outcome.change.leaves_conflicts else Exit.OK
    if args.json:
        reply = reply_of(outcome)
        if code != Exit.OK:  # "ok" is true exactly when the exit code is 0
            n = outcome.change.conflicts if outcome.change else 0
            reply["error"] = {
                "exit": int(code),
                "message": f"done, but {no_longer_hold(n)}; strike or fix {agree(n, 'it', 'them')}",
                "rule": None,
                "kind": "conflicts",
            }
        envelope = jsonout.envelope(verb, ok=code == Exit.OK, **reply)
        print(json_visible(json.dumps(envelope, indent=2, ensure_ascii=False)))
        return code
    for line in told(game, outcome, standing, chosen(args)):
        print(line)
    return code


__all__ = ["cmd_control", "cmd_do", "cmd_new", "cmd_run", "new_game", "register"]
