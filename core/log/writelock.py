"""The single-writer lock on a game log, on every platform (docs/durability.md, "One writer").

Two ways to hold it, picked once at import:

* ``flock``: where Python has ``fcntl`` (Linux, macOS, the BSDs) an advisory exclusive
  ``flock`` on the log's own descriptor, as Stockade always did. No extra file; the
  kernel drops the lock when the process dies, however it dies.
* ``filelock``: everywhere else (Windows) the ``filelock`` library's lock on a side file
  ``.NAME.lock`` beside the log. A side file, not the log itself, because Windows byte
  range locks are mandatory: locking the log would stop a second window, ``stockade
  check`` or ``tally`` from *reading* it. On Windows filelock takes an OS lock
  (``LockFileEx``) that dies with the process; on a POSIX Python without ``fcntl`` it
  falls back to a lock file naming its owner's pid, which the next opener breaks when
  that process is gone (so a crash never leaves a game locked).

Nothing here imports a POSIX-only module at module level (Windows has none): ``fcntl`` is tried
inside :func:`_load_fcntl`, and a test hides it to run the journal through the
``filelock`` path.
"""

from __future__ import annotations

import errno
import warnings
from pathlib import Path
from types import ModuleType
from typing import Protocol


class LockHeld(Exception):
    """Another process (or another window of this one) holds the write lock."""


class WriteLock(Protocol):
    def release(self) -> None: ...


def _load_fcntl() -> ModuleType | None:
    try:
        import fcntl
    except ImportError:
        return None
    return fcntl


_FCNTL = _load_fcntl()
BACKEND = "flock" if _FCNTL is not None and hasattr(_FCNTL, "flock") else "filelock"


def side_file(path: Path) -> Path:
    """Where the ``filelock`` backend keeps its lock for the log at ``path``."""
    return path.with_name(f".{path.name}.lock")


class _Flock:
    def __init__(self, fd: int):
        assert _FCNTL is not None
        self._fd = fd
        try:
            _FCNTL.flock(fd, _FCNTL.LOCK_EX | _FCNTL.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise LockHeld() from None
            raise

    def release(self) -> None:
        pass  # closing the journal's descriptor drops the flock; nothing else holds it


class _SideFileLock:
    def __init__(self, path: Path):
        with warnings.catch_warnings():
            # filelock warns at import when only its pid-file lock exists (POSIX with no
            # fcntl); that is the case this backend is here for, so it is not news.
            warnings.simplefilter("ignore")
            import filelock
        # thread_local=False: the lock belongs to the journal, whichever thread closes it.
        self._lock = filelock.FileLock(str(side_file(path)), timeout=0, thread_local=False)
        try:
            self._lock.acquire()
        except filelock.Timeout:
            raise LockHeld() from None

    def release(self) -> None:
        self._lock.release(force=True)


def acquire(path: Path, fd: int) -> WriteLock:
    """Take the write lock on the log at ``path`` (open for writing as ``fd``) without
    waiting; :class:`LockHeld` if someone else has it, ``OSError`` if it cannot be had."""
    if BACKEND == "flock":
        return _Flock(fd)
    return _SideFileLock(Path(path))


__all__ = ["BACKEND", "LockHeld", "WriteLock", "acquire", "side_file"]
