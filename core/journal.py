"""Durable JSON Lines journal: the only code that touches a log file on disk.

A journal knows nothing of games: it stores lines. Its promises:

* one record = one whole line written by one ``os.write``, then ``fsync``; a record
  counts as accepted only after ``fsync`` returned;
* a crash mid-write can cost at most the line being written (a torn tail), which is
  set aside to a side file on the next open, never silently dropped;
* a bad line anywhere but the tail is never truncated: the caller gets it named and
  opens the log read-only;
* one writer per file, by an advisory ``flock``; a second opener gets read-only.
"""

from __future__ import annotations

import errno
import fcntl
import os
from dataclasses import dataclass, field
from pathlib import Path

# Refuse a line longer than this before parsing it: a log received from an opponent
# must not be able to make us allocate or parse without bound.
MAX_LINE_BYTES = 64 * 1024


class JournalError(Exception):
    """A journal could not be read or written; the message is for the player."""


class JournalWriteError(JournalError):
    """A write or fsync failed: the record was NOT accepted."""


class JournalLocked(JournalError):
    """Another process holds the write lock on this journal."""


@dataclass
class RawLine:
    number: int  # 1-based line number in the file
    data: bytes  # without the trailing newline


@dataclass
class ReadResult:
    lines: list[RawLine]
    torn_tail: bytes | None = None  # bytes after the last newline, if any
    warnings: list[str] = field(default_factory=list)


def read_lines(path: Path) -> ReadResult:
    """Read every complete line; report a torn tail (bytes after the last newline)."""
    try:
        blob = Path(path).read_bytes()
    except FileNotFoundError:
        raise JournalError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise JournalError(f"{path}: is a directory, not a game log") from None
    except OSError as exc:
        raise JournalError(f"{path}: cannot read ({exc.strerror})") from None
    result = ReadResult(lines=[])
    last_nl = blob.rfind(b"\n")
    body, tail = (blob[: last_nl + 1], blob[last_nl + 1 :]) if last_nl >= 0 else (b"", blob)
    if tail:
        result.torn_tail = tail
    number = 0
    for chunk in body.split(b"\n")[:-1]:
        number += 1
        result.lines.append(RawLine(number, chunk))
    return result


def fsync_dir(path: Path) -> None:
    """Make a file's creation or rename durable by syncing its directory."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: Path, data: bytes) -> None:
    """Write a whole file through a temporary file and rename (repairs, exports)."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        _write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    fsync_dir(path.parent)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


class Journal:
    """An open journal file. Use :meth:`open` or :meth:`create`."""

    def __init__(self, path: Path, fd: int | None, read_only: bool, why_read_only: str = ""):
        self.path = Path(path)
        self._fd = fd
        self.read_only = read_only
        self.why_read_only = why_read_only
        # Seams for fault-injection tests; production code never replaces them.
        self._write = os.write
        self._fsync = os.fsync
        self._poisoned = False

    # -- opening -------------------------------------------------------------
    @classmethod
    def create(cls, path: Path, first_line: bytes) -> "Journal":
        path = Path(path)
        if path.exists():
            raise JournalError(f"{path}: already exists; not overwriting a game")
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o644)
        except OSError as exc:
            raise JournalError(f"{path}: cannot create ({exc.strerror})") from None
        journal = cls(path, fd, read_only=False)
        journal._lock_or_raise()
        journal.append(first_line)
        fsync_dir(path.parent if str(path.parent) else Path("."))
        return journal

    @classmethod
    def open(cls, path: Path, want_write: bool = True) -> "Journal":
        path = Path(path)
        if not path.is_file():
            raise JournalError(f"{path}: no such game log")
        if not want_write:
            return cls(path, None, read_only=True, why_read_only="opened read-only")
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        except OSError as exc:
            return cls(path, None, True, f"cannot open for writing ({exc.strerror})")
        journal = cls(path, fd, read_only=False)
        try:
            journal._lock_or_raise()
        except JournalLocked as exc:
            os.close(fd)
            return cls(path, None, True, str(exc))
        return journal

    def _lock_or_raise(self) -> None:
        assert self._fd is not None
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise JournalLocked(
                    f"{self.path}: open in another Stockade window; opened read-only"
                ) from None
            raise

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing releases the flock
            self._fd = None

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- writing -------------------------------------------------------------
    def append(self, line: bytes) -> None:
        """Append one record; see :meth:`append_many`."""
        self.append_many([line])

    def append_many(self, lines: list[bytes]) -> None:
        """Append records (one command group) in ONE write, then fsync.

        Returns only after the lines are on disk.

        On any failure the record is not accepted and the journal refuses further
        writes until the caller re-reads the file (:meth:`reset_after_error`): a
        half-written line may now sit at the tail, and the next open sets it aside.
        """
        if self.read_only or self._fd is None:
            raise JournalWriteError(f"{self.path}: {self.why_read_only or 'read-only'}")
        if self._poisoned:
            raise JournalWriteError(f"{self.path}: an earlier write failed; reopen the game")
        for line in lines:
            if b"\n" in line:
                raise ValueError("a journal record must not contain a newline")
            if len(line) + 1 > MAX_LINE_BYTES:
                raise JournalWriteError(f"record of {len(line)} bytes is over the line limit")
        data = b"".join(line + b"\n" for line in lines)
        try:
            written = self._write(self._fd, data)
            if written != len(data):
                raise OSError(errno.EIO, f"short write ({written} of {len(data)} bytes)")
            self._fsync(self._fd)
        except OSError as exc:
            self._poisoned = True
            raise JournalWriteError(
                f"{self.path}: could not save the entry ({exc.strerror or exc}); "
                "it was not recorded"
            ) from None

    @property
    def poisoned(self) -> bool:
        return self._poisoned

    def truncate_torn_tail(self, keep_bytes: int) -> None:
        """Cut the file back to ``keep_bytes`` (the end of its last whole line).

        Only ever called after the torn bytes were saved to a side file.
        """
        if self._fd is None:
            raise JournalWriteError(f"{self.path}: read-only")
        os.ftruncate(self._fd, keep_bytes)
        os.fsync(self._fd)
        self._poisoned = False
