"""Is the path still the file a journal locked, at the length it left it?

Separate from the journal (``core.log.journal``) because it only looks (a ``stat`` and
an ``fstat``) and says what it saw; the journal acts on the answer (it refuses writes
until the log is re-read). Another program deleting, replacing or writing to an open
log is caught here before anything is appended to a file we no longer understand.
"""

from __future__ import annotations

import os
from pathlib import Path

from stockade.core.log.files import os_error
from stockade.core.log.journal_errors import JournalReplaced, JournalWriteError


def refuse_if_changed(path: Path, fd: int, identity: tuple[int, int] | None, size: int) -> None:
    """Raise ``JournalReplaced`` if ``path`` no longer names the file open as ``fd``
    (``identity``: its device and inode), ``JournalWriteError`` if that file is not
    ``size`` bytes long or cannot be checked."""
    try:
        st = os.fstat(fd)
        on_disk = os.stat(path)
    except FileNotFoundError:
        raise JournalReplaced(
            f"{path}: the log was moved or deleted while open; nothing written"
        ) from None
    except OSError as exc:
        raise JournalWriteError(
            f"{path}: cannot check the log ({os_error(exc)})", exc.errno
        ) from None
    if (on_disk.st_dev, on_disk.st_ino) != identity:
        raise JournalReplaced(
            f"{path}: the log was replaced by another file while open; nothing "
            "written (re-open the game)"
        )
    if st.st_size != size:
        raise JournalWriteError(
            f"{path}: another program changed the log while it was open "
            f"({st.st_size} bytes, expected {size}); nothing written"
        )


def how_path_changed(path: Path, identity: tuple[int, int]) -> str:
    """'' while ``path`` still names the file whose device and inode are ``identity``;
    else what happened to it."""
    try:
        on_disk = os.stat(path)
    except FileNotFoundError:
        return f"{path}: the log was moved or deleted while open"
    except OSError as exc:
        return f"{path}: cannot check the log ({exc.strerror})"
    if (on_disk.st_dev, on_disk.st_ino) != identity:
        return f"{path}: the log was replaced by another file while open"
    return ""
