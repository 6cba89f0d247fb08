"""Reading a game log: the game's records as ``core.log.reader`` reads them.

The reading loop, its policy (size bound before parsing, a torn tail set aside, any
other bad line named and never dropped) is ``core.log.reader``'s, and the side file
``core.log.torn_tail``'s, shared with the camp; this module says what a game log
holds: its records, its header, and how records of an older schema are upgraded
(``core.log.upgrade``).

``load`` never writes: it only reads ``path``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stockade.core.log import reader as logread
from stockade.core.log.game_timeline import CONTROLS
from stockade.core.log.journal_errors import JournalError
from stockade.core.log.reader import LogProblem, Undecodable
from stockade.core.model import events as ev


def _upgrade_record(raw: dict[str, Any]) -> dict[str, Any]:
    """``core.log.upgrade.upgrade_record``, imported with the first record of an older
    schema (a log of today's schema, every one a tally folds, never loads it)."""
    from stockade.core.log.upgrade import upgrade_record

    return upgrade_record(raw)


GAME: logread.LogFormat[ev.Record] = logread.LogFormat(
    union=ev.AnyRecord,
    decoder=ev.DECODER,
    header=ev.GameCreated,
    header_name="game header",
    version=ev.SCHEMA_VERSION,
    oldest=0,
    kinds=frozenset(ev.KIND_TAGS),
    controls=CONTROLS,
    noun="Stockade",
    what="Stockade game",
    upgrade=_upgrade_record,
    strict=ev.STRICT,  # ev's records leave the string patterns to a bulk check
)

LoadedLog = logread.LoadedLog[ev.Record]


def parse_line(number: int, data: bytes) -> ev.Record:
    """Decode one game-log line; raise ValueError with a readable message (the caller
    adds the line ``number``). The size bound is checked before any parsing."""
    return logread.parse_line(GAME, data)


def load(path: Path) -> LoadedLog:
    """Read and check a game log. Raises JournalError only if it cannot be read at all.

    Never modifies ``path``.
    """
    return logread.load(path, GAME)


__all__ = [
    "LoadedLog",
    "LogProblem",
    "Undecodable",
    "load",
    "parse_line",
    "JournalError",
]
