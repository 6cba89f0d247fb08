"""Reading a JSON-lines log: lines -> records, with every problem named by its line.

One loop for every log format Stockade reads: the game's (``core.log.game_log``) and the
camp's (``core.camp.logfile``); a ``LogFormat`` says what its records are. Policy
(docs/durability.md):

* every line is checked for size BEFORE it is parsed (``MAX_LINE_BYTES``); nothing in
  a log can run code: records are decoded by msgspec into plain typed structs;
* line *n* holds ``seq`` *n*; line 1, and only line 1, is the format's header;
* a torn tail -- bytes after the last newline, or a last line that is not JSON at all
  (a crash mid-write) -- is set aside to a side file and the log loads with a warning;
  where one command group is one write, whole lines of the group the torn write
  belonged to go with it;
* any other bad line (wrong type, unknown kind, wrong sequence number, too long, not
  JSON in the middle...) is never dropped: loading stops there and the problem names
  the line (the game opens read-only up to it, the camp refuses the log);
* records written by an older schema are upgraded on read by the format's ``upgrade``
  hook; the file itself is never rewritten.

``load`` never writes: it only reads ``path``. What opening does with a torn tail
(saved to a side file, the log cut back) is ``core.log.torn_tail``'s, a long sound log
read piece by piece ``core.log.streamed_read``'s (on this module's checks).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import msgspec

from stockade.core.log.log_lines import MAX_LINE_BYTES, read_bytes
from stockade.core.log.timeline import Controls
from stockade.core.model.bounds import explain
from stockade.core.model.record_bounds import Strict


class LogRecord(Protocol):
    """What the reading loop needs of a record: its line, group and schema version."""

    @property
    def seq(self) -> int: ...

    @property
    def grp(self) -> int: ...

    @property
    def v(self) -> int: ...


R = TypeVar("R", bound=LogRecord)

if TYPE_CHECKING:  # a decoder is msgspec's, or ``core.model.record_decoder``'s
    D = TypeVar("D")

    class LineDecoder(Protocol[D]):
        """What the reading loop needs of a decoder: a line, or a buffer of lines."""

        def decode(self, buf: bytes, /) -> D: ...

        def decode_lines(self, buf: bytes, /) -> list[D]: ...


class LogFormat(msgspec.Struct, Generic[R], frozen=True):
    """One kind of log: its records, its header, its versions and its words."""

    union: Any  # the tagged union of every record type (for msgspec.convert)
    decoder: LineDecoder[R]  # a decoder of ``union``
    header: type  # the type of line 1, and of no other line
    header_name: str  # "game header"
    version: int  # the schema version written now
    oldest: int  # the oldest version read as it is
    kinds: frozenset[str]  # every ``kind`` tag, to tell an unknown record from a bad one
    controls: Controls  # undo/redo/strike records: a torn group never takes one with it
    noun: str  # who writes such records: "not valid JSON (damaged, or not a {noun} log)"
    what: str  # what the whole file is: "empty file: not a {what}"
    # A raw record of an older version -> the current shape (None: no older versions).
    upgrade: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    # Whether a command group is written by one write: only then can a torn write have
    # left the group's first lines whole (the camp writes a group line by line, each
    # accepted on its own, so its whole lines are never taken back).
    group_per_write: bool = True
    # When ``decoder`` leaves the string patterns of core/model/bounds.py to a bulk check
    # (core/model/record_bounds.py), their strict twin: it decides every line the bulk check
    # cannot vouch for, so a refusal reads exactly as the strict decoder words it.
    strict: Strict | None = None


class LogProblem(msgspec.Struct):
    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


class LoadedLog(msgspec.Struct, Generic[R]):
    records: list[R]
    warnings: list[str] = msgspec.field(default_factory=list)
    problem: LogProblem | None = None  # a bad line that stopped loading
    torn_tail: bytes | None = None  # bytes to set aside (they start at good_bytes)
    good_bytes: int = 0  # length of the file up to the end of the last good line
    size: int = 0  # length of the file as read
    data: bytes = b""  # the bytes read (the snapshot cache verifies its prefix with them)


class Undecodable(ValueError):
    """The line is not JSON at all: what a crash in the middle of a write leaves."""


class NotARecord(ValueError):
    """The line is JSON, but no record of this log's kind: ``detail`` says what it is
    ("a JSON object with no 'kind'"); on the first line, the file is no such log."""

    def __init__(self, message: str, detail: str) -> None:
        super().__init__(message)
        self.detail = detail


_raw_decoder = msgspec.json.Decoder()


def parse_line(fmt: LogFormat[R], data: bytes) -> R:
    """Decode one line; raise ValueError with a readable message (the caller adds the
    line number). The size bound is checked before any parsing."""
    if len(data) > MAX_LINE_BYTES:
        raise ValueError(
            f"line is {len(data)} bytes, over the {MAX_LINE_BYTES}-byte limit; "
            "refused without reading it"
        )
    try:
        record = _decode(fmt, data)
    except msgspec.ValidationError as exc:
        record = _decode_old(fmt, data, exc)
    except (msgspec.DecodeError, UnicodeDecodeError):
        raise Undecodable(f"not valid JSON (damaged, or not a {fmt.noun} log)") from None
    except RecursionError:
        raise ValueError(f"nested too deeply to be a {fmt.noun} record") from None
    if record.v > fmt.version:
        raise ValueError(f"written by a newer Stockade (schema v{record.v}); upgrade Stockade")
    if record.v < fmt.oldest:
        raise ValueError(f"schema version {record.v} is not one this program reads")
    return record


def _decode(fmt: LogFormat[R], data: bytes) -> R:
    """``fmt.decoder``'s record for one line, held to every bound: where that decoder
    leaves the string patterns to a bulk check, a line the check cannot vouch for is
    decoded strictly too, and the strict decoder's error is the one raised."""
    strict = fmt.strict
    if strict is None:
        return fmt.decoder.decode(data)
    try:
        record = fmt.decoder.decode(data)
    except msgspec.ValidationError:
        strict.decoder.decode(data)  # raises its own (first) error: the one players read
        raise  # pragma: no cover - the loose types refuse nothing the strict ones take
    if not strict.vouch(data, {type(record): [record]}):
        strict.decoder.decode(data)  # raises
    return record


