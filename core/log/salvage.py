"""Salvaging a damaged game log: every sound line kept, each bad line replaced by a
stand-in (what ``stockade repair`` writes; the original is never touched).

A JSON Lines log can lose one line without losing the lines after it (SQLite's
``.recover`` salvages a database the same way). Line *n* must hold record *n*, so a
dropped line cannot simply vanish: its place is taken by a **stand-in**, a strike
record that strikes its own line, with the reason in words. The stand-in is not an
event, so the fold skips it exactly as it skips a struck entry; a later entry that
depended on the lost one no longer holds and becomes a conflict, named by the fold as
after any strike (docs/rulings.md, "A damaged line in the middle of a log").

A line is kept when it decodes to a record that comes next: its ``seq`` follows the
last kept one's, or runs ahead of it by no more than the lines dropped since (their
places get stand-ins), or by lines lost from the file when the next line follows it
(a line deleted by hand: stand-ins again; a digit flipped in a ``seq`` is not taken
for such a gap, the next line refutes it). The header is line 1 and only line 1.
Anything else -- not JSON, an unknown kind, a wrong type, a repeated or out-of-place
sequence number, a line over the size bound -- is dropped to the side file. Bad lines
after the last kept line leave no stand-in (there is nothing after them to keep in
place).

The hash chain (core/log/chain.py) is kept as it is up to the first stand-in (or the
first line that breaks it), and re-linked from there: the repaired copy is a sound log
of its own, and says from which line its links are new.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from stockade.core.log import chain
from stockade.core.log.game_log import GAME
from stockade.core.log.reader import lines_of, parse_line, tail_of
from stockade.core.model import events as ev

SHOWN_DROPS = 10  # dropped lines named one by one in a reply; the rest are counted
STAND_IN_REASON = "line damaged; left out by stockade repair (its bytes are in the .dropped file)"


@dataclass(frozen=True)
class DroppedLine:
    line: int
    why: str


@dataclass
class Salvage:
    """The repaired log, and what was left out of it."""

    lines: list[bytes] = field(default_factory=list)  # the repaired log (no newlines)
    kept: int = 0  # records kept from the original
    dropped_count: int = 0  # lines dropped (the torn tail, if any, not counted)
    dropped_shown: list[DroppedLine] = field(default_factory=list)  # the first few
    dropped_bytes: bytearray = field(default_factory=bytearray)  # for the side file
    stand_ins: list[int] = field(default_factory=list)  # lines that stand in for one lost
    relinked_from: int = 0  # first line whose link is new (0: the chain is as it was)
    header_problem: str = ""  # line 1 is no game header: nothing can be kept

    def blob(self) -> bytes:
        return b"".join(line + b"\n" for line in self.lines)


def stand_in(seq: int, at: str) -> ev.Strike:
    """The record that takes a dropped line's place: it strikes its own line."""
    return ev.Strike(seq=seq, grp=seq, target=seq, reason=STAND_IN_REASON, at=at)


def is_stand_in(record: ev.Record) -> bool:
    return isinstance(record, ev.Strike) and record.target == record.seq


def salvage(blob: bytes) -> Salvage:
    """Every sound line of ``blob`` kept in place, the rest dropped (see the module)."""
    out = Salvage()
    expected = 1  # the seq the next kept line must hold (stand-ins fill a gap)
    dropped_since_kept = 0
    last_at = ""
    lines = _parsed(lines_of(blob))
    current = next(lines, None)
    while current is not None:
        following = next(lines, None)
        number, data, record, why = current
        if not why and record is not None:
            why = _out_of_place(record, expected, dropped_since_kept, following)
        if why:
            if number == 1:
                out.header_problem = why
                out.dropped_bytes += blob
                return out
            out.dropped_count += 1
            dropped_since_kept += 1
            if len(out.dropped_shown) < SHOWN_DROPS:
                out.dropped_shown.append(DroppedLine(number, why))
            out.dropped_bytes += data + b"\n"
        else:
            assert record is not None
            for lost in range(expected, record.seq):  # lines lost or dropped before it
                out.lines.append(ev.encode(stand_in(lost, last_at)))
                out.stand_ins.append(lost)
            out.lines.append(data)
            out.kept += 1
            expected, dropped_since_kept = record.seq + 1, 0
            last_at = _at_of(data, last_at)
        current = following
    out.dropped_bytes += tail_of(blob)
    _relink(out)
    return out


_Parsed = tuple[int, bytes, ev.Record | None, str]  # number, bytes, record, why it is bad


def _parsed(lines: Iterator[bytes]) -> Iterator[_Parsed]:
    for number, data in enumerate(lines, 1):
        try:
            record = parse_line(GAME, data)
        except ValueError as exc:
            yield number, data, None, str(exc)
            continue
        if number == 1 and not isinstance(record, ev.GameCreated):
            yield number, data, record, "the first line must be the game header"
        elif number > 1 and isinstance(record, ev.GameCreated):
            yield number, data, record, "a second game header in the middle of the log"
        else:
            yield number, data, record, ""


def _out_of_place(record: ev.Record, expected: int, dropped: int, following: _Parsed | None) -> str:
    """Why a sound record cannot be kept where it stands ("" if it can). Its seq may
    run ahead of the lines kept when lines before it were dropped (as many as were) or
    lost from the file (then the line after it must follow it: a digit flipped in a
    seq is not taken for a gap)."""
    seq = record.seq
    if seq == expected:
        return ""
    if seq < expected:
        return f"sequence number {seq} repeats an earlier entry's"
    after = following[2] if following is not None else None
    if seq - expected <= dropped or (after is not None and after.seq == seq + 1):
        return ""
    return f"sequence number {seq} where {expected} was expected"


_AT = re.compile(rb'"at"\s*:\s*"([^"\\]{0,64})"')
_PREV = re.compile(rb',\s*"prev"\s*:\s*"[0-9a-f]{%d}"\s*}$' % chain.LINK_HEX)


def _at_of(data: bytes, before: str) -> str:
    """A kept line's time of entry (its stand-in after it shows the same)."""
    match = _AT.search(data)
    return match.group(1).decode("utf-8", "replace") if match else before


def _relink(out: Salvage) -> None:
    """Keep the chain up to the first stand-in or break; re-link every line after."""
    stand_ins = set(out.stand_ins)
    builder = chain.ReportBuilder()
    lines = out.lines
    for index, line in enumerate(lines):
        number = index + 1
        if number in stand_ins or not builder.add(line):
            out.relinked_from = number
            head = builder.head
            bare = [_PREV.sub(b"}", old) for old in lines[index:]]
            lines[index:] = chain.chained(bare, head)
            return


__all__ = ["DroppedLine", "Salvage", "SHOWN_DROPS", "is_stand_in", "salvage", "stand_in"]
