"""``stockade camp``: play a campaign in the terminal UI, or simulate many headless.

The launcher owns the UI: it passes an object with ``open_camp(path, options) -> int``
(or None where there is no terminal UI), so this module never imports Textual.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TextIO

from stockade.core.camp.errors import CampError
from stockade.core.camp.events import MonthDie
from stockade.core.camp.simulate import (
    STANDARD_STRATEGIES,
    STRATEGY_HELP,
    Tally,
    format_table,
    simulate,
)
from stockade.core.camp.table import load_table

DEFAULT_LOG_NAME = "camp.jsonl"  # in the app's data dir, where the UI keeps it
# Below this many games a run is over before a bar would be worth drawing.
PROGRESS_MIN_GAMES = 2000


class CampUI(Protocol):
    """The terminal UI the launcher hands in; it plays a campaign and returns the exit code."""

    def open_camp(self, path: Path | None, options: dict[str, str]) -> int: ...


def register(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    strategies = "; ".join(f"{k}: {v}" for k, v in STRATEGY_HELP.items())
    parser = subparsers.add_parser(
        "camp",
        help="the solitaire POW camp (Lone Warrior #138)",
        description="Play the solitaire POW-camp game, or simulate it headless.",
        epilog=f"Strategies -- {strategies}. Without --strategy, --simulate runs "
        f"{', '.join(STANDARD_STRATEGIES)}. "
        "Examples: stockade camp my_pow.jsonl; stockade camp --simulate 1000 --seed 7",
    )
    parser.add_argument(
        "file",
        nargs="?",
        metavar="FILE",
        help="the campaign log: resumed if it exists, else started (default: "
        f"{DEFAULT_LOG_NAME} in Stockade's data dir, as the app's palette uses)",
    )
    parser.add_argument(
        "--simulate",
        type=int,
        metavar="N",
        help="play N games headless and print the outcome rates",
    )
    parser.add_argument("--strategy", metavar="NAME", help="strategy for --simulate")
    parser.add_argument("--seed", help="seed of the dice (a new campaign, or --simulate)")
    parser.add_argument(
        "--dice",
        choices=("auto", "physical"),
        help="auto: seeded, logged dice; physical: type your own",
    )
    parser.add_argument(
        "--rules",
        choices=("house", "source"),
        help="house: the house-rule action table; source: you enter each action's outcome",
    )
    parser.add_argument(
        "--month-die", choices=("d12", "2d6"), help="the capture-month die (2d6 'at a pinch')"
    )
    parser.set_defaults(func=handler)
    return parser


def handler(args: argparse.Namespace, ui: CampUI | None) -> int:
    try:
        if args.simulate is not None:
            return run_simulation(args, sys.stdout, sys.stderr)
        if ui is None:
            print(
                "stockade camp: no terminal UI here; use --simulate N for a headless run",
                file=sys.stderr,
            )
            return 2
        path = Path(args.file) if args.file else None  # None: the UI's default place
        options = {
            "seed": args.seed,
            "dice": args.dice,
            "rules": args.rules,
            "month_die": args.month_die,
        }
        return ui.open_camp(path, {k: v for k, v in options.items() if v is not None})
    except CampError as exc:
        print(f"stockade camp: {exc}", file=sys.stderr)
        return 1


def run_simulation(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.simulate < 1:
        raise CampError("--simulate needs a number of games of at least 1")
    if args.rules == "source" or args.dice == "physical":
        raise CampError(
            "--simulate plays the house-rule table with seeded dice; "
            "--rules source and --dice physical need a player"
        )
    table = load_table()
    names = [args.strategy] if args.strategy else list(STANDARD_STRATEGIES)
    seed = args.seed if args.seed is not None else "1"
    month_die: MonthDie = args.month_die or "d12"
    show_bar = err.isatty() and args.simulate * len(names) >= PROGRESS_MIN_GAMES
    tallies: list[Tally] = []
    started = time.monotonic()
    for index, name in enumerate(names):
        progress = (
            _progress_bar(err, f"{name} ({index + 1}/{len(names)})", args.simulate)
            if show_bar
            else None
        )
        tallies.append(simulate(args.simulate, name, seed, table, month_die, progress))
        if show_bar:
            err.write("\r\x1b[K")
    elapsed = time.monotonic() - started
    print(format_table(tallies), file=out)
    print(
        f"seed {seed}, month die {month_die}, "
        f"{table.meta.label.lower()} table for the missing actions; {elapsed:.1f} s",
        file=out,
    )
    return 0


def _progress_bar(err: TextIO, label: str, total: int, width: int = 30) -> Callable[[int], None]:
    def show(done: int) -> None:
        filled = width * done // total
        err.write(
            f"\r{label:<24} [{'#' * filled}{'.' * (width - filled)}] {100 * done // total:3d}%"
        )
        err.flush()

    return show
