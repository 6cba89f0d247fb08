"""Following a game log another process appends to: the live second view.

A ``Follower`` reads a log from the offset it last reached and hands back only whole
lines: bytes after the last newline (a record being written, or a torn tail) are held
back until their newline arrives, and are never shown if they never get one. It never
re-reads what it has read, except when the file is no longer the one it followed:

* replaced (another inode), or shorter than what it read (truncated): it starts again
  from the beginning and says so (``Batch.restarted``); the caller re-reads the game;
* the bytes it held back were cut away and written over (a writer set a torn tail
  aside and went on): it drops them and reads on from the last whole line;
* a new line whose hash-chain link (core/log/chain.py) does not match the last line it
  read: something above was rewritten in place; it starts again too.

``GameFollower`` keeps an in-memory ``Game`` up to date from a Follower
(``Game.absorb``): what ``stockade watch`` and a read-only TUI show. Only reads.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from stockade.core.book.game import Game
from stockade.core.log import chain
from stockade.core.log.game_log import parse_line
from stockade.core.log.journal_errors import JournalError
from stockade.core.log.log_lines import MAX_LINE_BYTES
from stockade.core.model import events as ev

READ_CHUNK = 1 << 20


@dataclass
class Batch:
    """What one poll found."""

    lines: list[bytes] = field(default_factory=list)  # whole new lines, in order
    restarted: str = ""  # why reading started again from the top ("" = it did not)


class Follower:
    """Whole new lines of an append-only file, from ``offset`` on."""

    def __init__(self, path: Path, offset: int = 0, head: str | None = None):
        """Follow ``path`` from byte ``offset`` (the end of a whole line, or 0);
        ``head`` is the chain link of the line that ends there (None at 0)."""
        self.path = Path(path)
        self.offset = offset  # end of the last whole line handed out
        self._held = b""  # bytes after it: a line not finished yet
        self._identity: tuple[int, int] | None = None
        self._head = head
        self._last: bytes | None = None  # the last whole line handed out, with its newline
        try:
            with open(self.path, "rb") as f:
                st = os.fstat(f.fileno())
                self._identity = (st.st_dev, st.st_ino)
                if offset > 0:
                    start = max(0, offset - MAX_LINE_BYTES - 1)
                    f.seek(start)
                    before = f.read(offset - start)
                    cut = before.rfind(b"\n", 0, len(before) - 1)
                    if cut >= 0 or start == 0:
                        self._last = before[cut + 1 :]
        except OSError:
            pass

    def poll(self) -> Batch:
        """Read what was appended since the last poll (from the top, when ``restarted``
        says the file is no longer the one followed; the lines are then all of it)."""
        batch = Batch()
        try:
            with open(self.path, "rb") as f:
                st = os.fstat(f.fileno())
                identity = (st.st_dev, st.st_ino)
                if self._identity is not None and identity != self._identity:
                    self._restart(batch, "the log was replaced by another file")
                elif st.st_size < self.offset + len(self._held):
                    self._restart(batch, "the log was cut shorter")
                self._identity = identity
                if not batch.restarted and not self._last_still_there(f):
                    self._restart(batch, "an earlier line of the log was rewritten")
                if self._held and not self._held_still_there(f):
                    self._held = b""  # a torn tail set aside; read on after the last line
                f.seek(self.offset + len(self._held))
                self._read_on(f, st.st_size, batch)
        except FileNotFoundError:
            return batch  # being replaced (a rename is on its way); try again later
        except OSError as exc:
            raise JournalError(f"{self.path}: cannot read ({exc.strerror or exc})") from None
        return batch

    def _last_still_there(self, f: BinaryIO) -> bool:
        """Is the last line read still where it was? (A file rewritten in place with
        other, longer content would otherwise be read on from the middle of a line.)"""
        if self._last is None or self.offset == 0:
            return True
        start = self.offset - len(self._last)
        f.seek(max(0, start - 1))
        expected = (b"\n" if start > 0 else b"") + self._last
        return bool(f.read(len(expected)) == expected)

    def _held_still_there(self, f: BinaryIO) -> bool:
        f.seek(self.offset)
        return bool(f.read(len(self._held)) == self._held)

    def _restart(self, batch: Batch, why: str) -> None:
        batch.restarted, batch.lines = why, []
        self.offset, self._held, self._head, self._last = 0, b"", None, None

    def _read_on(self, f: BinaryIO, size: int, batch: Batch) -> None:
        pending = self._held
        remaining = size - self.offset - len(pending)
        first = True  # only the first new line is checked against the last one read
        while remaining > 0:
            chunk = f.read(min(READ_CHUNK, remaining))
            if not chunk:
                break
            remaining -= len(chunk)
            pending += chunk
            cut = pending.rfind(b"\n")
            if cut < 0:
                continue
            for line in pending[:cut].split(b"\n"):
                if first and not self._continues(line):
                    # Rewritten above what was read: the next poll reads from the top
                    # (a file whose own chain is broken cannot loop here: a line is
                    # checked only against the last line of the poll before).
                    self._restart(batch, "an earlier line of the log was rewritten")
                    return
                first = False
                self._head = chain.link_of(line, self._head)
                batch.lines.append(line)
            self.offset += cut + 1
            self._last = pending[pending.rfind(b"\n", 0, cut) + 1 : cut + 1]
            pending = pending[cut + 1 :]
        self._held = pending

    def _continues(self, line: bytes) -> bool:
        """Does ``line`` link to the last line read (when it carries a link at all)?"""
        if self._head is None or len(line) > MAX_LINE_BYTES or chain.FIELD not in line:
            return True
        link = chain.stored_link(line)
        return link is None or link == self._head


class GameFollower:
    """An in-memory game kept up to date with the log another process writes."""

    def __init__(self, path: Path, game: Game | None = None):
        """Follow ``path``; ``game`` is that log already open (read-only), if it is."""
        self.path = Path(path)
        self.game = game if game is not None else Game.open(self.path, read_only=True)
        self._follower = self._follower_for(self.game)

    def _follower_for(self, game: Game) -> Follower:
        good = _good_bytes(self.path, len(game.records))
        return Follower(self.path, good, chain.head_of_file(self.path, good) if good else None)

    def poll(self) -> tuple[list[ev.Record], str]:
        """The records appended since the last poll, taken into ``game``; and why the
        game was re-read from the top ("" when it was not)."""
        batch = self._follower.poll()
        if batch.restarted:
            return self._reload(batch.restarted)
        new: list[ev.Record] = []
        for line in batch.lines:
            number = len(self.game.records) + 1
            try:
                record = parse_line(number, line)
                self.game.absorb(record)
            except ValueError as exc:
                return self._reload(f"line {number}: {exc}")
            new.append(record)
        return new, ""

    def _reload(self, why: str) -> tuple[list[ev.Record], str]:
        held = len(self.game.records)
        self.game = Game.open(self.path, read_only=True)
        self._follower = self._follower_for(self.game)
        return list(self.game.records[held:]), why


def _good_bytes(path: Path, n_lines: int) -> int:
    """The offset just after the first ``n_lines`` whole lines of ``path``."""
    offset = 0
    with open(path, "rb") as f:
        for _ in range(n_lines):
            line = f.readline()
            if not line.endswith(b"\n"):
                break
            offset += len(line)
    return offset


__all__ = ["Batch", "Follower", "GameFollower"]