def _decode_old(fmt: LogFormat[R], data: bytes, original: msgspec.ValidationError) -> R:
    try:
        raw = _raw_decoder.decode(data)
    except (msgspec.DecodeError, UnicodeDecodeError):
        raise Undecodable("not valid JSON") from None
    except RecursionError:
        raise ValueError(f"nested too deeply to be a {fmt.noun} record") from None
    if not isinstance(raw, dict):
        found = _json_type(raw)
        raise NotARecord(f"not a record (expected a JSON object, found {found})", f"{found}")
    if not any(name in raw for name in ("kind", "type")):  # "type": v0's spelling
        raise NotARecord(f"not a {fmt.noun} record (no 'kind')", "a JSON object with no 'kind'")
    version = raw.get("v", 0)
    old = type(version) is int and 0 <= version < fmt.version and "kind" not in raw
    if fmt.upgrade is not None and old:
        try:
            upgraded = fmt.upgrade(raw)
            kind = upgraded.get("kind")
            if not isinstance(kind, str) or kind not in fmt.kinds:  # said without decoding
                shown = "no 'kind'" if kind is None else f"unknown kind {str(kind)[:40]!r}"
                raise ValueError(f"not a {fmt.noun} record ({shown})")
            # Encoded and decoded again rather than ``msgspec.convert``: a decoder keeps
            # its union's type information, ``convert`` rebuilds it on every call (~35 us
            # a line: 3 M hand-made lines kept ``repair`` busy for two minutes).
            again = msgspec.json.encode(upgraded)
            if fmt.strict is not None:  # every bound, patterns included, then the record
                fmt.strict.decoder.decode(again)
            record: R = fmt.decoder.decode(again)
        except msgspec.ValidationError as exc:
            raise ValueError(
                f"old (v{version}) record could not be upgraded: {explain(exc)}"
            ) from None
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"old (v{version}) record could not be upgraded: {exc}") from None
        return record
    kind = raw.get("kind", raw.get("type"))
    if not isinstance(kind, str) or kind not in fmt.kinds:
        shown = str(kind if isinstance(kind, str) else _json_type(kind))[:40]
        raise NotARecord(f"unknown record kind {shown!r}", f"a record of unknown kind {shown!r}")
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


def load(path: Path, fmt: LogFormat[R]) -> LoadedLog[R]:
    """Read and check a log. Raises JournalError only if it cannot be read at all.

    Never modifies ``path``.
    """
    blob = read_bytes(path)
    result = _fast_load(fmt, blob)
    if result is None:
        result = _careful_load(fmt, blob)
    result.size = len(blob)
    result.data = blob
    if not result.records and result.problem is None:
        if result.torn_tail is not None:
            result.problem = LogProblem(1, f"the only line is unfinished: not a {fmt.what}")
        else:
            result.problem = LogProblem(1, f"empty file: not a {fmt.what}")
    return result


