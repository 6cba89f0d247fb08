"""Shared helpers for the TUI tests (not a test module itself: no test functions)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from textual import events

from stockade.core.book.game import Game
from stockade.core.model.events import SideSpec

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_games"


def demo_in_a_child(tmp: Path, child: str) -> dict[str, Any]:
    """``child`` (a script given the demo's path) run in a fresh interpreter on a copy of
    the demo game, with its own config, data and cache dirs: the JSON it prints last."""
    game = tmp / "demo.jsonl"
    shutil.copyfile(ROOT / "sample_games" / "demo.jsonl", game)
    env = dict(os.environ)
    for what in ("CONFIG", "DATA", "CACHE"):
        env[f"STOCKADE_{what}_DIR"] = str(tmp / what.lower())
    done = subprocess.run(
        [sys.executable, "-c", child, str(game)],
        cwd=tmp,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def sample_copy(tmp_path: Path, name: str = "demo") -> Path:
    target = tmp_path / f"{name}.jsonl"
    shutil.copyfile(SAMPLES / f"{name}.jsonl", target)
    return target


def new_game(
    tmp_path: Path,
    scenario: str,
    sides: list[tuple[str, str, int]],
    first: str = "",
    strict: bool = False,
) -> Game:
    specs = [SideSpec(name, nat, elr) for name, nat, elr in sides]
    return Game.create(
        tmp_path / "game.jsonl", scenario, specs, first_attacker=first, strict=strict
    )


async def type_command(pilot, text: str) -> None:
    """':' then the text (pasted: one event, not one press per letter), then enter.

    A refused command stays in the bar for fixing; escape clears it first.
    """
    from stockade.tui.widgets.command_bar import CommandInput

    if isinstance(pilot.app.focused, CommandInput):
        await pilot.press("escape")
    await pilot.press("colon")
    pilot.app.focused.post_message(events.Paste(text))
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()


async def press(pilot, keys: list[str]) -> None:
    """The keys as a player presses them; "=text" is pasted into the focused field."""
    for key in keys:
        if key.startswith("="):
            await pilot.pause()
            pilot.app.focused.post_message(events.Paste(key[1:]))
        else:
            await pilot.press(key)
        await pilot.pause()


async def until(pilot, condition, what: str) -> None:
    """Let the app run until ``condition()`` holds: a test waits for what it expects to
    happen (a poll, a worker), never a fixed number of seconds."""
    import time

    hang_guard = time.monotonic() + 120  # an app that stopped, never a slow one
    while not condition():
        assert time.monotonic() < hang_guard, f"the app never showed {what}"
        await pilot.pause(0.05)


def status_text(app) -> str:
    from stockade.tui.widgets.status_line import StatusLine

    return app.screen.query_one(StatusLine).message


def in_runs(names: list[str], count: int) -> list[list[str]]:
    """``names`` cut into ``count`` runs in order, their lengths differing by one at most.

    A test that takes many cases through one app (starting an app costs more than a
    case) is parametrized by run: one app a run, and each run its own test, so no test of
    many seconds holds one worker while the others idle at the end of the suite."""
    size, longer = divmod(len(names), count)
    runs, start = [], 0
    for n in range(count):
        end = start + size + (1 if n < longer else 0)
        runs.append(names[start:end])
        start = end
    return runs


def run_id(run: list[str]) -> str:
    """A run's test id: its first and last case (``add..move``)."""
    return f"{run[0]}..{run[-1]}" if len(run) > 1 else run[0]


def sync(fn):
    """Run an async test with asyncio.run (this venv has no async pytest plugin)."""
    import asyncio
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return asyncio.run(fn(*args, **kwargs))

    return wrapper
