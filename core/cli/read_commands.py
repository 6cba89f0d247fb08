"""Subcommands that read one game and write nothing: tally and history. Also the
reading helpers the writing subcommands share (warnings, the history marks)."""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from argparse import Namespace
from pathlib import Path
from typing import TYPE_CHECKING

from stockade.core.cli import folded_tally, jsonout, tally_args
from stockade.core.cli.errors import CliError
from stockade.core.cli.parsing import add_command, add_file, add_json
from stockade.core.cli.tally_report import (
    TallyReport,
    conflicts_warning,
    keep,
    tally_text,
    warning_line,
)
from stockade.core.cli.types import SubParsers
from stockade.core.cli.width import WIDTH, chosen
from stockade.core.model.columns import laid_out

if TYPE_CHECKING:
    from stockade.core.book.game import Game, HistoryEntry
    from stockade.core.book.tally import Tally
    from stockade.core.model.state import GameState


def register(sub: SubParsers[argparse.ArgumentParser]) -> None:
    """Add ``tally`` and ``history`` to the ``stockade`` parser."""
    tally = add_command(sub, "tally", tally_args.SUMMARY, tally_args.EXAMPLES, cmd_tally)
    tally_args.add_arguments(tally)

    history = add_command(
        sub,
        "history",
        "every entry, one sentence each",
        ["stockade history game.jsonl", "stockade history game.jsonl --json"],
        cmd_history,
    )
    add_file(history)
    add_json(history)
    WIDTH.add_to(history)
    history.epilog = f"{marks_legend()}.\n\n{history.epilog}"


def warn(message: str) -> None:
    sys.stderr.write(warning_line(message))


def warn_conflicts(game: Game) -> None:
    """``tally`` and ``history`` on a log with conflicting entries say so on stderr."""
    if game.conflicts:
        warn(conflicts_warning(list(game.conflicts)))


def open_to_read(path: Path) -> Game:
    """Open a log read-only (nothing on disk changes), printing its warnings."""
    from stockade.core.book.game import Game

    game = Game.open(path, read_only=True)
    for message in game.warnings:
        if message != "opened read-only":
            warn(message)
    return game


def state_to_read(path: Path, at: int | None) -> GameState:
    """The game at ``path`` as it stands, or as it stood after entry ``at`` (a read
    command's ``--at N``), its conflicts said on stderr first."""
    game = open_to_read(path)
    warn_conflicts(game)
    if at is None:
        return game.state
    last = len(game.records)
    if not 1 <= at <= last:
        raise CliError(f"--at {at}: the log has entries 1 to {last}")
    return game.state_at(at)


def cmd_tally(args: Namespace, ui: object) -> int:
    """The tally, folded (core/cli/folded_tally.py, which the console script also runs
    without the command line proper)."""
    return folded_tally.fold(args)


def keep_after_write(path: Path, game: Game) -> Tally | None:
    """After ``do`` or ``run`` wrote into the log at ``path`` (``game``, open for
    writing and still holding the lock), keep the report that ``stockade tally PATH``
    (no ``--at``) would fold now, as data, under the digest of the bytes this process
    read at open and then wrote (``LogStore.content``: never the file read again, which
    another program may have changed since the write). Kept only when it is certain to
    be what that fold gives: no warnings at open (a torn tail or an unfinished group set
    aside, which a reader of the file as it is now would not see), no conflicts, no
    failed write. Returns the tally (``do`` prints its consequences from it), or None."""
    from stockade.core.book import tally as tallying

    journal = game.journal
    content = game.store.content_key()
    if content is None or journal is None:
        return None
    if game.warnings or game.conflicts or game.problem is not None:
        return None
    if journal.read_only or journal.poisoned or journal.size != content[0]:
        return None  # a failed write, or bytes this store did not write
    result = tallying.tally(game.state)
    report = TallyReport(result, [], [])
    keep(os.path.realpath(path), str(path), None, content, report)
    return result


MARKS = {
    "ok": " ",
    "undone": "u",
    "abandoned": "s",  # superseded: the glossary's word
    "struck": "x",
    "conflict": "!",
    "control": "·",
    "amended": "~",  # an entry in effect that an amendment mended
}
# what a mark says, where the screens' glossary has no word for it
MARK_WORDS = {"control": "an undo, redo, strike or unstrike", "amended": "amended"}


def marks_legend() -> str:
    """``stockade history``'s marks, each with what it says (the app's words, from
    the glossary), for its help: ``u undone, s superseded, ...``."""
    from stockade.core.reads.glossary import ENTRY_SIGNS

    words = {status: sign.word.lower() for status, sign in ENTRY_SIGNS.items()}
    said = [
        f"{mark} {words.get(status) or MARK_WORDS[status]}"
        for status, mark in MARKS.items()
        if status != "ok"
    ]
    return textwrap.fill("the mark after an entry's number: " + ", ".join(said), 79)


def cmd_history(args: Namespace, ui: object) -> int:
    from stockade.core.book.describe import sentence

    game = open_to_read(args.file)
    warn_conflicts(game)
    if args.json:
        entries = (
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
                "amended_by": entry.amended_by,
                "was": jsonout.record(entry.was) if entry.was is not None else None,
            }
            for entry in game.iter_history()
        )
        jsonout.emit_stream(
            "history", "entries", entries, file=str(args.file), problem=_problem(game)
        )
        return 0
    width = chosen(args)
    for entry in game.iter_history():
        lead, text = history_row(entry, sentence(entry, game))
        for line in laid_out(lead, text, width):
            print(line)
    return 0


def history_row(entry: HistoryEntry, said: str) -> tuple[str, str]:
    """One entry of ``stockade history`` (and ``watch``) as a row: its number and mark,
    then ``said`` (its sentence) and what became of it, the text a narrow terminal
    wraps under itself."""
    from stockade.core.reads.glossary import ENTRY_SIGNS

    mark = MARKS["amended"] if entry.amended_by and entry.status == "ok" else None
    text = said
    if entry.status not in ("ok", "control"):
        # the app's word for it (the glossary's): "superseded", never "abandoned"
        sign = ENTRY_SIGNS.get(entry.status)
        word = sign.word.lower() if sign else entry.status
        text += f"  <{word}{': ' + entry.reason if entry.reason else ''}>"
    elif entry.reason:  # it holds in part (core/rules/partial.py)
        text += f"  <holds in part: {entry.reason}>"
    if entry.amended_by:
        text += f"  <amended by entry {entry.amended_by}>"
    return f"{entry.seq:>5} {mark or MARKS.get(entry.status, '?')} ", text


def _problem(game: Game) -> str | None:
    return str(game.problem) if game.problem else None


__all__ = [
    "cmd_history",
    "cmd_tally",
    "history_row",
    "keep_after_write",
    "open_to_read",
    "register",
    "tally_text",  # core/cli/tally_report.py's, for the modules that printed through here
    "warn",
    "warn_conflicts",
]
