"""What a record is stamped with, and the bounds it is held to, before it is written.

``core.book.writer`` stamps every record it writes (its seq, group and time) and holds what
a command would record to the bounds a log line is held to (``core.model.bounds``),
so that nothing a log could not hold is ever written.
"""

from __future__ import annotations

import datetime as _dt
import functools
import sys
import time

import msgspec

from stockade.core.model import events as ev
from stockade.core.model.bounds import MAX_SEQ, MAX_TEXT, explain, has_control
from stockade.core.model.errors import InputRefusal
from stockade.core.model.record_bounds import check_fresh, check_written


def now() -> str:
    """The time each record is stamped with (display only; never read by the rules).
    ``sample_games.regenerate`` pins it to one instant to make byte-identical logs."""
    return _iso_second(int(time.time()))


@functools.lru_cache(maxsize=1)
def _iso_second(second: int) -> str:
    """The entry time, made once a second, not formatted again for every write."""
    return _dt.datetime.fromtimestamp(second, _dt.UTC).isoformat(timespec="seconds")


def within_bounds(records: list[ev.Record]) -> None:
    """Hold what a command would record to the bounds a log line is held to:
    a Refusal naming the field, before any rule sees the values."""
    try:
        # every bound, string patterns included; no invisible character, no look-alike
        check_written(records, ev.STRICT)
    except ValueError as exc:
        raise InputRefusal(f"cannot be recorded: {exc}") from None


def encoded_within_bounds(records: list[ev.Record]) -> list[bytes]:
    """The log lines of ``records``, each encoded once and held to the bounds a log line
    is held to by decoding those very bytes (a Refusal naming the field): what is
    checked is what is written."""
    lines = [ev.encode(r) for r in records]
    strict = ev.STRICT.decoder
    for line in lines:
        try:
            strict.decode(line)
        except msgspec.ValidationError as exc:
            raise InputRefusal(f"cannot be recorded: {explain(exc)}") from None
    try:  # what only a record written now is held to
        check_fresh(records, lines, ev.STRICT)
    except ValueError as exc:
        raise InputRefusal(f"cannot be recorded: {exc}") from None
    return lines


def reason_fits(seq: int, reason: str) -> bool:
    """Does a Strike record numbered ``seq`` with this typed ``reason`` fit the bounds
    a log line is held to? Its other fields are a seq the timeline chose, the one
    ``Writer._strikable`` found in the log and our own time stamp, so this is the whole bounds
    check of the record, without the encode + decode round trip. Only
    when it fails does ``within_bounds`` make the round trip, for its exact message."""
    return seq <= MAX_SEQ and len(reason) <= MAX_TEXT and not has_control(reason)


# A field this short is a handle, a Location, a side or a kind: said again and again
# by the entries a game writes, held once (a text, a reason, is the entry's own).
_SHARED_UP_TO = 16


def stamp(event: ev.Record, seq: int, grp: int, at: str) -> ev.Record:
    """``event`` as the log holds it: its seq, command group, time and schema version.
    Its short strings are interned: each came from its own command line, and a game
    keeps every record it wrote (a long script's moves said "a1" a string each)."""
    shared = {
        name: sys.intern(value)
        for name in event.__struct_fields__
        if type(value := getattr(event, name)) is str and 0 < len(value) <= _SHARED_UP_TO
    }
    return msgspec.structs.replace(event, seq=seq, grp=grp, at=at, v=ev.SCHEMA_VERSION, **shared)
