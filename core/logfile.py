"""Reading a game log: lines -> records, with every problem named by its line.

Policy (docs/durability.md):
* a torn last line (no newline, or undecodable last line) is set aside to a side
  file and the log loads with a warning;
* any other bad line is never dropped: loading stops there, the game opens
  read-only, and the problem names the line;
* records written by an older schema are upgraded on read by ``core.upgrade``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from core import events as ev
from core.journal import MAX_LINE_BYTES, JournalError, read_lines
from core.upgrade import upgrade_record


@dataclass
class LogProblem:
    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass
class LoadedLog:
    records: list[ev.Record]
    warnings: list[str] = field(default_factory=list)
    problem: LogProblem | None = None  # a bad line that stopped loading
    torn_tail: bytes | None = None
    good_bytes: int = 0  # length of the file up to the end of the last good line


_decoder = msgspec.json.Decoder(ev.AnyRecord)


def parse_line(number: int, data: bytes) -> ev.Record:
    """Decode one line; raise LogProblem-carrying ValueError with a readable message."""
    if len(data) > MAX_LINE_BYTES:
        raise ValueError(f"line is {len(data)} bytes, over the {MAX_LINE_BYTES}-byte limit")
    try:
        record = _decoder.decode(data)
    except msgspec.ValidationError as exc:
        record = _decode_old(data, exc)
    except msgspec.DecodeError:
        raise ValueError("not valid JSON (damaged or not a Stockade log)") from None
    if record.v > ev.SCHEMA_VERSION:
        raise ValueError(f"written by a newer Stockade (schema v{record.v}); upgrade Stockade")
    return record


def _decode_old(data: bytes, original: msgspec.ValidationError) -> ev.Record:
    try:
        raw = msgspec.json.decode(data)
    except msgspec.DecodeError:
        raise ValueError("not valid JSON") from None
    if not isinstance(raw, dict):
        raise ValueError("not a record (expected a JSON object)")
    version = raw.get("v", 0)
    if isinstance(version, int) and version < ev.SCHEMA_VERSION:
        try:
            return msgspec.convert(upgrade_record(raw), ev.AnyRecord)
        except (msgspec.ValidationError, KeyError, TypeError) as exc:
            raise ValueError(f"old record could not be upgraded: {exc}") from None
    kind = raw.get("kind")
    if kind not in ev.KIND_TAGS:
        raise ValueError(f"unknown record kind {kind!r}")
    raise ValueError(f"bad '{kind}' record: {original}")


def load(path: Path) -> LoadedLog:
    """Read and check a game log. Raises JournalError only if it cannot be read at all."""
    raw = read_lines(path)
    result = LoadedLog(records=[])
    offset = 0
    lines = raw.lines
    for index, line in enumerate(lines):
        is_last = index == len(lines) - 1 and raw.torn_tail is None
        try:
            record = parse_line(line.number, line.data)
            _check_sequence(result.records, record)
        except ValueError as exc:
            if is_last and line.number > 1:
                # The very last line is undecodable: treat as torn (a crash mid-write).
                result.torn_tail = line.data + b"\n"
                result.warnings.append(
                    f"line {line.number}: damaged last entry set aside ({exc}); "
                    "everything before it is intact")
                break
            result.problem = LogProblem(line.number, str(exc))
            break
        result.records.append(record)
        offset += len(line.data) + 1
    result.good_bytes = offset
    if raw.torn_tail is not None and result.problem is None:
        result.torn_tail = raw.torn_tail
        result.warnings.append(
            f"line {len(lines) + 1}: unfinished last entry ({len(raw.torn_tail)} bytes, "
            "probably a crash while writing) set aside; everything before it is intact")
    if not result.records and result.problem is None:
        if result.torn_tail is not None:
            result.problem = LogProblem(1, "the only line is unfinished: not a Stockade game")
        else:
            result.problem = LogProblem(1, "empty file: not a Stockade game")
    return result


def _check_sequence(records: list[ev.Record], record: ev.Record) -> None:
    expected = len(records) + 1
    if not records and not isinstance(record, ev.GameCreated):
        raise ValueError("not a Stockade game: the first line must be the game header")
    if records and isinstance(record, ev.GameCreated):
        raise ValueError("a second game header in the middle of the log")
    if record.seq != expected:
        raise ValueError(f"sequence number {record.seq}, expected {expected} (a line is "
                         "missing, repeated or out of order)")


def set_aside(path: Path, tail: bytes) -> Path:
    """Save a torn tail next to the log before the log is cut back to its last line."""
    side = Path(path).with_name(f"{Path(path).name}.torn-{time.strftime('%Y%m%d-%H%M%S')}")
    n = 0
    while side.exists():
        n += 1
        side = side.with_name(f"{side.name}.{n}")
    side.write_bytes(tail)
    return side


__all__ = ["LoadedLog", "LogProblem", "load", "parse_line", "set_aside", "JournalError"]