def in_order(
    fmt: LogFormat[R], records: list[R], expected: int, handles: set[str]
) -> tuple[int, int] | None:
    """The seq after ``records`` and how many headers they hold, when each is current
    and numbered from ``expected`` on (collecting their handles for the bulk check into
    ``handles``); None as soon as one is not.

    By slices: a slice's records are grouped by type (for the bulk check) and their
    handles collected while they are still in the CPU cache; one pass over all of a
    long log's records, then another, missed the cache for each."""
    current, header, strict = fmt.version, fmt.header, fmt.strict
    headers = 0
    for start in range(0, len(records), _SLICE):
        by_type: dict[type, list[R]] = {}
        group_of = by_type.get
        for record in records[start : start + _SLICE]:
            if record.seq != expected or record.v != current:
                return None
            expected += 1
            group = group_of(type(record))
            if group is None:
                by_type[type(record)] = [record]
            else:
                group.append(record)
        headers += len(by_type.get(header, ()))
        if strict is not None:
            strict.collect_handles(by_type, handles)
    return expected, headers


def _fast_load(fmt: LogFormat[R], blob: bytes) -> LoadedLog[R] | None:
    """The common case -- every line current, whole and in order -- in one msgspec call.

    Returns None whenever anything is unusual; the careful path then names the line.
    The whole-buffer tests stand for splitting it into lines (which cost as much as
    decoding them): a torn tail, a line that does not start a record, a line over the
    size bound.
    """
    if not blob.endswith(b"}\n") or not blob.startswith(b"{"):
        return None
    if bad_line_break(blob) or not lines_fit(blob):
        return None
    lines = blob.count(b"\n")
    try:
        records = fmt.decoder.decode_lines(blob)
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError, RecursionError):
        return None
    if len(records) != lines or not isinstance(records[0], fmt.header):
        return None
    strict = fmt.strict
    handles: set[str] = set()
    counted = in_order(fmt, records, 1, handles)
    if counted is None or counted[1] != 1:  # out of order, or a second header
        return None
    if strict is not None and not strict.vouch_collected(blob, handles):
        return None  # a string the bulk check cannot clear: the careful path decides
    return LoadedLog(records=records, good_bytes=len(blob))


# Every line a writer makes starts with "{" and ends with "}": a log with a line break
# anywhere else (an empty or spaces-only line, a record split across lines...) goes to
# the careful path, which names the line. This is what makes the count test of
# ``_fast_load`` mean "one line, one record": JSON cannot hold a raw newline inside a
# string, nor "}" then "{" inside a value, so no record spans a break between "}" and
# "{"; every line then holds at least one record, and as many records as lines leaves
# exactly one each (a header split in two no longer balances a line holding two). The
# regex finds a newline (memchr) and looks at its neighbours: ~11 ms over a 20 MB log
# (``[^}]\n`` scanned every byte: 70 ms; counting ``}\n{``: 22 ms).
bad_line_break = re.compile(rb"\n(?:[^{]|(?<!\}\n))").search
_SLICE = 4096  # records per slice of the fast path's checks (~1 MB: stays in cache)


def lines_fit(blob: bytes) -> bool:
    """Is every line of ``blob`` (which ends with a newline) at most MAX_LINE_BYTES long?
    From a line's start, a window of MAX_LINE_BYTES + 1 bytes holds its newline; jumping
    to the window's *last* newline skips every line inside it, so a 20 MB log is read
    in ~64 KB steps (C ``rfind``), not line by line."""
    pos, end = 0, len(blob)
    while pos < end:
        newline = blob.rfind(b"\n", pos, pos + MAX_LINE_BYTES + 1)
        if newline < 0:
            return False
        pos = newline + 1
    return True


def lines_of(blob: bytes) -> Iterator[bytes]:
    """The complete lines of ``blob`` (without their newlines), one at a time: a log of
    millions of empty or tiny lines is never held as a list of line objects (2 MB of
    empty lines took 305 MB that way)."""
    pos, end = 0, blob.rfind(b"\n") + 1
    find = blob.find
    while pos < end:
        newline = find(b"\n", pos, end)
        yield blob[pos:newline]
        pos = newline + 1


