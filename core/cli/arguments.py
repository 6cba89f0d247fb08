"""The ``stockade`` command line: argparse set-up, one parser per subcommand."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, NoReturn, cast

from stockade.core.cli import game_commands, log_commands, table_commands
from stockade.core.cli.errors import USAGE, CliError
from stockade.core.cli.types import Handler, SubParsers


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (``stockade: ...``), exit 2."""

    def error(self, message: str) -> NoReturn:
        raise CliError(f"{message} (see '{self.prog} --help')", USAGE)


def stockade_version() -> str:
    """The installed distribution's version (pyproject.toml), or "unknown" when run
    from a tree that was never installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("stockade")
    except PackageNotFoundError:
        return "unknown"


def add_command(
    sub: SubParsers[argparse.ArgumentParser],
    name: str,
    summary: str,
    example: str | list[str],
    func: Handler | None = None,
    **defaults: Any,
) -> argparse.ArgumentParser:
    """One subcommand: its one-line summary (in ``stockade --help`` and atop its own
    help) and an example or two (at the foot of its help). Every subcommand is made
    here; tests/test_cli_conventions.py checks that each has both."""
    examples = [example] if isinstance(example, str) else example
    parser = sub.add_parser(
        name,
        help=summary,
        description=summary[:1].upper() + summary[1:] + ".",
        epilog="example"
        + ("s" if len(examples) > 1 else "")
        + ":\n"
        + "\n".join(f"  {e}" for e in examples),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    if func is not None:
        parser.set_defaults(func=func, **defaults)
    return parser


def add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--json",
        action="store_true",
        help="reply with one JSON object (shape: docs/commands.md, JSON replies)",
    )


def add_file(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, metavar="FILE", help="the game log (.jsonl)")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="stockade",
        description="Stockade keeps the book on ASL rule A20 (Prisoners). "
        "Run 'stockade' or 'stockade FILE' for the terminal UI; the "
        "subcommands below work without it.",
        epilog="The command language for 'do' and 'run', the JSON replies and the exit "
        "codes are in docs/commands.md. 'stockade COMMAND --help' shows an example.",
    )
    parser.add_argument("--version", action="version", version=f"stockade {stockade_version()}")
    # Subcommand parsers are OneLineParsers too (argparse makes them of the parent's
    # class); typed as plain ArgumentParsers so core.camp.cli.register takes them.
    sub = cast(
        "SubParsers[argparse.ArgumentParser]",
        parser.add_subparsers(dest="command", metavar="COMMAND"),
    )

    new = add_command(
        sub,
        "new",
        "start a new game log",
        "stockade new game.jsonl --scenario 'ASL 1' --side Russian:Russian:3 --side German:German",
        game_commands.cmd_new,
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
    add_json(new)

    do = add_command(
        sub,
        "do",
        "record one command of the command language",
        ["stockade do game.jsonl 'surrender g1 to a1'", "stockade do game.jsonl next --json"],
        game_commands.cmd_do,
    )
    add_file(do)
    do.add_argument("text", metavar="COMMAND", help="one line, as typed in the TUI's ':' bar")
    add_json(do)

    run = add_command(
        sub,
        "run",
        "record a script of commands, one a line; all or nothing",
        ["stockade run game.jsonl turn2.txt", "echo next | stockade run game.jsonl -"],
        game_commands.cmd_run,
    )
    add_file(run)
    run.add_argument("script", metavar="SCRIPT", help="a file of commands, or '-' for stdin")
    run.add_argument("-q", "--quiet", action="store_true", help="print nothing but errors")
    add_json(run)

    tally = add_command(
        sub,
        "tally",
        "the CVP tally, every line explained",
        ["stockade tally game.jsonl", "stockade tally game.jsonl --format bbcode --at 40"],
        game_commands.cmd_tally,
    )
    add_file(tally)
    add_json(tally)
    tally.add_argument("--at", type=int, metavar="N", help="as it stood after entry N")
    tally.add_argument(
        "--format",
        choices=game_commands.TALLY_FORMATS,
        default="text",
        help="text (default), md (Markdown), html, bbcode (forums) or csv",
    )

    history = add_command(
        sub,
        "history",
        "every entry, one sentence each",
        ["stockade history game.jsonl", "stockade history game.jsonl --json"],
        game_commands.cmd_history,
    )
    add_file(history)
    add_json(history)

    for verb, summary in (
        ("undo", "take back the last entry"),
        ("redo", "bring back the last undone entry"),
    ):
        p = add_command(
            sub, verb, summary, f"stockade {verb} game.jsonl", game_commands.cmd_control, verb=verb
        )
        add_file(p)
        add_json(p)

    strike = add_command(
        sub,
        "strike",
        "strike entry N; later entries are checked again",
        "stockade strike game.jsonl 12 --reason 'wrong hex'",
        game_commands.cmd_control,
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

    unstrike = add_command(
        sub,
        "unstrike",
        "bring back struck entry N",
        "stockade unstrike game.jsonl 12",
        game_commands.cmd_control,
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

    check = add_command(
        sub,
        "check",
        "validate a log without writing to it (exit 0 when sound)",
        ["stockade check game.jsonl", "stockade check game.jsonl --json"],
        log_commands.cmd_check,
    )
    add_file(check)
    add_json(check)

    repair = add_command(
        sub,
        "repair",
        "write a repaired copy of a damaged log; the original is kept",
        "stockade repair game.jsonl -o fixed.jsonl",
        log_commands.cmd_repair,
    )
    add_file(repair)
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
    add_json(repair)

    locate = add_command(
        sub,
        "locate",
        "print the config dir, data dir, cache dir and last game",
        "stockade locate",
        log_commands.cmd_locate,
    )
    add_json(locate)
    ruled = add_command(
        sub,
        "rulings",
        "Stockade's rulings where the rules are silent",
        "stockade rulings --json",
        log_commands.cmd_rulings,
    )
    add_json(ruled)

    completion = add_command(
        sub,
        "completion",
        "print the shell completion script for bash, zsh or fish",
        [
            'eval "$(stockade completion bash)"   # in ~/.bashrc',
            "stockade completion fish > ~/.config/fish/completions/stockade.fish",
        ],
        log_commands.cmd_completion,
    )
    completion.add_argument("shell", choices=("bash", "zsh", "fish"))
    from stockade.core.cli import rules_command  # A20 sections (conformance matrix)

    rules_command.register(sub)
    from stockade.core.cli import show_command  # the board as text

    show_command.register(sub)

    table_commands.register(sub)  # verify, watch, serve
    _register_camp(sub)
    return parser


def _register_camp(sub: SubParsers[argparse.ArgumentParser]) -> None:
    """``stockade camp`` comes from core.camp.cli when it is there and imports cleanly;
    a broken camp module must not take the whole CLI down with it."""
    try:
        from stockade.core.camp import cli as camp_cli
    except ImportError:
        return
    except Exception as exc:
        why = f"{type(exc).__name__}: {exc}"

        def unavailable(args: argparse.Namespace, ui: object) -> int:
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
