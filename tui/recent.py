"""The games the open-game screen offers: those opened before and those in the data
dir, newest first, each with its scenario, Game Turn and CVP (read-only, nothing on
disk changes). No Textual here."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from stockade.tui.paths import data_dir, read_recent

NOT_GAMES = {"camp.jsonl"}  # the POW camp's campaign log lives in the data dir too


@dataclass(frozen=True)
class GameSummary:
    path: Path
    modified: float
    scenario: str = ""
    turn: int = 0
    ended: bool = False
    cvp: tuple[tuple[str, int], ...] = ()
    problem: str = ""  # why it could not be read, if it could not

    @property
    def line(self) -> str:
        if self.problem:
            return f"{self.path.name}: {self.problem}"
        when = "ended" if self.ended else f"Turn {self.turn}"
        cvp = ", ".join(f"{name} {points}" for name, points in self.cvp)
        return f"{self.scenario} · {when} · CVP {cvp}"


def candidate_paths(directory: Path | None = None) -> list[Path]:
    """Remembered games plus ``*.jsonl`` in the data dir, newest (modified) first."""
    directory = directory or data_dir()
    seen: dict[Path, Path] = {}
    found = [*read_recent()]
    if directory.is_dir():
        found += [p for p in directory.glob("*.jsonl") if p.name not in NOT_GAMES]
    for path in found:
        seen.setdefault(path.resolve(), path)

    def modified(path: Path) -> float:
        try:
            return path.stat().st_mtime
        except OSError:
            return 0.0

    return sorted(seen.values(), key=modified, reverse=True)


def summarise(path: Path) -> GameSummary:
    """One game's scenario, turn and CVP, read without writing anything."""
    from stockade.core.book.game import Game
    from stockade.core.book.tally import tally

    try:
        modified = path.stat().st_mtime
    except OSError as exc:
        return GameSummary(path, 0.0, problem=f"cannot be read ({exc.strerror})")
    try:
        game = Game.open(path, read_only=True)
    except Exception as exc:  # not a game, damaged beyond reading: say so, list the rest
        return GameSummary(path, modified, problem=f"not readable as a game ({exc})")
    try:
        t = tally(game.state)
        cvp = tuple((name, side.cvp) for name, side in t.sides.items())
        return GameSummary(path, modified, t.scenario, t.turn, t.ended, cvp)
    finally:
        game.close()


def recent_games(directory: Path | None = None, limit: int = 20) -> list[GameSummary]:
    return [summarise(p) for p in candidate_paths(directory)[:limit]]
