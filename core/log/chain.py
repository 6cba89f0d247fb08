"""The hash chain over a game log's raw lines (docs/verify.md has the threat model).

Every line after the first carries ``"prev"``: the *link* of the line before it, the
first 32 hex digits (128 bits) of the SHA-256 of that line's raw bytes (without the
newline). Since each line's bytes hold the link before it, a line's link commits to
everything above it: changing, removing, inserting or reordering any earlier line
changes every link after it.

Logs written before the chain existed upgrade by chaining from their first line,
without being rewritten: a line that carries no ``prev`` (only possible before the
first line that does) gets the link ``SHA-256(link before + "\\n" + line)``, as if it
had carried one; the first line's link is ``SHA-256(line)``. The first record Stockade
appends to such a log carries the link of its last old line, which commits to them all.

The field lives only in the file: ``core.model.events`` decodes records without it (msgspec
ignores the key), so the chain is a property of the log file, kept by the journal's
append path (``Journal.chained``) and checked by ``stockade check`` and ``verify``.
It detects a rewrite *against a copy you kept*; it is not a signature: anyone can
recompute every link of an edited log.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import msgspec

from stockade.core.model.plural import counted

LINK_HEX = 32  # hex digits kept of each SHA-256: 128 bits
FIELD = b'"prev":'


class _Link(msgspec.Struct):
    prev: object = None


_link_decoder = msgspec.json.Decoder(_Link)


def link_of(line: bytes, before: str | None) -> str:
    """The link of ``line`` given the link of the line before it (None for line 1)."""
    from hashlib import sha256  # here: OpenSSL loads only when a link is made or checked

    if before is None or carries_link(line):
        return sha256(line).hexdigest()[:LINK_HEX]
    return sha256(before.encode("ascii") + b"\n" + line).hexdigest()[:LINK_HEX]


def carries_link(line: bytes) -> bool:
    """Does this raw line carry a ``prev`` key? (Cheap test first, then a real decode.)"""
    return FIELD in line and stored_link(line) is not None


def stored_link(line: bytes) -> object:
    """The value of the line's ``prev`` key (None if it has none or is not JSON)."""
    try:
        return _link_decoder.decode(line).prev
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return None


def stamp(line: bytes, prev: str) -> bytes:
    """``line`` (one JSON object) with ``"prev": prev`` added as its last key."""
    if len(line) < 3 or not line.startswith(b"{") or not line.endswith(b"}"):
        raise ValueError("a chained record must be a JSON object")
    return line[:-1] + b',"prev":"' + prev.encode("ascii") + b'"}'


def chained(lines: list[bytes], head: str | None = None) -> list[bytes]:
    """``lines`` with their links, as the journal appends them after a line whose link
    is ``head`` (None: ``lines`` start the log, so the first one is the header)."""
    out = []
    for line in lines:
        if head is not None:
            line = stamp(line, head)
        head = link_of(line, head)
        out.append(line)
    return out


class ChainReport(msgspec.Struct):
    """What walking a log's chain found."""

    walked: int = 0  # lines walked and found linked
    head: str | None = None  # the link of the last of them (None: none yet)
    unchained: int = 0  # lines after the first that predate the chain (an older Stockade)
    broken_at: int = 0  # 1-based number of the first line that breaks it; 0 = intact
    why: str = ""

    @property
    def intact(self) -> bool:
        return self.broken_at == 0

    def summary(self) -> str:
        if not self.intact:
            return f"line {self.broken_at}: {self.why}"
        n = self.walked
        if self.unchained and self.unchained >= n - 1:
            return f"no line carries a link yet ({counted(n, 'line')} from before the chain)"
        if self.unchained:
            return (
                f"hash chain intact; lines 2-{self.unchained + 1} predate it and are "
                f"chained from line 1 (upgraded on read)"
            )
        return f"hash chain intact over {counted(n, 'line')}"


def walk(lines: Iterable[bytes]) -> ChainReport:
    """Check the chain of ``lines`` (whole lines, no newlines); stop at the first break."""
    report = ReportBuilder()
    for line in lines:
        if not report.add(line):
            break
    return report.report


class ReportBuilder:
    """Walks a chain one line at a time (a follower checks new lines as they come)."""

    def __init__(self) -> None:
        self.report = ChainReport()
        self._chained = False  # a line after the first has carried a link

    @property
    def head(self) -> str | None:
        return self.report.head

    def add(self, line: bytes) -> bool:
        """Take the next line; False (and the report says why) if it breaks the chain."""
        report = self.report
        number = report.walked + 1
        before = self.head
        has = FIELD in line
        value = stored_link(line) if has else None
        if number == 1:
            if value is not None:
                return self._break(number, "the game header carries a link to a line before it")
        elif value is None:
            if self._chained:
                return self._break(
                    number,
                    "carries no link to the line before it though earlier lines do "
                    "(added by hand or by another program)",
                )
            report.unchained += 1
        elif value != before:
            return self._break(
                number,
                f"its link to line {number - 1} does not match (line {number - 1} or an "
                "earlier line was changed, or lines were removed, inserted or reordered "
                "here)",
            )
        else:
            self._chained = True
        report.head = link_of(line, before)
        report.walked = number
        return True

    def _break(self, number: int, why: str) -> bool:
        self.report.broken_at, self.report.why = number, why
        return False


def head_of_file(path: Path, size: int) -> str | None:
    """The link of the last whole line in the first ``size`` bytes of ``path`` (None
    for an empty file). Reads only the last line when it carries a link; an old log
    whose last line does not is walked from its first line (once)."""
    if size <= 0:
        return None
    with open(path, "rb") as f:
        start = max(0, size - 256 * 1024)
        f.seek(start)
        tail = f.read(size - start)
        if tail.endswith(b"\n"):
            body = tail[:-1]
            cut = body.rfind(b"\n")
            if cut >= 0 or start == 0:
                last = body[cut + 1 :]
                if cut < 0:  # the only line: the header
                    return link_of(last, None)
                if carries_link(last):
                    return link_of(last, "")
        f.seek(0)
        blob = f.read(size)
    lines = blob.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    head: str | None = None
    for line in lines:
        head = link_of(line, head)
    return head


__all__ = ["ChainReport", "LINK_HEX", "chained", "head_of_file", "link_of", "stamp", "walk"]
