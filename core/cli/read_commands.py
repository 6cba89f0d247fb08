"""Subcommands that read one game and write nothing: tally and history. Also the
reading helpers the writing subcommands share (warnings, the history marks)."""

from __future__ import annotations

import argparse
import os
import sys
from argparse import Namespace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from stockade.core.cli import jsonout
from stockade.core.cli.errors import CliError
from stockade.core.cli.parsing import add_command, add_file, add_json
from stockade.core.cli.types import SubParsers
from stockade.core.model.visible import visible

if TYPE_CHECKING:
    from stockade.core.book.game import Game
    from stockade.core.book.tally import Tally
    from stockade.core.model.state import GameState

TALLY_FORMATS = ("text", "md", "html", "bbcode", "csv")


def register(sub: SubParsers[argparse.ArgumentParser]) -> None:
    """Add ``tally`` and ``history`` to the ``stockade`` parser."""
    tally = add_command(
        sub,
        "tally",
        "the CVP tally, every line explained",
        ["stockade tally game.jsonl", "stockade tally game.jsonl --format bbcode --at 40"],
        cmd_tally,
    )
    add_file(tally)
    add_json(tally)
    tally.add_argument("--at", type=int, metavar="N", help="as it stood after entry N")
    tally.add_argument(
        "--format",
        choices=TALLY_FORMATS,
        default="text",
        help="text (default), md (Markdown), html, bbcode (forums) or csv",
    )

    history = add_command(
        sub,
        "history",
        "every entry, one sentence each",
        ["stockade history game.jsonl", "stockade history game.jsonl --json"],
        cmd_history,
    )
    add_file(history)
    add_json(history)


def warn(message: str) -> None:
    print(f"stockade: warning: {message}", file=sys.stderr)


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
    """The tally, folded; what it printed is kept (core/log/kept_tally.py) for the next
    ``stockade tally`` with these arguments on these bytes to print again unfolded."""
    from stockade.core.log import kept_tally

    key = (str(args.file), os.path.realpath(args.file), args.json, args.format, args.at)
    before = kept_tally.log_digest(key[1]) if kept_tally.cache_dir() is not None else None
    if before is None:
        return _tally(args)
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = Recording(out), Recording(err)
    try:
        code = _tally(args)
    finally:
        said, warned = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = out, err
    # Kept only when the bytes folded are the bytes hashed: the same before and after.
    if code == 0 and kept_tally.log_digest(key[1]) == before:
        assert isinstance(said, Recording) and isinstance(warned, Recording)
        kept_tally.keep(key, before, visible(said.text()), visible(warned.text()))
    return code


class Recording:
    """A text stream that passes everything on and also keeps it."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._parts: list[str] = []

    def write(self, text: str) -> int:
        self._parts.append(text)
        return self._stream.write(text)

    def text(self) -> str:
        return "".join(self._parts)

    def __getattr__(self, name: str) -> Any:  # flush, fileno, isatty, encoding...
        return getattr(self._stream, name)


def _tally(args: Namespace) -> int:
    try:
        from stockade.core.book import tally as tallying
        from stockade.core.reads import tally_formats  # noqa: F401 (tally_text renders with it)
    except ImportError as exc:
        raise CliError(f"the tally is not available in this build ({exc})") from None
    state = state_to_read(args.file, args.at)
    result = tallying.tally(state)
    if args.json:
        jsonout.emit("tally", at=args.at, **tallying.to_json(result))
        return 0
    sys.stdout.write(tally_text(result, args.format))
    return 0


def tally_text(result: Tally, fmt: str) -> str:
    """What ``stockade tally --format FMT`` prints on stdout for ``result`` (before
    ``visible``): the tally that folds and the one kept after a write both print this."""
    from stockade.core.book import tally as tallying

    if fmt == "text":
        render = tallying.to_text
    elif fmt == "md":
        render = tallying.to_markdown
    elif fmt == "html":
        render = tallying.to_html
    else:
        from stockade.core.reads import tally_formats

        render = {"bbcode": tally_formats.to_bbcode, "csv": tally_formats.to_csv}[fmt]
    return render(result).rstrip("\n") + "\n"


def keep_after_write(path: Path, game: Game) -> Tally | None:
    """After ``do`` or ``run`` wrote into the log at ``path`` (``game``, open for
    writing and still holding the lock), keep the tally that ``stockade tally PATH``
    (text, no ``--at``) would print now, so that it need not fold. Kept only when it is
    certain to be what that fold prints; on any doubt nothing is kept and the next tally
    folds. Returns the tally it rendered (``do`` prints its consequences from it), or None.

    A tally prints on stderr what its read-only open warns about and the conflicting
    entries (``state_to_read``). This open's warnings are not that (a torn tail or an
    unfinished group it set aside, which a reader of the file as it is now would not
    see), so a tally is kept only when there were none, and no conflicts: its stderr is
    then empty. The bytes hashed are read after the write, under the lock (no other
    Stockade writer can have changed them), at the length this journal left them and
    with no unfinished-group marker beside them (``kept_tally.log_digest``); the
    state is the one those bytes fold to, as the snapshot ``close`` saves assumes."""
    from stockade.core.book import tally as tallying
    from stockade.core.log import kept_tally

    journal = game.journal
    if kept_tally.cache_dir() is None or journal is None:
        return None
    if game.warnings or game.conflicts or game.problem is not None:
        return None
    if journal.read_only or journal.poisoned or journal.changed_on_disk():
        return None  # a failed write, or the path names another file now
    resolved = os.path.realpath(path)
    digest = kept_tally.log_digest(resolved)
    if digest is None or digest[0] != journal.size:
        return None  # an unfinished group beside it, or bytes this journal did not write
    key = (str(path), resolved, False, "text", None)  # as cmd_tally keys ``tally PATH``
    result = tallying.tally(game.state)
    kept_tally.keep(key, digest, visible(tally_text(result, "text")), "")
    return result


MARKS = {
    "ok": " ",
    "undone": "u",
    "abandoned": "a",
    "struck": "x",
    "conflict": "!",
    "control": "·",
    "amended": "~",  # an entry in effect that an amendment mended
}


def cmd_history(args: Namespace, ui: object) -> int:
    from stockade.core.book.describe import sentence

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
                "amended_by": entry.amended_by,
                "was": jsonout.record(entry.was) if entry.was is not None else None,
            }
            for entry in game.history()
        ]
        jsonout.emit("history", file=str(args.file), problem=_problem(game), entries=entries)
        return 0
    for entry in game.history():
        mark = MARKS["amended"] if entry.amended_by and entry.status == "ok" else None
        line = f"{entry.seq:>5} {mark or MARKS.get(entry.status, '?')} {sentence(entry, game)}"
        if entry.status not in ("ok", "control"):
            line += f"  <{entry.status}{': ' + entry.reason if entry.reason else ''}>"
        elif entry.reason:  # it holds in part (core/rules/partial.py)
            line += f"  <holds in part: {entry.reason}>"
        if entry.amended_by:
            line += f"  <amended by entry {entry.amended_by}>"
        print(line)
    return 0


def _problem(game: Game) -> str | None:
    return str(game.problem) if game.problem else None


__all__ = [
    "cmd_history",
    "cmd_tally",
    "keep_after_write",
    "open_to_read",
    "register",
    "tally_text",
    "warn",
    "warn_conflicts",
]
