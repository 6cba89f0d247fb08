"""After a failed or refused write: what reached the log's file, and what the player is
told of it.

A write that fails (a full disk, a file replaced or cut short by another program) is
never guessed at: the file is read again and compared, by content, with what the store
had on file (``core.log.on_disk``); a foreign line stops the store writing, entries no
longer in the file are kept in a side file first. The OS error's number, never its
words (which depend on the platform and language), says what a full or read-only disk
means for the player. Only a failed write loads this module.
"""

from __future__ import annotations

import errno
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from stockade.core.log import chain
from stockade.core.log.files import group_marker, write_new_file
from stockade.core.log.journal import Journal
from stockade.core.log.journal_errors import JournalError
from stockade.core.log.on_disk import Found, OnDisk, examine
from stockade.core.model import events as ev


def what_reached_the_file(
    path: Path, journal: Journal, on_file: Sequence[ev.Record], stop_writing: Callable[[str], str]
) -> tuple[OnDisk, str]:
    """After a failed or refused write to the log at ``path`` (whose records, as the
    store had them on file, are ``on_file``): what the file holds now (by content)
    and what to tell the player of it. A foreign line stops the store writing
    (``stop_writing``: it is never taken in); lost entries are kept in a side file
    first, a copy of the log as this game had it. Raises JournalError if the file
    cannot be read."""
    found = examine(path, on_file, journal.size, journal.last_attempt)
    if found.found is Found.FOREIGN:
        return found, stop_writing(
            f"{path}: line {found.line} was not written by this game (another program "
            f"wrote it while the game was open: {found.text!r}); it is not taken into "
            f"the game, and stockade check {path.name} shows where the log stops being "
            "Stockade's; your entry was NOT recorded"
        )
    if found.found is Found.LOST:
        copy = _keep_copy(path, on_file)
        first, last = found.line, found.line + found.lost - 1
        entries = f"entry {first}" if first == last else f"entries {first}-{last}"
        return found, (
            f". {found.lost} accepted entr{'y is' if found.lost == 1 else 'ies are'} no "
            f"longer in the log as this game had {'it' if found.lost == 1 else 'them'} "
            f"({entries}: another program cut the file short or changed it); the log "
            f"as this game had it {copy}. The game goes on from what the file holds now"
        )
    if found.found in (Found.WRITTEN, Found.PART_WRITTEN) and os.path.lexists(
        group_marker(path)
    ):  # a group never accepted: the re-read cuts it back (``core.log.unfinished_group``)
        return found, (
            ". The log was re-read: what had reached the file of it was cut back and "
            "set aside; nothing of it was recorded"
        )
    said = {
        Found.NOT_WRITTEN: ". The log was re-read: it holds what it held before",
        Found.WRITTEN: (
            ". The log was re-read: the entry had reached the file after all (the "
            "cut-back failed) and is kept; check the history"
        ),
        Found.PART_WRITTEN: (
            f". The log was re-read: {found.kept} whole line(s) of the entry had reached "
            "the file and are kept, the unfinished one is set aside; check the history"
        ),
    }
    return found, said[found.found]


def _keep_copy(path: Path, records: Sequence[ev.Record]) -> str:
    """``records`` as a log (hash-chained, as the journal writes one) in a new side
    file beside ``path``: where it went, or why it could not be written."""
    data = b"".join(line + b"\n" for line in chain.chained([ev.encode(r) for r in records]))
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for n in range(100):
        side = path.with_name(f"{path.name}.kept-{stamp}" + (f".{n}" if n else ""))
        try:
            write_new_file(side, data)
        except FileExistsError:
            continue
        except OSError as exc:
            return f"could not be kept ({side}: {exc.strerror or exc})"
        return f"was kept in {side}"
    return "could not be kept (every side file name was taken)"


def disk_hint(exc: JournalError) -> str:
    """Say plainly what a full or read-only disk means for the player (told by the OS
    error's number, never by its words, which depend on the platform and language)."""
    if exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return (
            ". The disk is full: nothing more can be recorded until space is freed; "
            "everything recorded before is safe"
        )
    if exc.errno == errno.EROFS:
        return ". The disk is read-only: nothing can be recorded"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return ". Stockade may not write this file: nothing can be recorded"
    return ""


__all__ = ["disk_hint", "what_reached_the_file"]
