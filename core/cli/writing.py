"""What every command that records into a game shares: opening it for writing, and the
reply of one recorded line (``do``, ``run``, ``undo``, ... and their ``--json``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from stockade.core.book.game import Game
from stockade.core.cli import jsonout
from stockade.core.cli.errors import CliError, Exit
from stockade.core.cli.read_commands import warn
from stockade.core.commands import Outcome


def open_to_write(path: Path) -> Game:
    """Open a log for writing; refuse, naming why, when it cannot be written."""
    game = Game.open(path)
    if game.read_only:  # one line saying why, not the warnings and then the refusal
        game.close()
        why = game.problem or (game.journal.why_read_only if game.journal else "read-only")
        code = (
            Exit.DAMAGED if game.problem else Exit.LOCKED if _held_elsewhere(game) else Exit.REFUSED
        )
        repair = f" (stockade repair {path} writes a repaired copy)" if game.problem else ""
        raise CliError(f"{path}: cannot record into it ({why}); nothing was recorded{repair}", code)
    for message in game.warnings:
        warn(message)
    return game


def _held_elsewhere(game: Game) -> bool:
    return bool(game.journal and game.journal.lock_held_elsewhere)


def reply_of(outcome: Outcome) -> dict[str, Any]:
    """A do/run/undo/... reply: what the player would read, and the records written."""
    return {
        "message": outcome.message,
        "records": [jsonout.record(r) for r in outcome.records],
        # what the write did (core.book.change.Change): later entries, units, CVP deltas
        "change": msgspec.to_builtins(outcome.change) if outcome.change else None,
    }


__all__ = ["open_to_write", "reply_of"]
