"""A test run killed mid-way leaves no process of its own behind (tests/processes.py).

The run is pytest on tests/fixtures/spawns_child.py, whose one test starts a child that
starts a grandchild, and waits. It is killed as a CI or a terminal would: SIGTERM or
SIGKILL to the pytest process, SIGKILL to its whole process group, and, with an xdist
worker, SIGKILL to the controlling pytest alone. Every process of that run carries a
marker in its environment; afterwards no living process may carry it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MARKER = "STOCKADE_KILLED_RUN"


def _carrying(marker: str) -> list[int]:
    """The living processes whose environment holds ``marker`` (zombies are dead)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
                continue
            if marker.encode() in (entry / "environ").read_bytes():
                found.append(int(entry.name))
        except OSError:  # gone meanwhile, or not ours to read
            continue
    return found


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads /proc (Linux)")
@pytest.mark.parametrize(
    "workers,kill",
    [
        ("0", "SIGTERM to pytest"),
        ("0", "SIGKILL to pytest"),
        ("0", "SIGKILL to its group"),
        ("1", "SIGKILL to the xdist controller"),
        ("1", "SIGKILL to its group"),
    ],
)
def test_a_killed_run_leaves_no_process(tmp_path, workers, kill):
    pids = tmp_path / "pids"
    marker = f"{MARKER}={uuid.uuid4().hex}"
    env = {
        **os.environ,
        MARKER: marker.split("=", 1)[1],
        "SPAWNS_CHILD_PIDS": str(pids),
        # No installed plugin but xdist: spawns_child.py uses none, and loading them
        # (hypothesis, the snapshot plugin and the Textual it imports) in the run and its
        # worker cost more CPU than everything else the run does.
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    }
    env.pop("PYTEST_XDIST_WORKER", None)  # the run is a pytest of its own, not a worker
    run = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-o", "addopts=-q", "-p", "no:cacheprovider"]
        + ["-p", "xdist.plugin", "-n", workers, "tests/fixtures/spawns_child.py"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own group: killing the group spares this test
    )
    try:
        hang_guard = time.monotonic() + 180  # a run that never got there, not a slow one
        while not (pids.exists() and len(pids.read_text().split()) == 3):
            assert run.poll() is None, "the run ended before its test started the child"
            assert time.monotonic() < hang_guard, "the run's test never started its child"
            time.sleep(0.1)
        assert len(_carrying(marker)) >= 4  # pytest (and its worker), child, grandchild
        if kill == "SIGTERM to pytest":
            run.send_signal(signal.SIGTERM)
        elif kill == "SIGKILL to its group":
            os.killpg(run.pid, signal.SIGKILL)
        else:
            run.kill()
        run.wait(timeout=60)
        hang_guard = time.monotonic() + 60
        while left := _carrying(marker):
            assert time.monotonic() < hang_guard, f"left running after {kill}: {left}"
            time.sleep(0.1)
    finally:
        for pid in _carrying(marker):  # a failed check still cleans up after itself
            os.kill(pid, signal.SIGKILL)
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
