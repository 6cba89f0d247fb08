"""Which game file the app opens: the one named, the last one, or the demo.

No Textual here: the launcher resolves the path before any screen exists.
"""

from __future__ import annotations

import errno
from importlib import resources
from pathlib import Path

from stockade.core.log.files import LINK_REFUSED, atomic_write
from stockade.tui.paths import data_dir, read_last_game

DEMO_NAME = "demo.jsonl"


class DemoMade:
    """The first run made the demo game at ``path``: the app words the note, naming
    its own new-game key as the keymap has it (no keymap is read before the app).
    A plain class: ``typing`` is not imported this early (tui/launcher.py)."""

    __slots__ = ("path",)

    def __init__(self, path: Path) -> None:
        self.path = path

    def worded(self, new_game_key: str) -> str:
        return (
            f"first run: a demo game was made at {self.path}; {new_game_key} starts your "
            "own game (from the shell: stockade new FILE)"
        )


Note = str | DemoMade  # a note for the player as the app opens


def packaged_demo() -> Path | None:
    """``sample_games/demo.jsonl`` if the package ships one."""
    try:
        candidate = resources.files("stockade.sample_games").joinpath(DEMO_NAME)
    except (ModuleNotFoundError, FileNotFoundError):
        return None
    path = Path(str(candidate))
    return path if path.is_file() else None


def ensure_demo() -> tuple[Path, list[Note]]:
    """The demo game in the user's data dir, made on first use (never in the package)."""
    target = data_dir() / DEMO_NAME
    if target.is_file():
        return target, [f"the demo game ({target})"]
    if target.is_symlink():  # a dangling link: its target is never made
        raise OSError(errno.ELOOP, LINK_REFUSED, str(target))
    target.parent.mkdir(parents=True, exist_ok=True)
    source = packaged_demo()
    if source is not None:
        atomic_write(target, source.read_bytes(), replace=False)  # never through a link
    else:
        from stockade.tui.demo import build_demo

        build_demo(target)
    return target, [DemoMade(target)]


def open_game_path(path: Path | None) -> tuple[Path, list[Note]]:
    """Resolve what to open; returns the path and notes to show the player."""
    if path is not None:
        return Path(path), []
    last = read_last_game()
    if last is not None:
        return last, []
    return ensure_demo()
