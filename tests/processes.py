"""Every process a test starts goes when the test run goes, however it goes.

A test that starts a process stops it in a ``finally`` or a finalizer; that covers a
failing test and Ctrl+C, never a run that is killed (a CI timeout, SIGKILL, a closed
terminal): no Python code of the run's own runs then. So each child gets a process group
of its own (its own children, such as the ``stockade serve`` app's, are in it too), and
one watcher per test process holds the groups' ids. The watcher is a small process in a
session of its own (a kill of the run's group does not reach it) that reads a pipe only
the run holds open: when the run dies, by any signal, the kernel closes the pipe, and the
watcher kills every group it was given, then exits. A run that ends cleanly closes the
pipe too, which kills only what a test forgot.

An xdist worker also asks the kernel for SIGKILL when its parent (the controlling pytest)
dies (``PR_SET_PDEATHSIG``), so killing only the controlling process ends the workers, and
through their watchers the workers' children.

This is a plain module (not a test module); tests/conftest.py switches it on for the
whole run with :func:`guard_children`.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import threading
from typing import Any

WATCHER = r"""
import os, signal, sys
groups = set()
for line in sys.stdin.buffer:
    groups.add(int(line))
for group in groups:
    try:
        os.killpg(group, signal.SIGKILL)
    except OSError:
        pass
"""

PR_SET_PDEATHSIG = 1


class _Watcher:
    """The watcher process of this test process, started at the first child."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._owner = 0

    def watch(self, group: int) -> None:
        with self._lock:
            if self._process is None or self._owner != os.getpid():
                self._process = _REAL_POPEN(
                    [sys.executable, "-c", WATCHER],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                    close_fds=True,
                )
                self._owner = os.getpid()
            assert self._process.stdin is not None
            self._process.stdin.write(b"%d\n" % group)
            self._process.stdin.flush()

    def close(self) -> None:
        """At the end of a clean run: kill what a test left running, then stop."""
        with self._lock:
            if self._process is not None and self._owner == os.getpid():
                assert self._process.stdin is not None
                self._process.stdin.close()  # EOF: the watcher kills the groups left
                self._process.wait(timeout=30)
            self._process = None


_REAL_POPEN = subprocess.Popen
_WATCHER = _Watcher()


class GuardedPopen(subprocess.Popen[bytes]):
    """``subprocess.Popen``, but the child leads a process group of its own that the
    watcher kills if the run dies, and reads no terminal (stdin is /dev/null unless the
    test gives one)."""

    def __init__(self, args: Any, *rest: Any, **options: Any) -> None:
        if not rest:  # (positional options: an old-style call, left as it is)
            if not options.get("start_new_session") and options.get("process_group") is None:
                options["start_new_session"] = True
            if options.get("stdin") is None:
                options["stdin"] = subprocess.DEVNULL
        super().__init__(args, *rest, **options)
        if options.get("start_new_session") or options.get("process_group") == 0:
            _WATCHER.watch(self.pid)  # it leads its group


def die_with_parent() -> None:
    """Ask Linux for SIGKILL when this process's parent dies (elsewhere: nothing)."""
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the request: too late for it
        os._exit(1)


def guard_children() -> None:
    """From now on, every ``subprocess`` child of this process is guarded."""
    subprocess.Popen = GuardedPopen  # type: ignore[misc,assignment]  # swapping the class is the point


def release_children() -> None:
    subprocess.Popen = _REAL_POPEN  # type: ignore[misc]
    _WATCHER.close()
