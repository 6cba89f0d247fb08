"""A game's records read back from its file while a long group is written.

A script (``stockade run``) is one group of any length, staged beside the log until
its end (``core.log.staging``). Its records were held in memory until the game closed
(~130 bytes each, the largest part of what a run held per line). Here the game's
records become a ``LogRecords`` (``core.log.records``) over the file the journal
writes: every record it holds is placed at its line (a short log's were all held,
a long log's own writes since its open too; they stay held), and each line staged is
indexed where it will lie in the log, its record read again from the spill, then from
the log, once it is no longer among the last few.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from stockade.core.log.journal import Journal
from stockade.core.log.journal_errors import JournalError
from stockade.core.log.log_file import LogFileRefused, open_log
from stockade.core.log.records import LogRecords
from stockade.core.model import events as ev


def readable(
    records: Sequence[ev.Record], journal: Journal, path: Path, decode: Callable[[bytes], ev.Record]
) -> LogRecords[ev.Record] | None:
    """``records`` with every one placed at its line of the file ``journal`` writes
    (the very file: its device and inode), ready to stage a group after them
    (``LogRecords.stage_into``); None when the file's lines are not the records one for
    one, or cannot be read (the records are then held as before)."""
    if isinstance(records, LogRecords):
        out = records
    else:
        try:
            fd = open_log(str(path))
        except LogFileRefused:
            return None
        if not journal.same_file(fd):
            os.close(fd)
            return None
        out = LogRecords(fd, str(path), decode)
        for record in records:
            out.append(record)
    try:
        out.index_held(journal.size)
    except (ValueError, JournalError):
        if out is not records:
            out.close()
        return None
    return out


__all__ = ["readable"]
