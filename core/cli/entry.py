"""The headless ``stockade`` command line proper (``stockade.core.cli.main`` runs it).
``main(argv, ui)`` never imports Textual: the launcher (tui/launcher.py) injects ``ui``
with ``open_game(path)`` and ``open_camp(path, options)``; without it the UI commands
exit 2 with one line."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from stockade.core.cli.errors import USAGE, CliError, Exit
from stockade.core.cli.output import visible_output
from stockade.core.cli.types import Handler, UserInterface
from stockade.core.model.errors import Refusal
from stockade.core.model.visible import visible


def main(argv: list[str] | None = None, ui: UserInterface | None = None) -> int:
    """Run one ``stockade`` command; return its exit code (core/cli/errors.py's ``Exit``
    table, documented in docs/commands.md). Never shows a traceback."""
    argv = sys.argv[1:] if argv is None else list(argv)
    reply = _JsonFailure(argv)
    try:
        return _dispatch(argv, ui)
    except SystemExit as exc:  # argparse's --help / --version
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except KeyboardInterrupt:
        return reply.fail("interrupted", Exit.INTERRUPTED)
    except BrokenPipeError:
        return Exit.REFUSED  # the reader went away (| head); nothing more to say
    except Exception as exc:
        return reply.fail(*_failure(exc))


def _failure(exc: Exception) -> tuple[str, int, str | None, str]:
    """What to say about a command that failed, its exit code, the rule it broke (None
    when no rule did) and the kind of failure (a refusal's kind, or "error")."""
    # The log's errors are looked up only once something failed: a command that never
    # opens a log (--version, locate, rulings) does not load the log code to start.
    from stockade.core.log.journal_errors import JournalDamaged, JournalError, JournalLocked

    if isinstance(exc, CliError):
        return str(exc), exc.code, None, "error"
    if isinstance(exc, Refusal):
        return str(exc) + _offers(exc), Exit.REFUSED, exc.rule or None, exc.kind
    if isinstance(exc, JournalDamaged):
        return str(exc), Exit.DAMAGED, None, "error"
    if isinstance(exc, JournalLocked):
        return str(exc), Exit.LOCKED, None, "error"
    if isinstance(exc, JournalError):  # no such file, cannot read or write it
        return str(exc), Exit.REFUSED, None, "error"
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        return f"{where}{exc.strerror or exc}", Exit.REFUSED, None, "error"
    return (
        f"internal error: {type(exc).__name__}: {exc} (please report it)",
        Exit.REFUSED,
        None,
        "error",
    )


def _offers(refusal: Exception) -> str:
    """The entries a refusal offers (a board fact recorded earlier that the board may
    since have changed), each on a line of its own, ready to paste."""
    from stockade.core.commands.execute import ScriptRefusal
    from stockade.core.commands.implied import BoardFactChoice, StaleBoardFact

    cause = refusal.cause if isinstance(refusal, ScriptRefusal) else refusal
    if not isinstance(cause, StaleBoardFact | BoardFactChoice):
        return ""
    return "".join(f"\nready to paste: {line}" for line in cause.lines)


class _JsonFailure:
    """How a failure is reported: always one line on stderr; with ``--json`` also a
    JSON reply on stdout (``"ok": false``), so a program reading stdout gets an answer."""

    def __init__(self, argv: list[str]):
        self.json = "--json" in argv
        self.command = next((a for a in argv if not a.startswith("-")), "")

    def fail(self, message: str, code: int, rule: str | None = None, kind: str = "error") -> int:
        if self.json and code != USAGE:
            from stockade.core.cli.jsonout import emit_error

            emit_error(self.command, code, message, rule, kind)
        print(visible(f"stockade: {message}"), file=sys.stderr)
        return code


def _dispatch(argv: list[str], ui: UserInterface | None) -> int:
    from stockade.core.cli.arguments import SUBCOMMANDS, build_parser, groups_for

    if "_ARGCOMPLETE" in os.environ:  # the shell is asking for completions: every command
        _complete(build_parser())
    if not argv:
        return _open_ui(ui, None)
    if len(argv) == 1 and not argv[0].startswith("-") and argv[0] not in SUBCOMMANDS:
        return _open_ui(ui, Path(argv[0]))
    parser = build_parser(groups_for(argv))  # only what the command line names
    with visible_output():  # nothing from a log or an argument drives the terminal
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help()
            return USAGE
        handler: Handler = args.func
        return int(handler(args, ui) or 0)


def _complete(parser: argparse.ArgumentParser) -> None:
    """Answer the completion hook of 'stockade completion SHELL' (argcomplete): it
    prints the candidates and exits."""
    import argcomplete

    argcomplete.autocomplete(parser)


def _open_ui(ui: UserInterface | None, path: Path | None) -> int:
    if ui is None:
        raise CliError("no terminal UI here; use a subcommand (stockade --help)", USAGE)
    return int(ui.open_game(path) or 0)


__all__ = ["main", "CliError"]
