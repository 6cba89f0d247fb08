"""A campaign log on disk: JSON lines in, checked records out.

The reading loop is the game's (``core.log.reader``): the size bound before parsing,
``seq`` equal to the line, one header, a torn tail set aside to a side file. This
module says what a camp log holds, and the camp's own policy: a bad line anywhere
else refuses the whole log, and so does a record the timeline or the rules cannot
take. Every fault is reported as one sentence naming the line, never a traceback: a
log may have been edited by hand or sent by a friend.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import get_args

import msgspec

from stockade.core.camp.errors import CampError
from stockade.core.camp.events import SCHEMA_VERSION, AnyRecord, CampStarted, Record
from stockade.core.camp.fold import apply, initial_state
from stockade.core.camp.history import CONTROLS, new_timeline
from stockade.core.camp.state import CampState
from stockade.core.log import reader as logread
from stockade.core.log.journal import Journal
from stockade.core.log.journal_errors import JournalError
from stockade.core.log.timeline import Timeline
from stockade.core.log.torn_tail import settle_torn_tail

CAMP: logread.LogFormat[Record] = logread.LogFormat(
    union=AnyRecord,
    decoder=msgspec.json.Decoder(AnyRecord),
    header=CampStarted,
    header_name="'camp' header",
    version=SCHEMA_VERSION,
    oldest=SCHEMA_VERSION,  # no older camp schema exists, so nothing to upgrade
    kinds=frozenset(t.__struct_config__.tag for t in get_args(AnyRecord)),
    controls=CONTROLS,
    noun="camp",
    what="camp campaign log",
    group_per_write=False,  # a group's rolls are written one by one, each accepted
)

_encoder = msgspec.json.Encoder()


def encode(record: Record) -> bytes:
    return _encoder.encode(record)


def decode_line(data: bytes, number: int) -> Record:
    """One line as a camp record, or the CampError naming line ``number``."""
    try:
        return logread.parse_line(CAMP, data)
    except ValueError as exc:
        raise CampError(f"line {number}: {exc}") from None


@dataclass
class LoadedLog:
    header: CampStarted
    records: list[Record]  # everything after the header, controls included
    timeline: Timeline[Record]
    state: CampState
    warnings: list[str] = field(default_factory=list)
    journal: Journal | None = None  # the journal to go on with (read-only if it had to be)


def load_log(path: Path, journal: Journal | None = None) -> LoadedLog:
    """Read, check and fold a whole log. ``journal``, if writable, sets a torn tail aside."""
    try:
        loaded = logread.load(Path(path), CAMP)
    except JournalError as exc:
        raise CampError(str(exc)) from None
    if loaded.problem is not None:
        raise CampError(str(loaded.problem))
    warnings = list(loaded.warnings)
    if journal is not None:
        if journal.read_only and journal.why_read_only:
            warnings.append(journal.why_read_only)
        journal = settle_torn_tail(Path(path), loaded, journal, warnings)
    elif loaded.torn_tail is not None:
        warnings[-1] += "; it stays in the file until the campaign is opened for play"
    header, *records = loaded.records
    assert isinstance(header, CampStarted)  # logread checked line 1
    timeline = new_timeline()
    for record in records:
        try:
            timeline.add(record)
        except CampError as exc:
            raise CampError(f"line {record.seq}: {exc}") from None
    state = initial_state(header)
    for event in timeline.effective():
        try:
            state = apply(state, event)
        except CampError as exc:
            raise CampError(f"line {event.seq}: {exc}") from None
    return LoadedLog(header, records, timeline, state, warnings, journal)
