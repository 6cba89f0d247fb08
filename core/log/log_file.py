"""Reading a log's bytes, with the checks every reader makes before it reads a byte.

A log must be a regular file of at most ``MAX_LOG_BYTES``: a FIFO would block a reader
for ever, a device (``/dev/zero``) never ends, and a file larger than any game could be
would be read whole into memory. The file is opened first (without blocking: a FIFO
with no writer would otherwise hang the open itself), then judged by ``fstat`` of that
open file (never by a second look at the path, which could be swapped in between), and
only then read, never past the bound.

Import-light (os and stat only): the tally answered from the derived store
(core/log/derived.py) reads the log through this before anything heavy is imported,
and the reading loop (core/log/log_lines.py) reads it through the same function.
"""

from __future__ import annotations

import os
import stat

# A log larger than this is refused before it is read: a long game is a few MB (10,000
# entries are ~3 MB), a campaign's whole history a few tens; 1 GiB is far beyond any.
MAX_LOG_BYTES = 1 << 30
_CHUNK = 1 << 20


class LogFileRefused(Exception):
    """The path is no log this program reads (not a regular file, too large, cannot be
    opened or read); the message names the file and why. ``errno``: the OS error's
    number when there was one."""

    def __init__(self, message: str, errno: int | None = None) -> None:
        super().__init__(message)
        self.errno = errno


def open_log(path: str, limit: int = MAX_LOG_BYTES) -> int:
    """A descriptor of the log at ``path``, opened for reading after the checks above
    (the caller closes it; ``read_log_bytes`` reads it whole)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise LogFileRefused(f"{path}: no such file") from None
    except IsADirectoryError:
        raise LogFileRefused(f"{path}: is a directory, not a game log") from None
    except PermissionError as exc:
        raise LogFileRefused(f"{path}: permission denied", exc.errno) from None
    except OSError as exc:
        raise LogFileRefused(f"{path}: cannot read ({exc.strerror or exc})", exc.errno) from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise LogFileRefused(f"{path}: is a directory, not a game log")
        if not stat.S_ISREG(st.st_mode):
            raise LogFileRefused(
                f"{path}: not a regular file (a pipe, a device or a socket); not a game log"
            )
        if st.st_size > limit:
            raise LogFileRefused(_too_large(path, st.st_size, limit))
    except OSError as exc:
        os.close(fd)
        raise LogFileRefused(f"{path}: cannot read ({exc.strerror or exc})", exc.errno) from None
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_log_bytes(path: str, limit: int = MAX_LOG_BYTES) -> bytes:
    """The whole content of the log at ``path``, read once, after the checks above."""
    fd = open_log(path, limit)
    try:
        parts: list[bytes] = []
        total = 0
        while True:  # to the end as it is now (a log may grow while read), never past
            part = os.read(fd, min(_CHUNK, limit + 1 - total))
            if not part:
                break
            parts.append(part)
            total += len(part)
            if total > limit:
                raise LogFileRefused(_too_large(path, total, limit))
        return b"".join(parts)
    except OSError as exc:
        raise LogFileRefused(f"{path}: cannot read ({exc.strerror or exc})", exc.errno) from None
    except MemoryError:
        raise LogFileRefused(f"{path}: too large to read") from None
    finally:
        os.close(fd)


def _too_large(path: str, size: int, limit: int) -> str:
    return (
        f"{path}: {size} bytes, over the {limit}-byte limit of a game log; "
        "refused without reading it"
    )


__all__ = ["MAX_LOG_BYTES", "LogFileRefused", "read_log_bytes"]
