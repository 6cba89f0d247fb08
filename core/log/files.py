"""Whole files and descriptors, for the journal and the side files beside a log.

Writing a whole file durably (``atomic_write``: a temporary file and a rename; a new
side file: ``write_new_file``; one of Stockade's own small files: ``write_own_file``),
never through a link; syncing a descriptor or a directory; the marker beside a log
while a group of entries is written and not yet accepted (``group_marker``). Knows
nothing of logs' contents (``core.log.journal`` appends to a log).
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from pathlib import Path

# Windows opens descriptors in text mode unless told otherwise, which would turn every
# "\n" written into "\r\n"; a log is bytes. 0 (no flag) everywhere else.
BINARY = getattr(os, "O_BINARY", 0)
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


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


def full_fsync(fd: int) -> None:
    """fsync; on macOS ``F_FULLFSYNC``, since plain fsync there does not reach the disk."""
    if sys.platform == "darwin":
        import fcntl  # only here: fcntl does not exist on Windows

        try:
            fcntl.fcntl(fd, fcntl.F_FULLFSYNC)
            return
        except OSError:
            pass  # not supported by this file system: fall back to fsync
    os.fsync(fd)


def parent_of(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


def atomic_write(path: Path, data: bytes, replace: bool = True) -> None:
    """Write a whole file through a temporary file and rename (repairs, exports).

    Either the old file or the complete new one is at ``path`` afterwards, whatever
    happens; the rename is made durable by syncing the directory.

    Never writes through a link: the temporary file is made by
    ``tempfile.mkstemp`` in the target's directory -- an unpredictable name, opened
    with ``O_CREAT | O_EXCL`` (and ``ONOFOLLOW`` where the system has it), so nothing
    planted under a guessable name is followed -- and a link at ``path`` is replaced
    by the rename, its target left as it was. ``replace=False`` refuses an existing
    ``path`` of any kind, a dangling link included (``FileExistsError``): the file is
    put there with ``os.link``, which never overwrites.
    """
    path = Path(path)
    # mkstemp opens with O_CREAT|O_EXCL (and ONOFOLLOW, OBINARY where they exist)
    try:
        import tempfile  # here: it loads shutil and random, which no reader needs

        fd, tmp_name = tempfile.mkstemp(dir=parent_of(path), prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise type(exc)(exc.errno, exc.strerror or str(exc), str(path)) from None
    tmp = Path(tmp_name)
    try:
        try:
            if hasattr(os, "fchmod"):  # mkstemp makes it 0600; a log or export is 0644
                os.fchmod(fd, 0o644)
            write_all(fd, data)
            full_fsync(fd)
        finally:
            os.close(fd)
        if replace:
            os.replace(tmp, path)
        else:
            os.link(tmp, path)  # fails if anything, a dangling link included, is there
            os.unlink(tmp)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):  # named by the file asked for, not the temporary one
            raise type(exc)(exc.errno, exc.strerror or str(exc), str(path)) from None
        raise
    fsync_dir(parent_of(path))


def write_own_file(path: Path, data: bytes) -> None:
    """Write one of Stockade's own small files (config, the recent-games list, the
    last game) whole: ``atomic_write``, after refusing a link at ``path`` (an
    ``OSError`` naming it) rather than replacing the link the user put there."""
    path = Path(path)
    if path.is_symlink():
        raise OSError(errno.ELOOP, LINK_REFUSED, str(path))
    atomic_write(path, data)


LINK_REFUSED = "is a symbolic link; Stockade writes no file through a link"


def write_new_file(path: Path, data: bytes) -> None:
    """Create ``path`` (which must not exist) durably with ``data``: side files."""
    path = Path(path)
    # O_EXCL: never an existing file, and never a link (even a dangling one).
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | BINARY | NOFOLLOW, 0o644)
    try:
        try:
            write_all(fd, data)
            full_fsync(fd)
        finally:
            os.close(fd)
    except BaseException:
        remove_quietly(path)  # made here, and holding less than it should: no empty side file
        raise
    fsync_dir(parent_of(path))


def os_error(exc: OSError) -> str:
    return exc.strerror or str(exc)


def group_marker(path: Path) -> Path:
    """The marker beside the log at ``path`` while a group is written and not yet
    accepted (``Journal.append_group``): the log's length before the group and after."""
    return path.with_name(f".{path.name}.writing")


def write_marker(marker: Path, before: int, after: int) -> None:
    data = b"%d %d\n" % (before, after)
    try:
        write_new_file(marker, data)
    except FileExistsError:  # one left by a process that died: its log was settled at open
        os.unlink(marker)  # a link planted there is removed, its target left alone
        write_new_file(marker, data)


def read_marker(marker: Path) -> tuple[int, int] | None:
    """The (before, after) lengths a group marker holds; None if there is none (or it
    is not one: a link, a folder, other bytes)."""
    try:
        fd = os.open(marker, os.O_RDONLY | BINARY | NOFOLLOW)
    except OSError:
        return None
    try:
        before, after = (int(n) for n in os.read(fd, 64).split())
    except (OSError, ValueError):
        return None
    finally:
        os.close(fd)
    return (before, after) if 0 <= before < after else None


def remove_quietly(path: Path) -> None:
    """Remove ``path`` if it is there (a link: the link, never its target)."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


def short_write(fd: int, written: int, wanted: int) -> OSError:
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


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


__all__ = [
    "BINARY",
    "LINK_REFUSED",
    "NOFOLLOW",
    "atomic_write",
    "fsync_dir",
    "full_fsync",
    "group_marker",
    "os_error",
    "parent_of",
    "read_marker",
    "remove_quietly",
    "short_write",
    "write_all",
    "write_marker",
    "write_new_file",
    "write_own_file",
]
