"""What a failed or refused write left in the log, decided by content, never by a count.

After a write fails (a full disk, an I/O error, a cut-back that failed too) or is
refused because the file changed under the game, the store asks here what the file
holds now against what the game holds: its records (each one's seq and every field),
the bytes the journal tried to write, and the length it left the file at. The verdict
says which of these it is, and the message tells the player exactly that:

* ``NOT_WRITTEN``: the file is what the game holds; the entry was not recorded;
* ``WRITTEN``: the very bytes tried are in the file, whole (the cut-back failed): kept;
* ``PART_WRITTEN``: the bytes after the game's are the start of the ones tried: the
  whole lines among them are kept, the unfinished one set aside on re-reading;
* ``FOREIGN``: a line the game did not write follows its records (another program
  appended): never taken in; the game stops writing and names the line;
* ``LOST``: records the game had accepted are no longer in the file, or differ (the
  file was cut short or rewritten): how many, from which entry.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from pathlib import Path

import msgspec

from stockade.core.log.game_log import load
from stockade.core.model import events as ev


class Found(enum.Enum):
    NOT_WRITTEN = "not written"
    WRITTEN = "written"
    PART_WRITTEN = "part written"
    FOREIGN = "foreign"
    LOST = "lost"


class OnDisk(msgspec.Struct, frozen=True):
    found: Found
    line: int = 0  # FOREIGN: the first line the game did not write; LOST: the first gone
    text: str = ""  # FOREIGN: the start of that line, shown to the player
    kept: int = 0  # PART_WRITTEN: whole lines of the attempt in the file
    lost: int = 0  # LOST: accepted entries no longer in the file as the game had them


_SHOWN = 80  # bytes of a foreign line shown in the message


def examine(path: Path, held: Sequence[ev.Record], size: int, attempt: bytes) -> OnDisk:
    """What ``path`` holds now, against the game's records ``held`` (written up to byte
    ``size``) and the bytes ``attempt`` it tried to write after them (b"" when nothing
    was written: the change was found before writing). Raises JournalError if the file
    cannot be read."""
    loaded = load(path)
    records = loaded.records
    n = len(held)
    # record by record: ``held`` may be a long log's records, read again from the
    # descriptor the game opened (core/log/records.py), never a list to compare whole
    differ = next((i for i, (a, b) in enumerate(zip(records, held, strict=False)) if a != b), -1)
    if differ >= 0 or len(records) < n:
        first = differ if differ >= 0 else len(records)
        return OnDisk(Found.LOST, line=first + 1, lost=n - first)
    tail = loaded.data[size:]
    if not tail:
        return OnDisk(Found.NOT_WRITTEN)
    if attempt and tail == attempt:
        return OnDisk(Found.WRITTEN)
    if attempt and attempt.startswith(tail):
        return OnDisk(Found.PART_WRITTEN, kept=tail.count(b"\n"))
    ours = 0  # whole lines of the attempt before the first foreign one
    for theirs, mine in zip(tail.split(b"\n"), attempt.split(b"\n")[:-1], strict=False):
        if theirs != mine:
            break
        ours += 1
    foreign = tail.split(b"\n")[ours]
    shown = foreign[:_SHOWN].decode("utf-8", "replace")
    if len(foreign) > _SHOWN:
        shown += "..."
    return OnDisk(Found.FOREIGN, line=n + ours + 1, text=shown)


__all__ = ["Found", "OnDisk", "examine"]
