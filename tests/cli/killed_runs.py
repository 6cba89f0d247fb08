"""``stockade`` runs killed at a step of the write protocol (tests/cli/kill_steps.py), each
in a process of its own, forked from one that imported Stockade once.

A killed-run test starts a run for every step until one finishes: tens of runs. Each
in a fresh interpreter paid the interpreter's start and Stockade's imports again, most
of the test's CPU. Here one server process imports them, then forks a child per run;
the child arms its kill, runs the command with its stdout and stderr in files, and
ends (by the kill, or with the command's exit code): a process of its own, with the
files on disk as the command left them, as before. Not a test module.
"""

from __future__ import annotations

import json
import select
import subprocess
import sys
from pathlib import Path
from types import TracebackType

ROOT = Path(__file__).resolve().parents[2]
# A hang guard only: a run takes well under a second of CPU.
HANG_SECONDS = 120

SERVER = r"""
import json, os, sys, traceback
sys.path.insert(0, sys.argv[1])
from stockade.core.cli import main
from stockade.core.log import staging
from tests.cli.kill_steps import arm

for line in sys.stdin:
    job = json.loads(line)
    pid = os.fork()
    if pid == 0:  # the run: never back in this loop
        code = 1
        try:
            for fd, name in ((1, "stdout"), (2, "stderr")):
                os.dup2(os.open(job[name], os.O_WRONLY | os.O_CREAT | os.O_TRUNC), fd)
            if job["chunk"]:
                staging.CHUNK_BYTES = job["chunk"]
            arm(job["at"], half_writes=job["half"])
            code = main(job["argv"])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        except BaseException:
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    print(os.waitstatus_to_exitcode(status), flush=True)
"""


class KilledRuns:
    """The server: ``run`` one command killed at step ``at``; use it as a context manager."""

    def __init__(self, tmp: Path):
        self._tmp = tmp
        self._server = subprocess.Popen(
            [sys.executable, "-c", SERVER, str(ROOT)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def run(
        self, argv: list[str], at: int, *, half_writes: bool = False, chunk: int = 0
    ) -> subprocess.CompletedProcess[str]:
        """``stockade ARGV`` killed at step ``at`` (``half_writes``: each journal write in
        two halves; ``chunk``: the staging's CHUNK_BYTES): its exit code (-9 when the kill
        came first), stdout and stderr."""
        server = self._server
        assert server.stdin is not None and server.stdout is not None
        out, err = self._tmp / "run.stdout", self._tmp / "run.stderr"
        job = {"argv": argv, "at": at, "half": half_writes, "chunk": chunk}
        server.stdin.write(json.dumps({**job, "stdout": str(out), "stderr": str(err)}) + "\n")
        server.stdin.flush()
        ready, _, _ = select.select([server.stdout], [], [], HANG_SECONDS)
        assert ready, f"the run killed at step {at} never ended"
        answer = server.stdout.readline()
        assert answer, f"the server died: rc {server.wait()}"
        return subprocess.CompletedProcess(argv, int(answer), out.read_text(), err.read_text())

    def __enter__(self) -> KilledRuns:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        assert self._server.stdin is not None
        self._server.stdin.close()
        try:
            self._server.wait(timeout=HANG_SECONDS)
        finally:
            if self._server.poll() is None:
                self._server.kill()
                self._server.wait()
