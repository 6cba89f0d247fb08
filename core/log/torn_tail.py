"""What opening does with a torn tail ``core.log.reader.load`` found: the bytes saved
to a side file, durably, then the log cut back -- a write, made only by an opener that
holds the write lock (``load`` itself never writes). A log read without a torn tail
never loads this module.
"""

from __future__ import annotations

import time
from pathlib import Path

from stockade.core.log.files import write_new_file
from stockade.core.log.journal import Journal
from stockade.core.log.reader import LoadedLog, R


def set_aside(path: Path, tail: bytes) -> Path:
    """Save torn bytes next to the log, durably, before the log is cut back.

    The side file is created exclusively (never overwrites an earlier one).
    """
    path = Path(path)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    n = 0
    while True:
        side = path.with_name(f"{path.name}.torn-{stamp}" + (f".{n}" if n else ""))
        try:
            write_new_file(side, tail)
            return side
        except FileExistsError:
            n += 1


def settle_torn_tail(
    path: Path, loaded: LoadedLog[R], journal: Journal, warnings: list[str]
) -> Journal:
    """What opening does with a torn tail ``load`` found: with the write lock, save the
    bytes to a side file, then cut the log back; read-only (or when the bytes cannot be
    saved), leave the file alone. Says so in ``warnings``; returns the journal to go on
    with (a read-only one when the side file could not be written)."""
    if loaded.torn_tail is None:
        return journal
    if not journal.read_only:
        try:
            side = set_aside(path, loaded.torn_tail)
        except OSError as exc:
            # A read-only folder or a full disk: the bytes cannot be saved, so they
            # are not cut off either; the log opens read-only.
            journal.close()
            why = f"cannot save the damaged bytes to a side file ({exc.strerror})"
            journal = Journal(path, None, True, why)
            warnings.append(f"{why}; opened read-only")
        else:
            journal.truncate_torn_tail(loaded.good_bytes)
            _add_to_last(warnings, f"the damaged bytes were set aside to {side.name}")
    if journal.read_only:
        _add_to_last(
            warnings,
            "the damaged bytes stay in the file (opened read-only); opening it for "
            "writing sets them aside to a side file",
        )
    return journal


def _add_to_last(warnings: list[str], note: str) -> None:
    """One message for one event (the torn tail found, and what became of it)."""
    if warnings:
        warnings[-1] = f"{warnings[-1]}; {note}"
    else:
        warnings.append(note)


__all__ = ["set_aside", "settle_torn_tail"]
