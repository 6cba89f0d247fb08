"""How a ``stockade`` command's failure is reported, in one place: the command line
proper (core/cli/entry.py) and the tally that folds without it
(core/cli/folded_tally.py) run their command through ``guarded``. Never a traceback:
one line on stderr naming what failed, and with ``--json`` also a JSON reply on stdout.

Imports no argparse: the folding tally starts without the command line's parser."""

from __future__ import annotations

import sys

from stockade.core.cli.errors import USAGE, CliError, Exit
from stockade.core.model.visible import visible

TYPE_CHECKING = False  # typing costs ~2 ms to import; mypy reads this the same way

if TYPE_CHECKING:
    from collections.abc import Callable


def guarded(argv: list[str], command: Callable[[], int]) -> int:
    """Run ``command`` (a whole ``stockade`` command for ``argv``); return its exit code
    (core/cli/errors.py's ``Exit`` table, documented in docs/commands.md)."""
    reply = _JsonFailure(argv)
    try:
        return command()
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
    from stockade.core.model.errors import Refusal

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


__all__ = ["guarded"]