def tail_of(blob: bytes) -> bytes:
    """The bytes after the last newline (a torn write), or b""."""
    return blob[blob.rfind(b"\n") + 1 :]


def _careful_load(fmt: LogFormat[R], blob: bytes) -> LoadedLog[R]:
    result: LoadedLog[R] = LoadedLog(records=[])
    tail = tail_of(blob)
    offset = 0
    kept: list[bytes] = []  # the good lines' bytes (a torn group takes its own back)
    for number, data, is_last_line in _with_last(lines_of(blob)):
        is_last = is_last_line and not tail
        try:
            record = parse_line(fmt, data)
            _check_sequence(fmt, result.records, record)
        except Undecodable as exc:
            if is_last and number > 1:
                # The very last line is not JSON: a crash mid-write. Set aside.
                result.torn_tail = data + b"\n"
                result.warnings.append(
                    f"line {number}: damaged last entry found ({exc}) and left out; "
                    "everything before it is intact"
                )
                break
            result.problem = LogProblem(number, str(exc))
            break
        except NotARecord as exc:
            said = str(exc)
            if number == 1:  # no record at all where the header should be
                said = (
                    f"not a {fmt.what} log: this line is {exc.detail}, not the "
                    f"{fmt.header_name} a {fmt.what} log begins with"
                )
            result.problem = LogProblem(number, said)
            break
        except ValueError as exc:
            result.problem = LogProblem(number, str(exc))
            break
        result.records.append(record)
        kept.append(data)
        offset += len(data) + 1
    result.good_bytes = offset
    if tail and result.problem is None:
        lines = blob.count(b"\n")
        result.torn_tail = tail
        result.warnings.append(
            f"line {lines + 1}: unfinished last entry ({len(tail)} bytes, "
            "probably a crash while writing) found and left out; everything before it "
            "is intact"
        )
    if result.torn_tail is not None and result.problem is None and fmt.group_per_write:
        _take_back_torn_group(fmt, result, kept)
    return result


def _with_last(lines: Iterator[bytes]) -> Iterator[tuple[int, bytes, bool]]:
    """Each line with its 1-based number and whether it is the last whole line."""
    previous: bytes | None = None
    number = 0
    for data in lines:
        if previous is not None:
            yield number, previous, False
        number += 1
        previous = data
    if previous is not None:
        yield number, previous, True


# compiled by ``re`` when first searched for: only a torn log's recovery reads them
_GRP = rb'"(?:grp|group)":(\d{1,18})[,}]'
_SEQ = rb'"seq":(\d{1,18})[,}]'


def _take_back_torn_group(fmt: LogFormat[R], result: LoadedLog[R], lines: list[bytes]) -> None:
    """A torn write of a multi-line group may have left its first lines whole: when the
    torn bytes show they continue the last group, those lines go aside with them."""
    tail = result.torn_tail or b""
    grp_match, seq_match = re.search(_GRP, tail), re.search(_SEQ, tail)
    records = result.records
    if not grp_match or len(records) < 2:
        return
    grp = int(grp_match.group(1))
    if seq_match and int(seq_match.group(1)) == grp:
        return  # the torn line starts its own group
    if records[-1].grp != grp or grp <= 1:
        return
    controls = fmt.controls.actions
    taken: list[bytes] = []
    while len(records) > 1 and records[-1].grp == grp and type(records[-1]) not in controls:
        taken.append(lines[len(records) - 1] + b"\n")
        records.pop()
    if taken:
        moved = b"".join(reversed(taken))
        result.torn_tail = moved + tail
        result.good_bytes -= len(moved)
        result.warnings.append(
            f"the unfinished entry belonged to a command whose first {len(taken)} line(s) "
            "were written; they were set aside with it (that command was never accepted)"
        )


def _check_sequence(fmt: LogFormat[R], records: list[R], record: R) -> None:
    expected = len(records) + 1
    if not records and not isinstance(record, fmt.header):
        raise ValueError(f"not a {fmt.what}: the first line must be the {fmt.header_name}")
    if records and isinstance(record, fmt.header):
        raise ValueError(f"a second {fmt.header_name} in the middle of the log")
    if record.seq != expected:
        raise ValueError(
            f"sequence number {record.seq}, expected {expected} (a line is "
            "missing, repeated or out of order)"
        )


__all__ = [
    "LoadedLog",
    "LogFormat",
    "LogProblem",
    "Undecodable",
    "load",
    "parse_line",
]
