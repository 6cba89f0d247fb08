"""The headless ``stockade`` command line. ``main(argv, ui)`` never imports Textual:
the launcher (tui/launcher.py) injects ``ui`` with ``open_game(path)`` and
``open_camp(path, options)``; without it the UI commands exit 2 with one line."""

from __future__ import annotations

import sys
from pathlib import Path

from stockade.core.cli.errors import USAGE, CliError
from stockade.core.cli.output import visible, visible_output
from stockade.core.errors import Refusal
from stockade.core.journal import JournalError


def main(argv: list[str] | None = None, ui=None) -> int:
    """Run one ``stockade`` command; return its exit code. Never shows a traceback."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        return _dispatch(argv, ui)
    except CliError as exc:
        return _fail(str(exc), exc.code)
    except (Refusal, JournalError) as exc:
        return _fail(str(exc), 1)
    except SystemExit as exc:  # argparse's --help / --version
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except BrokenPipeError:
        return 1  # the reader went away (| head); nothing more to say
    except OSError as exc:
        return _fail(f"{exc.filename or ''}{': ' if exc.filename else ''}{exc.strerror or exc}", 1)
    except Exception as exc:
        return _fail(f"internal error: {type(exc).__name__}: {exc} (please report it)", 1)


def _fail(message: str, code: int) -> int:
    print(visible(f"stockade: {message}"), file=sys.stderr)
    return code


def _dispatch(argv: list[str], ui) -> int:
    from stockade.core.cli.arguments import build_parser, subcommand_names

    parser = build_parser()
    if not argv:
        return _open_ui(ui, None)
    if len(argv) == 1 and not argv[0].startswith("-") and argv[0] not in subcommand_names(parser):
        return _open_ui(ui, Path(argv[0]))
    with visible_output():  # nothing from a log or an argument drives the terminal
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help()
            return USAGE
        return int(args.func(args, ui) or 0)


def _open_ui(ui, path: Path | None) -> int:
    if ui is None:
        raise CliError("no terminal UI here; use a subcommand (stockade --help)", USAGE)
    return int(ui.open_game(path) or 0)


__all__ = ["main", "CliError"]
