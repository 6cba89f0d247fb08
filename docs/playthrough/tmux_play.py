"""The tmux driver the recorded playthroughs share (playthrough.py, whole_game.py,
game_script.py): a new game in throwaway config, data and cache dirs, the app started
at 80x24 in a tmux session, each step's keys sent and its screen captured, and the
CLI's own reading of the log once the app has quit.

A key is a tmux key name (Enter, Tab, Escape, C-s, or one character), ``=text`` for
words typed as printed (one keystroke per word: what a count measures is the reaching,
picking and confirming, not the typing speed) or ``~text`` for a roster filter (one
keystroke per character).
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from pathlib import Path


def keystrokes(keys: list[str]) -> int:
    return sum(
        len(k[1:].split()) if k.startswith("=") else len(k) - 1 if k.startswith("~") else 1
        for k in keys
    )


def shown(keys: list[str]) -> str:
    """The keys as a step's heading prints them: typed text in quotes."""
    return " ".join(k[1:].join('""') if k[0] in "=~" and len(k) > 1 else k for k in keys)


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], check=True, capture_output=True, text=True).stdout


class Table:
    """One game played in tmux: its log, its throwaway dirs and its session."""

    def __init__(self, stockade: str, session: str, prefix: str) -> None:
        self.stockade, self.session = stockade, session
        self.work = Path(tempfile.mkdtemp(prefix=prefix))
        self.env = {
            "STOCKADE_CONFIG_DIR": str(self.work / "config"),
            "STOCKADE_DATA_DIR": str(self.work / "data"),
            "STOCKADE_CACHE_DIR": str(self.work / "cache"),
        }
        self.log = self.work / "game.jsonl"

    def stockade_run(self, *argv: str, check: bool = False) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [self.stockade, *argv],
            check=check,
            env={**os.environ, **self.env},
            capture_output=True,
            text=True,
        )

    def new_game(self, scenario: str, *sides: str, log: Path | None = None) -> None:
        """``stockade new`` (``sides`` as ``--side`` takes them: British:British:4)."""
        self.log = log or self.log
        argv = ["new", str(self.log), "--scenario", scenario]
        for side in sides:
            argv += ["--side", side]
        self.stockade_run(*argv, check=True)

    def play(
        self, steps: list[list[str]], key_delay: float, step_delay: float, settle: float = 3
    ) -> list[str]:
        """Start the app on the game, send each step's keys, and return the screen after
        each step; the app is quit and the session closed at the end, whatever happens."""
        exports = " ".join(f"{k}={v}" for k, v in self.env.items())
        subprocess.run(["tmux", "kill-session", "-t", self.session], capture_output=True)
        command = f"cd {self.work} && {exports} {self.stockade} {self.log}"
        tmux("new", "-d", "-s", self.session, "-x", "80", "-y", "24", command)
        time.sleep(settle)
        screens: list[str] = []
        try:
            for keys in steps:
                for key in keys:
                    if key.startswith(("=", "~")):
                        tmux("send-keys", "-t", self.session, "-l", key[1:])
                    else:
                        tmux("send-keys", "-t", self.session, key)
                    time.sleep(key_delay)
                time.sleep(step_delay)
                screens.append(tmux("capture-pane", "-t", self.session, "-p").rstrip("\n"))
            for key, pause in (("Escape", 0.3), ("q", 0.5)):
                tmux("send-keys", "-t", self.session, key)
                time.sleep(pause)
        finally:
            subprocess.run(["tmux", "kill-session", "-t", self.session], capture_output=True)
        return screens

    def read_back(self, *commands: str) -> list[str]:
        """``=== stockade COMMAND (after quitting)`` and its output, for each command."""
        lines: list[str] = []
        for command in commands:
            done = self.stockade_run(command, str(self.log))
            lines.append(f"=== stockade {command} (after quitting)")
            lines.append((done.stdout + done.stderr).rstrip("\n"))
        return lines
