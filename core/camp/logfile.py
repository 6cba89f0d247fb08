"""A campaign log on disk: JSON lines in, checked records out.

Every fault is reported as one sentence naming the line, never a traceback: a log may
have been edited by hand or sent by a friend.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from stockade.core.bounds import explain
from stockade.core.camp.errors import CampError
from stockade.core.camp.events import SCHEMA_VERSION, AnyRecord, CampStarted, Record
from stockade.core.camp.fold import apply, initial_state
from stockade.core.camp.history import Timeline
from stockade.core.camp.state import CampState
from stockade.core.journal import (
    MAX_LINE_BYTES,
    Journal,
    JournalError,
    ReadResult,
    atomic_write,
    read_lines,
)

_encoder = msgspec.json.Encoder()
_decoder: msgspec.json.Decoder[AnyRecord] = msgspec.json.Decoder(AnyRecord)


def encode(record: Record) -> bytes:
    return _encoder.encode(record)


def decode_line(data: bytes, number: int) -> Record:
    if len(data) > MAX_LINE_BYTES:  # checked before parsing: a log may be hostile
        raise CampError(f"line {number}: {len(data)} bytes, over the {MAX_LINE_BYTES}-byte limit")
    try:
        record = _decoder.decode(data)
    except msgspec.ValidationError as exc:
        raise CampError(f"line {number}: not a camp record ({explain(exc)})") from None
    except (msgspec.DecodeError, UnicodeDecodeError) as exc:
        raise CampError(f"line {number}: not valid JSON ({exc})") from None
    except RecursionError:
        raise CampError(f"line {number}: nested too deeply to be a camp record") from None
    if record.v != SCHEMA_VERSION:
        raise CampError(f"line {number}: schema version {record.v} is not one this program reads")
    if record.seq != number:
        raise CampError(f"line {number}: seq is {record.seq}; records must be numbered 1, 2, 3 ...")
    return record


@dataclass
class LoadedLog:
    header: CampStarted
    records: list[Record]  # everything after the header, controls included
    timeline: Timeline
    state: CampState
    warnings: list[str] = field(default_factory=list)


def load_log(path: Path, journal: Journal | None = None) -> LoadedLog:
    """Read, check and fold a whole log. ``journal``, if writable, repairs a torn tail."""
    try:
        result = read_lines(path)
    except JournalError as exc:
        raise CampError(str(exc)) from None
    warnings = list(result.warnings)
    if result.torn_tail is not None:
        warnings.append(_set_aside_torn_tail(Path(path), result, result.torn_tail, journal))
    if not result.lines:
        raise CampError(f"{path}: empty; not a camp campaign log")
    records = [decode_line(raw.data, raw.number) for raw in result.lines]
    header = records[0]
    if not isinstance(header, CampStarted):
        tag = header.__struct_config__.tag
        raise CampError(f"line 1: a camp log starts with its 'camp' header, not {tag!r}")
    timeline = Timeline()
    for record in records[1:]:
        if isinstance(record, CampStarted):
            raise CampError(f"line {record.seq}: a second header")
        try:
            timeline.add(record)
        except CampError as exc:
            raise CampError(f"line {record.seq}: {exc}") from None
    state = initial_state(header)
    for event in timeline.events():
        try:
            state = apply(state, event)
        except CampError as exc:
            raise CampError(f"line {event.seq}: {exc}") from None
    return LoadedLog(header, records[1:], timeline, state, warnings)


def _set_aside_torn_tail(
    path: Path, result: ReadResult, tail: bytes, journal: Journal | None
) -> str:
    if journal is None or journal.read_only:
        return f"{path}: the last {len(tail)} bytes are an unfinished record and are ignored"
    side = path.with_name(path.name + ".torn")
    atomic_write(side, tail)
    keep = sum(len(raw.data) + 1 for raw in result.lines)
    journal.truncate_torn_tail(keep)
    return f"{path}: an unfinished last record ({len(tail)} bytes) was set aside to {side.name}"
