"""Reading a game log: lines -> records, with every problem named by its line.

Policy (docs/durability.md):
* every line is checked for size BEFORE it is parsed (``MAX_LINE_BYTES``); nothing in
  a log can run code: records are decoded by msgspec into plain typed structs;
* a torn tail -- bytes after the last newline, or a last line that is not JSON at all
  (a crash mid-write) -- is set aside to a side file and the log loads with a warning;
  whole lines of the same command group written by the same torn write go with it;
* any other bad line (wrong type, unknown kind, wrong sequence number, too long, not
  JSON in the middle...) is never dropped: loading stops there, the game opens
  read-only, and the problem names the line;
* records written by an older schema are upgraded on read by ``core.upgrade``; the
  file itself is never rewritten.

``load`` never writes: it only reads ``path``. ``set_aside`` is the only writer here
and is called by ``Game.open`` only when it holds the write lock.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from stockade.core import events as ev
from stockade.core.bounds import explain
from stockade.core.journal import (
    MAX_LINE_BYTES,
    JournalError,
    RawLine,
    read_bytes,
    split_lines,
    write_new_file,
)
from stockade.core.upgrade import upgrade_record


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
    torn_tail: bytes | None = None  # bytes to set aside (they start at good_bytes)
    good_bytes: int = 0  # length of the file up to the end of the last good line
    size: int = 0  # length of the file as read


class Undecodable(ValueError):
    """The line is not JSON at all: what a crash in the middle of a write leaves."""


# It decodes every kind of record (ev.AnyRecord); typed as their base class, which the
# loaded lists hold (a union is not a ``type[T]``: mypy cannot infer it from one).
_decoder: msgspec.json.Decoder[ev.Record] = msgspec.json.Decoder(ev.AnyRecord)
_raw_decoder = msgspec.json.Decoder()


def parse_line(number: int, data: bytes) -> ev.Record:
    """Decode one line; raise ValueError with a readable message (the caller adds the
    line number). The size bound is checked before any parsing."""
    if len(data) > MAX_LINE_BYTES:
        raise ValueError(
            f"line is {len(data)} bytes, over the {MAX_LINE_BYTES}-byte limit; "
            "refused without reading it"
        )
    try:
        record = _decoder.decode(data)
    except msgspec.ValidationError as exc:
        record = _decode_old(data, exc)
    except (msgspec.DecodeError, UnicodeDecodeError):
        raise Undecodable("not valid JSON (damaged, or not a Stockade log)") from None
    except RecursionError:
        raise ValueError("nested too deeply to be a Stockade record") from None
    if record.v > ev.SCHEMA_VERSION:
        raise ValueError(f"written by a newer Stockade (schema v{record.v}); upgrade Stockade")
    if record.v < 0:
        raise ValueError(f"schema version {record.v} does not exist")
    return record


def _decode_old(data: bytes, original: msgspec.ValidationError) -> ev.Record:
    try:
        raw = _raw_decoder.decode(data)
    except (msgspec.DecodeError, UnicodeDecodeError):
        raise Undecodable("not valid JSON") from None
    except RecursionError:
        raise ValueError("nested too deeply to be a Stockade record") from None
    if not isinstance(raw, dict):
        raise ValueError(f"not a record (expected a JSON object, found {_json_type(raw)})")
    version = raw.get("v", 0)
    if type(version) is int and 0 <= version < ev.SCHEMA_VERSION and "kind" not in raw:
        try:
            upgraded: ev.Record = msgspec.convert(upgrade_record(raw), ev.AnyRecord)
            return upgraded
        except msgspec.ValidationError as exc:
            raise ValueError(
                f"old (v{version}) record could not be upgraded: {explain(exc)}"
            ) from None
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"old (v{version}) record could not be upgraded: {exc}") from None
    kind = raw.get("kind", raw.get("type"))
    if not isinstance(kind, str) or kind not in ev.KIND_TAGS:
        shown = kind if isinstance(kind, str) else _json_type(kind)
        raise ValueError(f"unknown record kind {str(shown)[:40]!r}")
    raise ValueError(f"bad '{kind}' record: {explain(original)}")


def _json_type(value: object) -> str:
    return {
        dict: "an object",
        list: "an array",
        str: "a string",
        int: "a number",
        float: "a number",
        bool: "true/false",
        type(None): "null",
    }.get(type(value), "?")


def load(path: Path) -> LoadedLog:
    """Read and check a game log. Raises JournalError only if it cannot be read at all.

    Never modifies ``path``.
    """
    blob = read_bytes(path)
    chunks, tail = split_lines(blob)
    result = _fast_load(blob, chunks, tail)
    if result is None:
        result = _careful_load(chunks, tail)
    result.size = len(blob)
    if not result.records and result.problem is None:
        if result.torn_tail is not None:
            result.problem = LogProblem(1, "the only line is unfinished: not a Stockade game")
        else:
            result.problem = LogProblem(1, "empty file: not a Stockade game")
    return result


def _fast_load(blob: bytes, chunks: list[bytes], tail: bytes) -> LoadedLog | None:
    """The common case -- every line current, whole and in order -- in one msgspec call.

    Returns None whenever anything is unusual; the careful path then names the line.
    """
    if tail or not chunks or max(map(len, chunks)) > MAX_LINE_BYTES or b"" in chunks:
        return None
    try:
        records = _decoder.decode_lines(blob)
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError, RecursionError):
        return None
    if len(records) != len(chunks) or not isinstance(records[0], ev.GameCreated):
        return None
    current = ev.SCHEMA_VERSION
    header = ev.GameCreated
    for expected, record in enumerate(records, 1):
        if (
            record.seq != expected
            or record.v != current
            or (expected > 1 and type(record) is header)
        ):
            return None
    return LoadedLog(records=records, good_bytes=len(blob))


def _careful_load(chunks: list[bytes], tail: bytes) -> LoadedLog:
    result = LoadedLog(records=[])
    lines = [RawLine(n, c) for n, c in enumerate(chunks, 1)]
    offset = 0
    for index, line in enumerate(lines):
        is_last = index == len(lines) - 1 and not tail
        try:
            record = parse_line(line.number, line.data)
            _check_sequence(result.records, record)
        except Undecodable as exc:
            if is_last and line.number > 1:
                # The very last line is not JSON: a crash mid-write. Set aside.
                result.torn_tail = line.data + b"\n"
                result.warnings.append(
                    f"line {line.number}: damaged last entry found ({exc}) and left out; "
                    "everything before it is intact"
                )
                break
            result.problem = LogProblem(line.number, str(exc))
            break
        except ValueError as exc:
            result.problem = LogProblem(line.number, str(exc))
            break
        result.records.append(record)
        offset += len(line.data) + 1
    result.good_bytes = offset
    if tail and result.problem is None:
        result.torn_tail = tail
        result.warnings.append(
            f"line {len(lines) + 1}: unfinished last entry ({len(tail)} bytes, "
            "probably a crash while writing) found and left out; everything before it "
            "is intact"
        )
    if result.torn_tail is not None and result.problem is None:
        _take_back_torn_group(result, lines)
    return result


_GRP = re.compile(rb'"(?:grp|group)":(\d{1,18})[,}]')
_SEQ = re.compile(rb'"seq":(\d{1,18})[,}]')


def _take_back_torn_group(result: LoadedLog, lines: list[RawLine]) -> None:
    """A torn write of a multi-line group may have left its first lines whole: when the
    torn bytes show they continue the last group, those lines go aside with them."""
    tail = result.torn_tail or b""
    grp_match, seq_match = _GRP.search(tail), _SEQ.search(tail)
    records = result.records
    if not grp_match or len(records) < 2:
        return
    grp = int(grp_match.group(1))
    if seq_match and int(seq_match.group(1)) == grp:
        return  # the torn line starts its own group
    if records[-1].grp != grp or grp <= 1:
        return
    taken: list[bytes] = []
    while len(records) > 1 and records[-1].grp == grp and not ev.is_control(records[-1]):
        taken.append(lines[len(records) - 1].data + b"\n")
        records.pop()
    if taken:
        moved = b"".join(reversed(taken))
        result.torn_tail = moved + tail
        result.good_bytes -= len(moved)
        result.warnings.append(
            f"the unfinished entry belonged to a command whose first {len(taken)} line(s) "
            "were written; they were set aside with it (that command was never accepted)"
        )


def _check_sequence(records: list[ev.Record], record: ev.Record) -> None:
    expected = len(records) + 1
    if not records and not isinstance(record, ev.GameCreated):
        raise ValueError("not a Stockade game: the first line must be the game header")
    if records and isinstance(record, ev.GameCreated):
        raise ValueError("a second game header in the middle of the log")
    if record.seq != expected:
        raise ValueError(
            f"sequence number {record.seq}, expected {expected} (a line is "
            "missing, repeated or out of order)"
        )


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


__all__ = ["LoadedLog", "LogProblem", "load", "parse_line", "set_aside", "JournalError"]
