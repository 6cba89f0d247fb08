"""Durable JSON Lines journal: the only code that touches a log file on disk.

A journal knows nothing of games: it stores lines. Its promises (docs/durability.md):

* one command group = its whole lines written by ONE ``os.write``, then ``fsync``; the
  records count as accepted only after ``fsync`` returned;
* a write or fsync that fails is rolled back (the file is cut back to where it was),
  the journal is *poisoned* and refuses every further write until the caller has
  re-read the file (``Game.recover``); the records were not accepted;
* before every write the journal checks that the file is still the one it locked and
  still the length it left it at: another program writing or replacing the log is
  caught before anything is appended to a file we no longer understand;
* a crash mid-write can cost at most the group being written (a torn tail), which is
  set aside to a side file on the next open, never silently dropped;
* a bad line anywhere but the tail is never truncated: the caller gets it named and
  opens the log read-only;
* one writer per file, by a non-blocking lock (``core/log/writelock.py``: ``flock`` where
  the platform has it, the ``filelock`` library elsewhere); a second opener gets
  read-only, and is told why;
* opening read-only never modifies the file: no descriptor for writing is even opened.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from stockade.core.log import chain, writelock

# Windows opens descriptors in text mode unless told otherwise, which would turn every
# "\n" written into "\r\n"; a log is bytes. 0 (no flag) everywhere else.
_BINARY = getattr(os, "O_BINARY", 0)

# Refuse a line longer than this before parsing it: a log received from an opponent
# must not be able to make us allocate or parse without bound. A real record is a few
# hundred bytes; the largest (a game header with many sides' data) stays far below.
MAX_LINE_BYTES = 64 * 1024


class JournalError(Exception):
    """A journal could not be read or written; the message is for the player."""


class JournalDamaged(JournalError):
    """The file holds no readable game: not a log, or damaged from its first line."""


class JournalWriteError(JournalError):
    """A write or fsync failed: the record was NOT accepted."""


class JournalReplaced(JournalWriteError):
    """The path no longer names the file this journal opened (deleted, moved, replaced):
    nothing is written, and the caller must not quietly carry on with another file."""


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


def read_bytes(path: Path) -> bytes:
    """The whole file, or a JournalError naming the problem (never another exception)."""
    path = Path(path)
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise JournalError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise JournalError(f"{path}: is a directory, not a game log") from None
    except PermissionError:
        raise JournalError(f"{path}: permission denied") from None
    except OSError as exc:
        raise JournalError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except MemoryError:
        raise JournalError(f"{path}: too large to read") from None


def split_lines(blob: bytes) -> tuple[list[bytes], bytes]:
    """Complete lines (without newlines) and the bytes after the last newline."""
    last_nl = blob.rfind(b"\n")
    if last_nl < 0:
        return [], blob
    return blob[:last_nl].split(b"\n"), blob[last_nl + 1 :]


def read_lines(path: Path) -> ReadResult:
    """Read every complete line; report a torn tail (bytes after the last newline)."""
    chunks, tail = split_lines(read_bytes(path))
    result = ReadResult(lines=[RawLine(n, c) for n, c in enumerate(chunks, 1)])
    if tail:
        result.torn_tail = tail
    return result


def fsync_dir(path: Path) -> None:
    """Make a file's creation or rename durable by syncing its directory.

    Only where the platform has it: Windows cannot open a directory as a file and its
    file systems (NTFS, ReFS) journal a name's creation and renaming themselves.
    """
    if sys.platform == "win32":
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _full_fsync(fd: int) -> None:
    """fsync; on macOS ``F_FULLFSYNC``, since plain fsync there does not reach the disk."""
    if sys.platform == "darwin":
        import fcntl  # only here: fcntl does not exist on Windows

        try:
            fcntl.fcntl(fd, fcntl.F_FULLFSYNC)
            return
        except OSError:
            pass  # not supported by this file system: fall back to fsync
    os.fsync(fd)


def _parent(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


def atomic_write(path: Path, data: bytes, replace: bool = True) -> None:
    """Write a whole file through a temporary file and rename (repairs, exports).

    Either the old file or the complete new one is at ``path`` afterwards, whatever
    happens; the rename is made durable by syncing the directory.

    Never writes through a link (a log may come from someone else): the temporary file is made by
    ``tempfile.mkstemp`` in the target's directory -- an unpredictable name, opened
    with ``O_CREAT | O_EXCL`` (and ``O_NOFOLLOW`` where the system has it), so nothing
    planted under a guessable name is followed -- and a link at ``path`` is replaced
    by the rename, its target left as it was. ``replace=False`` refuses an existing
    ``path`` of any kind, a dangling link included (``FileExistsError``): the file is
    put there with ``os.link``, which never overwrites.
    """
    path = Path(path)
    # mkstemp opens with O_CREAT|O_EXCL (and O_NOFOLLOW, O_BINARY where they exist)
    fd, tmp_name = tempfile.mkstemp(dir=_parent(path), prefix=f".{path.name}.", suffix=".tmp")
    tmp = Path(tmp_name)
    try:
        try:
            if hasattr(os, "fchmod"):  # mkstemp makes it 0600; a log or export is 0644
                os.fchmod(fd, 0o644)
            _write_all(fd, data)
            _full_fsync(fd)
        finally:
            os.close(fd)
        if replace:
            os.replace(tmp, path)
        else:
            os.link(tmp, path)  # fails if anything, a dangling link included, is there
            os.unlink(tmp)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(_parent(path))


def write_new_file(path: Path, data: bytes) -> None:
    """Create ``path`` (which must not exist) durably with ``data``: side files."""
    path = Path(path)
    # O_EXCL: never an existing file, and never a link (even a dangling one).
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _BINARY | _NOFOLLOW, 0o644)
    try:
        _write_all(fd, data)
        _full_fsync(fd)
    finally:
        os.close(fd)
    fsync_dir(_parent(path))


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def _short_write(fd: int, written: int, wanted: int) -> OSError:
    """A short write is how a full disk usually shows itself: say so when it is."""
    short = f"short write, {written} of {wanted} bytes"
    try:
        st = os.fstatvfs(fd)
        full = st.f_bavail * st.f_frsize < wanted - written
    except (OSError, AttributeError):  # no fstatvfs on Windows
        full = False
    if full:
        return OSError(errno.ENOSPC, f"No space left on device ({short})")
    return OSError(errno.EIO, short)


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
        # True when read-only because another process holds the write lock (CLI exit 5).
        self.lock_held_elsewhere = False
        # Seams for fault-injection tests; production code never replaces them.
        self._write = os.write
        self._fsync = _full_fsync
        self._truncate = os.ftruncate
        self._poisoned = False
        self._lock: writelock.WriteLock | None = None
        self._identity: tuple[int, int] | None = None
        self._size = 0  # the file's length as this journal last left it
        # Hash chain (core/log/chain.py): when set, every appended line after the first
        # carries the link of the line before it. ``_head`` is that link, found from
        # the file on the first append and kept up to date by every append after it.
        self.chained = False
        self._head: str | None = None
        self._head_known = False
        if fd is not None:
            st = os.fstat(fd)
            self._identity, self._size = (st.st_dev, st.st_ino), st.st_size

    # -- opening -------------------------------------------------------------
    @classmethod
    def create(cls, path: Path, first_line: bytes) -> Journal:
        """Create a new log holding ``first_line``, durably (file and directory synced).

        If anything fails the half-made file is removed: a game either exists with its
        header on disk, or does not exist.
        """
        path = Path(path)
        if path.exists():
            raise JournalError(f"{path}: already exists; not overwriting a game")
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | _BINARY, 0o644)
        except FileExistsError:
            raise JournalError(f"{path}: already exists; not overwriting a game") from None
        except OSError as exc:
            raise JournalError(f"{path}: cannot create ({exc.strerror})") from None
        journal = cls(path, fd, read_only=False)
        try:
            journal._lock_or_raise()
            journal.append(first_line)
            fsync_dir(_parent(path))
        except BaseException as exc:
            journal.close()
            with contextlib.suppress(OSError):
                os.unlink(path)
            if isinstance(exc, OSError):
                raise JournalError(f"{path}: cannot create ({exc.strerror or exc})") from None
            raise
        return journal

    @classmethod
    def open(cls, path: Path, want_write: bool = True) -> Journal:
        """Open for appending under the lock; read-only (and why) if that cannot be had.

        ``want_write=False`` opens nothing at all: a read-only journal never touches
        the file.
        """
        path = Path(path)
        if path.is_dir():
            raise JournalError(f"{path}: is a directory, not a game log")
        if not path.is_file():
            raise JournalError(f"{path}: no such game log")
        if not want_write:
            return cls(path, None, read_only=True, why_read_only="opened read-only")
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | _BINARY)
        except OSError as exc:
            return cls(
                path, None, True, f"cannot open for writing ({exc.strerror}); opened read-only"
            )
        journal = cls(path, fd, read_only=False)
        try:
            journal._lock_or_raise()
        except JournalLocked as exc:
            journal.close()
            held = cls(path, None, True, str(exc))
            held.lock_held_elsewhere = True
            return held
        except OSError as exc:
            journal.close()
            return cls(path, None, True, f"cannot lock ({exc.strerror}); opened read-only")
        return journal

    def _lock_or_raise(self) -> None:
        assert self._fd is not None
        try:
            self._lock = writelock.acquire(self.path, self._fd)
        except writelock.LockHeld:
            raise JournalLocked(
                f"{self.path.name} is open in another Stockade window (it holds the "
                "write lock); opened read-only"
            ) from None

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing releases a flock
            self._fd = None
        if self._lock is not None:
            lock, self._lock = self._lock, None
            lock.release()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def size(self) -> int:
        """The file's length as this journal last wrote or checked it."""
        return self._size

    # -- writing -------------------------------------------------------------
    def append(self, line: bytes) -> None:
        """Append one record; see :meth:`append_many`."""
        self.append_many([line])

    def append_many(self, lines: list[bytes]) -> None:
        """Append records (one command group) in ONE write, then fsync.

        Returns only after the lines are on disk. On any failure the lines are not
        accepted: the file is cut back to its length before the write (best effort),
        and the journal refuses further writes until the caller re-read the file and
        called :meth:`resync` (``Game.recover`` does both).
        """
        if self.read_only or self._fd is None:
            raise JournalWriteError(f"{self.path}: {self.why_read_only or 'read-only'}")
        if self._poisoned:
            raise JournalWriteError(
                f"{self.path}: an earlier write failed; the log must be re-read before "
                "anything more is written"
            )
        for line in lines:
            if b"\n" in line:
                raise ValueError("a journal record must not contain a newline")
        self._check_unchanged()
        head = self._head
        if self.chained:
            lines, head = self._chain(lines)
        for line in lines:
            if len(line) + 1 > MAX_LINE_BYTES:
                raise JournalWriteError(f"record of {len(line)} bytes is over the line limit")
        data = b"".join(line + b"\n" for line in lines)
        try:
            written = self._write(self._fd, data)
            if written != len(data):
                raise _short_write(self._fd, written, len(data))
            self._fsync(self._fd)
        except BaseException as exc:
            self._poisoned = True
            rolled_back = self._roll_back()
            if not isinstance(exc, OSError):
                raise
            state = (
                "the log was left as it was"
                if rolled_back
                else "part of it may be in the file and is set aside when the log is re-read"
            )
            raise JournalWriteError(
                f"{self.path.name}: could not save the entry "
                f"({exc.strerror or exc}); it was NOT recorded ({state})"
            ) from None
        self._size += len(data)
        self._head = head

    def _chain(self, lines: list[bytes]) -> tuple[list[bytes], str | None]:
        """The lines with their ``prev`` links, and the link of the last of them."""
        if not self._head_known:
            try:
                self._head = chain.head_of_file(self.path, self._size)
            except OSError as exc:
                raise JournalWriteError(
                    f"{self.path}: cannot read the last entry to chain the next one to it "
                    f"({exc.strerror or exc}); nothing written"
                ) from None
            self._head_known = True
        head, out = self._head, []
        for line in lines:
            if head is not None:
                line = chain.stamp(line, head)
            head = chain.link_of(line, head)
            out.append(line)
        return out, head

    def _check_unchanged(self) -> None:
        """Refuse to write if the file is not the one we locked, at the length we left."""
        assert self._fd is not None
        try:
            st = os.fstat(self._fd)
            on_disk = os.stat(self.path)
        except FileNotFoundError:
            self._poisoned = True
            raise JournalReplaced(
                f"{self.path}: the log was moved or deleted while open; nothing written"
            ) from None
        except OSError as exc:
            self._poisoned = True
            raise JournalWriteError(f"{self.path}: cannot check the log ({exc.strerror})") from None
        if (on_disk.st_dev, on_disk.st_ino) != self._identity:
            self._poisoned = True
            raise JournalReplaced(
                f"{self.path}: the log was replaced by another file while open; nothing "
                "written (re-open the game)"
            )
        if st.st_size != self._size:
            self._poisoned = True
            raise JournalWriteError(
                f"{self.path}: another program changed the log while it was open "
                f"({st.st_size} bytes, expected {self._size}); nothing written"
            )

    def changed_on_disk(self) -> str:
        """'' while the path still names the file this journal opened; else what
        happened to it. Only looks (a stat): the app asks between entries, so the
        player hears of a deleted or replaced log before typing the next one."""
        if self._fd is None or self._identity is None:
            return ""
        try:
            on_disk = os.stat(self.path)
        except FileNotFoundError:
            return f"{self.path}: the log was moved or deleted while open"
        except OSError as exc:
            return f"{self.path}: cannot check the log ({exc.strerror})"
        if (on_disk.st_dev, on_disk.st_ino) != self._identity:
            return f"{self.path}: the log was replaced by another file while open"
        return ""

    def _roll_back(self) -> bool:
        """Cut the file back to its length before the failed write; True if that worked."""
        fd = self._fd
        if fd is None:  # closed meanwhile: nothing to cut back
            return False
        try:
            self._truncate(fd, self._size)
            self._fsync(fd)
        except (OSError, ValueError):
            return False
        return True

    @property
    def poisoned(self) -> bool:
        return self._poisoned

    def resync(self) -> None:
        """Take the file's current length as known and accept writes again.

        Only for a caller that has just re-read the whole file (and set aside any torn
        tail) while holding the lock.
        """
        if self._fd is None:
            return
        st = os.fstat(self._fd)
        self._identity, self._size = (st.st_dev, st.st_ino), st.st_size
        self._poisoned = False
        self._head_known = False  # the chain's head is found again from the file

    def truncate_torn_tail(self, keep_bytes: int) -> None:
        """Cut the file back to ``keep_bytes`` (the end of its last whole line).

        Only ever called after the torn bytes were saved to a side file, by a caller
        that has just read the file under the lock.
        """
        if self.read_only or self._fd is None:
            raise JournalWriteError(f"{self.path}: read-only")
        os.ftruncate(self._fd, keep_bytes)
        _full_fsync(self._fd)
        self.resync()
