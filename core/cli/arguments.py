"""The ``stockade`` command line: argparse set-up, one parser per subcommand."""

from __future__ import annotations

import argparse
from pathlib import Path

from stockade.core.cli import game_commands, log_commands
from stockade.core.cli.errors import USAGE, CliError


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (``stockade: ...``), exit 2."""

    def error(self, message: str):  # type: ignore[override]
        raise CliError(f"{message} (see '{self.prog} --help')", USAGE)


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="stockade",
        description="Stockade keeps the book on ASL rule A20 (Prisoners). "
        "Run 'stockade' or 'stockade FILE' for the terminal UI; the "
        "subcommands below work without it.",
        epilog="The command language for 'do' and 'run' is in docs/commands.md.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    new = sub.add_parser("new", help="start a new game log")
    new.add_argument("file", type=Path, metavar="FILE")
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
    new.set_defaults(func=game_commands.cmd_new)

    do = sub.add_parser("do", help="record one command, e.g. 'surrender g1 to a1'")
    do.add_argument("file", type=Path, metavar="FILE")
    do.add_argument("text", metavar="COMMAND")
    do.set_defaults(func=game_commands.cmd_do)

    run = sub.add_parser("run", help="record a script of commands, one a line ('-' reads stdin)")
    run.add_argument("file", type=Path, metavar="FILE")
    run.add_argument("script", metavar="SCRIPT")
    run.add_argument("-q", "--quiet", action="store_true", help="print nothing but errors")
    run.set_defaults(func=game_commands.cmd_run)

    tally = sub.add_parser("tally", help="the CVP tally, every line explained")
    tally.add_argument("file", type=Path, metavar="FILE")
    tally.add_argument("--json", action="store_true", help="as a JSON object")
    tally.add_argument("--at", type=int, metavar="N", help="as it stood after entry N")
    tally.add_argument("--format", choices=("text", "md", "html"), default="text")
    tally.set_defaults(func=game_commands.cmd_tally)

    history = sub.add_parser("history", help="every entry, one sentence each")
    history.add_argument("file", type=Path, metavar="FILE")
    history.set_defaults(func=game_commands.cmd_history)

    for verb, help_text in (
        ("undo", "take back the last entry"),
        ("redo", "bring back the last undone entry"),
    ):
        p = sub.add_parser(verb, help=help_text)
        p.add_argument("file", type=Path, metavar="FILE")
        p.set_defaults(func=game_commands.cmd_control, verb=verb)

    strike = sub.add_parser("strike", help="strike entry N; later entries are checked again")
    strike.add_argument("file", type=Path, metavar="FILE")
    strike.add_argument("entry", type=int, metavar="N")
    strike.add_argument("--reason", default="", help="why (kept in the history)")
    strike.set_defaults(func=game_commands.cmd_control, verb="strike")

    unstrike = sub.add_parser("unstrike", help="bring back struck entry N")
    unstrike.add_argument("file", type=Path, metavar="FILE")
    unstrike.add_argument("entry", type=int, metavar="N")
    unstrike.set_defaults(func=game_commands.cmd_control, verb="unstrike", reason="")

    check = sub.add_parser("check", help="validate a log (exit 0 when sound); never writes")
    check.add_argument("file", type=Path, metavar="FILE")
    check.set_defaults(func=log_commands.cmd_check)

    repair = sub.add_parser("repair", help="write a repaired copy of a damaged log")
    repair.add_argument("file", type=Path, metavar="FILE")
    repair.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="OUT",
        help="where to write it (default FILE.repaired.jsonl)",
    )
    repair.add_argument(
        "--force",
        action="store_true",
        help="replace OUT (and OUT.dropped) if they exist; a link is replaced, never followed",
    )
    repair.set_defaults(func=log_commands.cmd_repair)

    locate = sub.add_parser("locate", help="print the config dir, data dir and last game")
    locate.set_defaults(func=log_commands.cmd_locate)
    ruled = sub.add_parser("rulings", help="Stockade's rulings where the rules are silent")
    ruled.set_defaults(func=log_commands.cmd_rulings)

    _register_camp(sub)
    return parser


def _register_camp(sub) -> None:
    """``stockade camp`` comes from core.camp.cli when it is there and imports cleanly;
    a broken camp module must not take the whole CLI down with it."""
    try:
        from stockade.core.camp import cli as camp_cli
    except ImportError:
        return
    except Exception as exc:
        why = f"{type(exc).__name__}: {exc}"

        def unavailable(args, ui) -> int:
            raise CliError(f"camp: the POW-camp mode failed to load ({why})")

        broken = sub.add_parser("camp", help="the solitaire POW camp (failed to load)")
        broken.add_argument("rest", nargs=argparse.REMAINDER)
        broken.set_defaults(func=unavailable)
        return
    camp_cli.register(sub)


def subcommand_names(parser: argparse.ArgumentParser) -> set[str]:
    for action in parser._actions:  # argparse keeps subparsers as a private action
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    return set()
