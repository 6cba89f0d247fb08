"""Where Stockade keeps the user's config and games (the folders themselves:
core/config/dirs.py, which ``stockade locate`` reads too). Nothing here imports Textual.
"""

from __future__ import annotations

from pathlib import Path

from stockade.core.config.dirs import config_dir as config_dir
from stockade.core.config.dirs import data_dir as data_dir
from stockade.core.log.files import write_own_file


def config_file() -> Path:
    return config_dir() / "config.toml"


def last_game_file() -> Path:
    return data_dir() / "last_game"


def read_last_game() -> Path | None:
    """The last game opened, if its file still exists."""
    try:
        text = last_game_file().read_text(encoding="utf-8").strip()
    except OSError:
        return None
    if not text:
        return None
    path = Path(text)
    return path if path.is_file() else None


def remember_last_game(path: Path) -> str | None:
    """Keep ``path`` as the game to open next time; returns a problem or None."""
    try:
        target = last_game_file()
        target.parent.mkdir(parents=True, exist_ok=True)
        write_own_file(target, (str(Path(path).resolve()) + "\n").encode("utf-8"))
    except OSError as exc:
        return f"could not remember the last game in {last_game_file()}: {exc.strerror}"
    return remember_recent(path)


RECENT_LIMIT = 20


def recent_file() -> Path:
    return data_dir() / "recent_games"


def read_recent() -> list[Path]:
    """Games opened before (newest first), as remembered; missing files are left out."""
    try:
        lines = recent_file().read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    return [Path(line) for line in lines if line.strip() and Path(line).is_file()]


def remember_recent(path: Path) -> str | None:
    """Put ``path`` first in the recent-games list (the open-game screen reads it)."""
    target = Path(path).resolve()
    kept = [p for p in read_recent() if p.resolve() != target]
    try:
        recent = recent_file()
        recent.parent.mkdir(parents=True, exist_ok=True)
        lines = [str(target), *(str(p) for p in kept[: RECENT_LIMIT - 1])]
        write_own_file(recent, ("\n".join(lines) + "\n").encode("utf-8"))
    except OSError as exc:
        return f"could not remember the recent games in {recent_file()}: {exc.strerror}"
    return None
