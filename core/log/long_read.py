"""A long log opened piece by piece, past its snapshot's prefix when it has one.

A log over ``core.log.store.STREAM_FROM`` bytes is never read whole: its lines are
checked a piece at a time (``core.log.streamed_read``), the digest of its bytes and its
timeline made on the way, and only the records the fold asks for are decoded again from
the file (``core.log.records.LogRecords``). When the snapshot cache holds the fold of a
prefix of the log, the prefix is read without decoding a line: its bytes hashed on
the way prove it the very bytes once read whole. A short game's open never loads this
module, nor the snapshot cache.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from stockade.core.log import derived, snapcache
from stockade.core.log.derived import Content
from stockade.core.log.game_log import GAME
from stockade.core.log.game_timeline import CONTROLS, Timeline
from stockade.core.log.streamed_read import Proven, stream
from stockade.core.log.timeline import extend as extend_timeline
from stockade.core.model import events as ev

TYPE_CHECKING = False  # typing costs ~2 ms to import; mypy reads this the same way

if TYPE_CHECKING:
    from stockade.core.log.records import LogRecords

    Streamed = tuple[LogRecords[ev.Record], Content | None, Timeline, snapcache.Snapshot | None]


# A long log's records are read again from the file when asked for: the timeline and
# the fold hold each by its seq (``Timeline.lines``, ``core.log.effective_records``).
def _held(record: ev.Record) -> bool:
    return False


def read_long(path: Path, size: int) -> Streamed | None:
    """The long log at ``path`` (``size`` bytes, no group not yet accepted beside it)
    read piece by piece, the digest of its bytes (None when no derived store keys
    anything by it), its timeline, built as it was read, and the snapshot whose prefix
    it was read past undecoded (``_stream_past``); None when it is damaged or torn
    (``load`` reads it whole and says what it found)."""
    snapshot = snapcache.peek(path) if snapcache.enabled() else None
    if snapshot is not None and snapshot.timeline is not None and snapshot.log_bytes <= size:
        past = _stream_past(path, snapshot)
        if past is not None:
            return past
    content = Content() if derived.cache_dir() is not None else None
    # groups hold seqs from the first record on; the records by line are the stream's
    timeline = Timeline(CONTROLS, lines=[])
    read = stream(
        path,
        GAME,
        _held,
        content.extend if content is not None else None,
        partial(extend_timeline, timeline),
    )
    if read is None:
        return None
    timeline.lines = read.records
    return read.records, content, timeline, None


def _stream_past(path: Path, snapshot: snapcache.Snapshot) -> Streamed | None:
    """The log read past the prefix ``snapshot`` was made from, without decoding it:
    its bytes hashed on the way (the digest the snapshot is keyed by proves them the
    very bytes once read whole, checked and folded), its timeline the snapshot's,
    only the lines after it decoded and checked. None when the prefix does not hold
    (changed, cut short, or not whole lines) or the lines after it are not sound."""
    rows = snapshot.timeline
    assert rows is not None
    if max(rows.group_seqs, default=0) > snapshot.lines or max(rows.alone, default=0) > (
        snapshot.lines
    ):
        return None
    timeline = Timeline(CONTROLS, lines=[])
    try:
        snapcache.timeline_of(rows, timeline)
    except ValueError:
        return None
    content = Content()
    proven = Proven(
        snapshot.log_bytes,
        snapshot.lines,
        lambda: content.digest() == snapshot.log_hash,
        snapshot.index,
    )
    read = stream(path, GAME, _held, content.extend, partial(extend_timeline, timeline), proven)
    if read is None:
        return None
    timeline.lines = read.records
    return read.records, content, timeline, snapshot


__all__ = ["read_long"]
