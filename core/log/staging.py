"""A group of lines staged in a spill file until the journal writes it whole.

A script (``stockade run``) is one command group of any length: its lines are checked
and folded one by one, and reach the log only at its end, all of them or none
(docs/durability.md, "One script, one group"). Holding them in memory until then made
a run's memory grow with its script; here they go, chained and checked as the journal
would write them, to an unnamed file in the log's folder, and the journal copies that
file into the log (``Journal.append_group``) under its group marker. The log itself is
not touched while the group is staged: a reader, a follower or a killed run sees the
log as it was, exactly as when the group was held in memory.

The spill is unnamed where the platform allows it (``tempfile.TemporaryFile``: Linux
``O_TMPFILE``, elsewhere a name removed at once), so a killed run leaves nothing of it.
It lives beside the log, on the disk the group will be written to: a disk too full to
stage the group is told before the log is touched.
"""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from stockade.core.log import chain
from stockade.core.log.files import os_error
from stockade.core.log.journal_errors import JournalWriteError
from stockade.core.log.log_lines import MAX_LINE_BYTES

# What the spill is read and the log written in: a few hundred pages per write.
CHUNK_BYTES = 1 << 20
_BUFFER = 1 << 16  # lines are staged a command at a time: written out 64 KiB at a time


class StagedGroup:
    """The lines of one group, in the order staged, as the journal will append them
    after byte ``start`` of the log (whose last line's link is ``head`` at the start)."""

    def __init__(self, folder: Path, start: int, head: str | None, chained: bool):
        self.start = start
        self.chained = chained
        self.head = head  # the link of the last line staged (or of the log's last line)
        self.size = 0  # bytes staged
        self.lines = 0  # lines staged
        self._file: IO[bytes] | None = None
        # Told the very bytes of each command staged (the game's records index them
        # where they will lie in the log, and read them again from here meanwhile).
        self.on_staged: Callable[[bytes], None] | None = None
        # True while its lines are read from the spill (``read``); then from the log,
        # where they lie at the very offsets once written (``LogRecords.unstage``).
        self.spilled = True
        try:
            self._file = tempfile.TemporaryFile(  # noqa: SIM115 (closed by close)
                dir=folder, prefix=".stockade-staged-", buffering=_BUFFER
            )
        except OSError as exc:
            raise self._error(folder, exc) from None
        self._folder = folder

    def add(self, lines: list[bytes]) -> None:
        """Stage ``lines`` (one command's records), linked as the journal links them."""
        out, head = [], self.head
        for line in lines:
            if b"\n" in line:
                raise ValueError("a journal record must not contain a newline")
            if self.chained:
                if head is not None:
                    line = chain.stamp(line, head)
                head = chain.link_of(line, head)
            if len(line) + 1 > MAX_LINE_BYTES:
                raise JournalWriteError(f"record of {len(line)} bytes is over the line limit")
            out.append(line)
        data = b"".join(line + b"\n" for line in out)
        try:
            self._spill.write(data)
        except OSError as exc:
            raise self._error(self._folder, exc) from None
        self.head = head
        self.size += len(data)
        self.lines += len(out)
        if self.on_staged is not None:
            self.on_staged(data)

    def finish(self) -> None:
        """Stage what is still buffered: a full disk is told here, before the log is
        touched."""
        try:
            self._spill.flush()
        except OSError as exc:
            raise self._error(self._folder, exc) from None

    def chunks(self) -> Iterator[bytes]:
        """The staged bytes from the start, ``CHUNK_BYTES`` at a time."""
        spill = self._spill
        spill.flush()
        spill.seek(0)
        while chunk := spill.read(CHUNK_BYTES):
            yield chunk
        spill.seek(0, 2)  # at the end again: more may be staged

    def read(self, offset: int, size: int) -> bytes:
        """``size`` staged bytes from ``offset`` (0: the group's first byte), buffered
        ones included. OSError when they cannot be read (the group is closed)."""
        spill = self._file
        if spill is None:
            raise OSError(errno.EBADF, "the staged entries are gone")
        spill.flush()
        return os.pread(spill.fileno(), size, offset)

    def data(self) -> bytes:
        """Every staged byte at once: only for telling what a failed write left."""
        return b"".join(self.chunks())

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    @property
    def _spill(self) -> IO[bytes]:
        if self._file is None:
            raise ValueError("this staged group is closed")
        return self._file

    @staticmethod
    def _error(folder: Path, exc: OSError) -> JournalWriteError:
        return JournalWriteError(
            f"{folder}: cannot stage the entries beside the log ({os_error(exc)}); "
            "nothing was recorded (the log was left as it was)",
            exc.errno,
        )


__all__ = ["CHUNK_BYTES", "StagedGroup"]
