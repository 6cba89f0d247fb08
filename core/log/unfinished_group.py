"""A group of entries whose write was never accepted, found beside the log on open.

``Journal.append_group`` leaves a marker beside the log (``core.log.files.group_marker``:
the log's length before and after the group) while a group is written, and removes it
once the group is accepted. A marker still there on open means a 'stockade run' was
killed or failed mid-group: a writer sets the bytes it left aside and cuts the log back
(``settle_unfinished_group``); a reader does not show them (``hide_unfinished_group``).
Only a log with a marker beside it loads this module.
"""

from __future__ import annotations

import os
from pathlib import Path

from stockade.core.log.files import group_marker, read_marker
from stockade.core.log.game_log import LoadedLog
from stockade.core.log.journal import Journal
from stockade.core.log.torn_tail import set_aside


def settle_unfinished_group(path: Path, journal: Journal) -> str:
    """A group whose write was never accepted (``Journal.append_group``'s marker is still
    there: killed, or failed and not cut back): set the bytes it left aside and cut the
    log back to where it began. '' when there is none."""
    marker = group_marker(path)
    lengths = read_marker(marker)
    if lengths is None:
        if os.path.lexists(marker):
            os.unlink(marker)  # not a marker (a link, other bytes): never followed
        return ""
    before, after = lengths
    size = journal.size
    if size <= before:  # the write never began
        os.unlink(marker)
        return ""
    with open(path, "rb") as log:
        log.seek(before)
        unfinished = log.read(size - before)
    side = set_aside(path, unfinished)
    journal.truncate_torn_tail(before)
    os.unlink(marker)
    return (
        f"the last write into this log was never accepted ({size - before} of "
        f"{after - before} bytes of one group of entries: a 'stockade run' killed or failed "
        f"while writing); none of it counts: the log was cut back to what it held "
        f"before, and the bytes were set aside to {side.name}"
    )


def hide_unfinished_group(path: Path, loaded: LoadedLog) -> str:
    """Read-only, a group not yet accepted (being written, or killed until a writer
    opens the log) is not shown: the records end where the group began."""
    lengths = read_marker(group_marker(path))
    if lengths is None or loaded.size <= lengths[0]:
        return ""
    keep = loaded.data[: lengths[0]].count(b"\n")
    if keep >= len(loaded.records):
        return ""
    hidden = len(loaded.records) - keep
    del loaded.records[keep:]
    loaded.torn_tail = None  # part of the unfinished group, not a torn line of its own
    loaded.good_bytes = lengths[0]
    return (
        f"the last {hidden} entries are a write not yet accepted (a 'stockade run' "
        "writing, or killed while writing); they are not shown"
    )


__all__ = ["hide_unfinished_group", "settle_unfinished_group"]
