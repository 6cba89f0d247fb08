"""A child process that SIGKILLs itself at the k-th step of the write protocol (before
and after each write and fsync of the journal and the files module), for the killed-run
tests: `arm(at)` in the child, then run the command."""

from __future__ import annotations

import os
import signal
from typing import Any

from stockade.core.log import files, journal


def arm(at: int, half_writes: bool = False) -> None:
    """Kill this process at step ``at``. ``half_writes``: each journal write goes in two
    halves with a step between, so a kill can leave half of a group in the file."""
    step = 0

    def kill_here() -> None:
        nonlocal step
        step += 1
        if step == at:
            os.kill(os.getpid(), signal.SIGKILL)

    real_write_all, real_fsync_dir = files.write_all, files.fsync_dir

    def write_all(fd: int, data: bytes) -> None:
        kill_here()
        real_write_all(fd, data)
        kill_here()

    def fsync_dir(path: Any) -> None:
        kill_here()
        real_fsync_dir(path)
        kill_here()

    files.write_all, files.fsync_dir = write_all, fsync_dir
    journal.fsync_dir = fsync_dir  # type: ignore[attr-defined]
    init = journal.Journal.__init__

    def patched(self: journal.Journal, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)

        def write(fd: int, data: Any) -> int:
            kill_here()
            if not half_writes:
                n = os.write(fd, data)
                kill_here()
                return n
            half = os.write(fd, memoryview(data)[: len(data) // 2])
            kill_here()  # half of the group in the file
            return half + os.write(fd, memoryview(data)[half:])

        def fsync(fd: int) -> None:
            kill_here()
            os.fsync(fd)
            kill_here()

        self._write, self._fsync = write, fsync

    journal.Journal.__init__ = patched  # type: ignore[method-assign]
