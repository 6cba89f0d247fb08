"""``stockade run GAME SCRIPT``: a script of commands, read and checked as a stream,
recorded as one group: all of its lines' records, or none.

The script is read a line at a time and each line is tried on the open game as it
comes (``core.commands.execute``). Its records are staged beside the log
(``Writer.one_write``, ``core.log.staging``) and the replies in a scratch file beside it
(``Replies``): neither is shown or written until the last line was accepted, so a
refused line (named with its number and rule), a failed write or a kill leaves the log
as it was and prints only the refusal. Memory is the game's, not the script's.
"""

from __future__ import annotations

import json
import sys
import tempfile
from argparse import Namespace
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from stockade.core.cli import jsonout
from stockade.core.cli.errors import CliError, Exit
from stockade.core.cli.read_commands import keep_after_write
from stockade.core.cli.writing import open_to_write, reply_of
from stockade.core.commands import Outcome, ScriptRefusal, script_outcomes
from stockade.core.model.errors import InputRefusal, Refusal
from stockade.core.model.visible import visible

# No command is this long (a record is at most 64 KiB): a longer line is refused
# before it is held, whatever the script holds.
MAX_SCRIPT_LINE = 1 << 16


def open_script(name: str) -> IO[bytes] | IO[str]:
    """The script, opened to be read a line at a time ('-': stdin)."""
    if name == "-":
        return getattr(sys.stdin, "buffer", sys.stdin)  # bytes: decoded a line at a time
    try:
        return open(name, "rb")
    except FileNotFoundError:
        raise CliError(f"{name}: no such script") from None
    except OSError as exc:
        raise CliError(f"{name}: cannot read the script ({exc})") from None


def script_lines(stream: IO[bytes] | IO[str]) -> Iterator[str]:
    """The script's lines as ``str.splitlines`` of its whole text gives them, read and
    decoded (UTF-8) a line at a time, so a line that is not text is told by its own
    number; a line too long to be a command is refused before it is held
    (``InputRefusal``; the caller names the line)."""
    while True:
        try:
            read = stream.readline(MAX_SCRIPT_LINE + 1)
            text = read.decode("utf-8") if isinstance(read, bytes) else read
        except UnicodeDecodeError as exc:
            raise InputRefusal(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
        if not text:
            return
        if len(read) > MAX_SCRIPT_LINE and not text.endswith("\n"):
            raise InputRefusal(f"longer than {MAX_SCRIPT_LINE:,} bytes: no command is that long")
        yield from text.splitlines()


class Replies:
    """What each line did, kept in a scratch file until the whole script is recorded:
    the reply grows with the script, memory does not."""

    def __init__(self, folder: Path, as_json: bool):
        self.as_json = as_json
        self.recorded = 0
        try:
            self._file: IO[str] = tempfile.TemporaryFile(  # noqa: SIM115 (closed by close)
                "w+", encoding="utf-8", dir=folder, prefix=".stockade-replies-"
            )
        except OSError:  # the log's folder refuses a scratch file: the system's
            self._file = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115

    def add(self, number: int, outcome: Outcome) -> None:
        self.recorded += len(outcome.records)
        if self.as_json:
            if outcome.records:
                self._file.write(json.dumps({"line": number, **reply_of(outcome)}) + "\n")
        elif outcome.message:
            self._file.write(json.dumps(outcome.message) + "\n")

    def _kept(self) -> Iterator[Any]:
        self._file.seek(0)
        for line in self._file:
            yield json.loads(line)

    def emit(self) -> None:
        if self.as_json:
            # the list where ``emit`` printed it: before ``recorded``
            kept, recorded = self._kept(), self.recorded
            jsonout.emit_stream("run", "outcomes", kept, outcomes=[], recorded=recorded)
            return
        for message in self._kept():
            print(message)

    def close(self) -> None:
        self._file.close()


def cmd_run(args: Namespace, ui: object) -> int:
    script = open_script(args.script)
    try:
        return _run(args, script)
    finally:
        if args.script != "-":
            script.close()


def _run(args: Namespace, script: IO[bytes] | IO[str]) -> int:
    label = "stdin" if args.script == "-" else args.script
    game = open_to_write(args.file)
    try:
        replies = Replies(Path(args.file).resolve().parent, args.json)
        try:
            # each line is tried on the open game as it is read; the records are
            # written as one group at the end: a refused line, a failed write or a
            # kill leaves the log as it was
            with game.one_write():
                for number, outcome in script_outcomes(game, script_lines(script)):
                    replies.add(number, outcome)
            keep_after_write(args.file, game)  # written; the lock is still held
            if args.json or not args.quiet:
                replies.emit()
            return 0
        finally:
            replies.close()
    except ScriptRefusal as refusal:
        return _run_failed(args, f"{label} {refusal}; nothing was recorded", refusal)
    except Refusal as refusal:  # the write itself failed
        return _run_failed(args, f"{label}: {refusal}; nothing was recorded", refusal)
    finally:
        game.close()


def _run_failed(args: Namespace, message: str, refusal: Refusal) -> int:
    """A run that recorded nothing: one line on stderr; with ``--json`` the reply says
    so too (no outcomes, ``recorded``: 0)."""
    if args.json:
        jsonout.emit_error(
            "run", Exit.REFUSED, message, refusal.rule, refusal.kind, outcomes=[], recorded=0
        )
    print(visible(f"stockade: {message}"), file=sys.stderr)
    return Exit.REFUSED


__all__ = ["cmd_run", "open_script", "script_lines"]
