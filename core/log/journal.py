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

Its errors are in ``core.log.journal_errors``, reading a log's lines in
``core.log.log_lines``, the check that the file is still ours in
``core.log.file_identity``, whole-file writes in ``core.log.files``.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from stockade.core.log import writelock
from stockade.core.log.file_identity import how_path_changed, refuse_if_changed
from stockade.core.log.files import (
    BINARY,
    LINK_REFUSED,
    NOFOLLOW,
    fsync_dir,
    group_marker,
    os_error,
    parent_of,
    remove_quietly,
    short_write,
    write_marker,
)
from stockade.core.log.files import full_fsync as _full_fsync  # a seam the tests replace
from stockade.core.log.journal_errors import (
    JournalError,
    JournalLocked,
    JournalWriteError,
)
from stockade.core.log.log_lines import MAX_LINE_BYTES

TYPE_CHECKING = False  # typing costs ~2 ms to import; mypy reads this the same way

if TYPE_CHECKING:
    from stockade.core.log.staging import StagedGroup


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
        self._rolled_back = False  # did the last failed write's cut-back work?
        # The bytes of the write being made (or the one that failed): after a failure
        # the writer looks for exactly these in the file, never for a count of lines.
        self.last_attempt = b""
        self._lock: writelock.WriteLock | None = None
        self._identity: tuple[int, int] | None = None
        self._size = 0  # the file's length as this journal last left it
        # Hash chain (core/log/chain.py): when set, every appended line after the first
        # carries the link of the line before it. ``_head`` is that link, found from
        # the file on the first append and kept up to date by every append after it.
        self.chained = False
        # Called with the very bytes of each write once they are accepted (after its
        # fsync): the log store keeps the digest of what it wrote (core/log/derived.py).
        self.on_written: Callable[[bytes], None] | None = None
        self._head: str | None = None
        self._head_known = False
        if fd is not None:
            st = os.fstat(fd)
            self._identity, self._size = (st.st_dev, st.st_ino), st.st_size

    # -- opening -------------------------------------------------------------
    @classmethod
    def create(
        cls, path: Path, first_line: bytes, on_written: Callable[[bytes], None] | None = None
    ) -> Journal:
        """Create a new log holding ``first_line``, durably (file and directory synced).

        If anything fails the half-made file is removed: a game either exists with its
        header on disk, or does not exist.
        """
        path = Path(path)
        if path.exists():
            raise JournalError(f"{path}: already exists; not overwriting a game")
        try:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | BINARY | NOFOLLOW
            fd = os.open(path, flags, 0o644)
        except FileExistsError:
            raise JournalError(f"{path}: already exists; not overwriting a game") from None
        except OSError as exc:
            raise JournalError(f"{path}: cannot create ({os_error(exc)})", exc.errno) from None
        journal = cls(path, fd, read_only=False)
        journal.on_written = on_written
        try:
            journal._lock_or_raise()
            journal.append(first_line)
            fsync_dir(parent_of(path))
        except BaseException as exc:
            journal.close()
            removed = True
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
            except OSError:
                removed = False
            if not isinstance(exc, (OSError, JournalError)):
                raise
            # Never the append's own words ("the log was left as it was"): there was no
            # log before this, and none is left now.
            number = exc.errno
            if number in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
                why = "the disk is full"
            elif isinstance(exc, OSError):
                why = os_error(exc)
            else:
                why = os.strerror(number) if number else str(exc)
            left = "no game was made" if removed else f"a half-made {path.name} is left: delete it"
            raise JournalError(f"{path}: cannot create ({why}); {left}", number) from None
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
            if path.exists():  # a FIFO, a device, a socket: never opened, never read
                raise JournalError(
                    f"{path}: not a regular file (a pipe, a device or a socket); not a game log"
                )
            raise JournalError(f"{path}: no such game log")
        if not want_write:
            return cls(path, None, read_only=True, why_read_only="opened read-only")
        linked = f"{LINK_REFUSED} (open the log it points to, {path.resolve()}); opened read-only"
        if path.is_symlink():
            return cls(path, None, True, linked)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | BINARY | NOFOLLOW)
        except OSError as exc:
            if exc.errno == errno.ELOOP:  # made a link since the check above
                return cls(path, None, True, linked)
            return cls(
                path, None, True, f"cannot open for writing ({os_error(exc)}); opened read-only"
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
        data, head = self._prepared(lines)
        self._write_data(data, head)

    def stage_group(self) -> StagedGroup:
        """A group to stage lines in (``core.log.staging``: a spill file beside the log),
        linked as this journal would link them now; :meth:`append_group` writes it."""
        self._writable()
        head = self.chain_head() if self.chained else None
        # staged only by a write of many lines (tempfile, with shutil: not for a read)
        from stockade.core.log.staging import StagedGroup

        return StagedGroup(parent_of(self.path), self._size, head, self.chained)

    def append_group(self, group: StagedGroup) -> None:
        """Append a staged group (a script: ``stockade run``), too large to trust to one
        ``write``: a kill can stop the kernel part way through a write of many pages,
        and the group is copied from its spill a chunk at a time. A marker beside the
        log (:func:`group_marker`) is made durable before the first write and removed,
        durably, after the fsync: removing it is what accepts the group. Opening a log
        whose marker is still there cuts the file back to where the group began
        (``core.log.store``), so a kill or a failed write at any point leaves the log as
        it was, or with the whole group accepted."""
        self._writable()
        if group.start != self._size or group.chained != self.chained:
            raise JournalWriteError(
                f"{self.path}: the log moved on since the entries were staged; nothing written"
            )
        self._check_unchanged()
        group.finish()
        marker = group_marker(self.path)
        try:
            write_marker(marker, self._size, self._size + group.size)
        except OSError as exc:
            raise JournalWriteError(
                f"{marker}: cannot mark the start of the write ({os_error(exc)}); "
                "nothing was recorded (the log was left as it was)",
                exc.errno,
            ) from None
        try:
            self._write_chunks(group.chunks(), group.size, group.head, group.data)
        except JournalWriteError:
            if self._rolled_back:
                remove_quietly(marker)
            raise  # else the marker stays: the next open cuts the file back
        try:
            os.unlink(marker)
            fsync_dir(parent_of(marker))
        except OSError as exc:
            # not accepted: take the group back, as for a failed write
            self._size -= group.size
            self._poisoned = True
            self._rolled_back = self._roll_back()
            raise JournalWriteError(
                f"{marker}: cannot remove the marker that accepts the write "
                f"({os_error(exc)}); it was NOT recorded",
                exc.errno,
            ) from None
        if self.on_written is not None:
            for chunk in group.chunks():
                self.on_written(chunk)

    def _writable(self) -> None:
        if self.read_only or self._fd is None:
            raise JournalWriteError(f"{self.path}: {self.why_read_only or 'read-only'}")
        if self._poisoned:
            raise JournalWriteError(
                f"{self.path}: an earlier write failed; the log must be re-read before "
                "anything more is written"
            )

    def _prepared(self, lines: list[bytes]) -> tuple[bytes, str | None]:
        """The bytes that append ``lines`` (links added), and the chain's head after."""
        self._writable()
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
        return b"".join(line + b"\n" for line in lines), head

    def _write_data(self, data: bytes, head: str | None) -> None:
        self._write_chunks([data], len(data), head, lambda: data)
        if self.on_written is not None:
            self.on_written(data)

    def _write_chunks(
        self, chunks: Iterable[bytes], size: int, head: str | None, attempt: Callable[[], bytes]
    ) -> None:
        """Write ``chunks`` (``size`` bytes in all), then fsync; on any failure cut the
        file back and poison the journal. ``attempt()``: the bytes tried, kept after a
        failure for the writer to look for in the file (``last_attempt``)."""
        assert self._fd is not None
        self._rolled_back = False
        try:
            for chunk in chunks:
                written = self._write(self._fd, chunk)
                if written != len(chunk):
                    raise short_write(self._fd, written, len(chunk))
            self._fsync(self._fd)
        except BaseException as exc:
            self._poisoned = True
            self._rolled_back = rolled_back = self._roll_back()
            try:
                self.last_attempt = attempt()
            except OSError:
                self.last_attempt = b""
            if not isinstance(exc, OSError):
                raise
            state = (
                "the log was left as it was"
                if rolled_back
                else "part of it may be in the file and is set aside when the log is re-read"
            )
            raise JournalWriteError(
                f"{self.path}: could not save the entry "
                f"({os_error(exc)}); it was NOT recorded ({state})",
                exc.errno,
            ) from None
        self._size += size
        self._head = head
        self.last_attempt = b""

    def chain_head(self) -> str | None:
        """The link of the log's last line: what the next appended line carries."""
        if not self._head_known:
            # Imported here, not at the top: the chain is made only by an append (and
            # checked by ``stockade check``); an open, read-only or for writing, never
            # links a line, and the app's first read of a game pays for no module it
            # does not run.
            from stockade.core.log import chain

            try:
                self._head = chain.head_of_file(self.path, self._size)
            except OSError as exc:
                raise JournalWriteError(
                    f"{self.path}: cannot read the last entry to chain the next one to it "
                    f"({os_error(exc)}); nothing written",
                    exc.errno,
                ) from None
            self._head_known = True
        return self._head

    def _chain(self, lines: list[bytes]) -> tuple[list[bytes], str | None]:
        """The lines with their ``prev`` links, and the link of the last of them."""
        from stockade.core.log import chain  # an append: see ``chain_head``

        head, out = self.chain_head(), []
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
            refuse_if_changed(self.path, self._fd, self._identity, self._size)
        except JournalWriteError:  # and JournalReplaced, one of them
            self._poisoned = True
            raise

    def resized(self) -> bool:
        """Is the file no longer the length this journal left it at (another program
        appended to it, cut it short or rewrote it)? Only looks (an fstat). If so, the
        journal refuses writes until the caller has re-read the file, as after a
        failed write (nothing of its own was being written: ``last_attempt`` is empty)."""
        if self._fd is None or self.read_only or self._poisoned:
            return False
        try:
            size = os.fstat(self._fd).st_size
        except OSError:
            return False
        if size == self._size:
            return False
        self._poisoned, self.last_attempt = True, b""
        return True

    def same_file(self, fd: int) -> bool:
        """Is ``fd`` open on the file this journal writes (its device and inode)?"""
        try:
            st = os.fstat(fd)
        except OSError:
            return False
        return self._identity is not None and (st.st_dev, st.st_ino) == self._identity

    def changed_on_disk(self) -> str:
        """'' while the path still names the file this journal opened; else what
        happened to it. Only looks (a stat): the app asks between entries, so the
        player hears of a deleted or replaced log before typing the next one."""
        if self._fd is None or self._identity is None:
            return ""
        return how_path_changed(self.path, self._identity)

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
        try:
            os.ftruncate(self._fd, keep_bytes)
            _full_fsync(self._fd)
        except OSError as exc:
            raise JournalWriteError(
                f"{self.path}: cannot cut the log back to {keep_bytes} bytes ({os_error(exc)})",
                exc.errno,
            ) from None
        self.resync()
