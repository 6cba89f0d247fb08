"""Windows has no ``fcntl``. This runs the journal's lock, write, crash and second-writer
tests again in an interpreter where ``import fcntl`` fails (tests/fixtures/no_fcntl/
sitecustomize.py, inherited by the children those tests start), so the journal goes
through its portable lock (core/log/writelock.py, the ``filelock`` library). What this does
not show is how the real Windows and macOS behave: docs/durability.md says what was run
where."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HIDE_FCNTL = ROOT / "tests" / "fixtures" / "no_fcntl"

# The journal's own tests, unchanged: locking (test_durability_lock), the write path and
# second opener (test_durability_journal), failing writes (test_durability_ioerror),
# SIGKILL mid-write (test_durability_crash). (tests/book/test_core_undo_journal.py is about
# the in-memory undo list of pre-images: it opens no file, so no lock.)
SUITES = [
    "tests/log/test_durability_lock.py",
    "tests/log/test_durability_journal.py",
    "tests/log/test_durability_ioerror.py",
    "tests/log/test_durability_crash.py",
]

PROBE = """
import sys
try:
    import fcntl
except ImportError:
    pass
else:
    sys.exit("fcntl is still importable")
from stockade.core.log import writelock
print(writelock.BACKEND)
"""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    # 3 kills, not 60: every kill leaves the side file behind and the next worker's open
    # must break it, so 3 prove that as 60 do (planted: an open that takes a side file
    # left behind for a held lock fails the crash suite at its second worker, and
    # test_a_killed_writer_leaves_no_lock_behind); the torn-write cases are fcntl-free
    # and already run 60 times in the suite's own run of the crash test.
    env["STOCKADE_TEST_CRASH_KILLS"] = "3"
    # Every 8th failing write, not each: after any failed write the game lets its lock go
    # and takes it again by one path (Game.recover), whichever write it was; which writes
    # fail is the fcntl-free part, run for every write in the suite's own run.
    env["STOCKADE_TEST_IOERROR_EVERY"] = "8"
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(HIDE_FCNTL), str(ROOT), env.get("PYTHONPATH", "")) if p
    )
    return env


def test_hiding_fcntl_selects_the_portable_lock():
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=_env(), capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "filelock"


def test_journal_suites_pass_with_fcntl_hidden():
    """The four suites in one pytest of its own (one interpreter to start and one import
    of Stockade, not four). That pytest loads no installed plugin: these suites use none
    (no hypothesis, no snapshot), and loading them would cost more than a suite."""
    command = [sys.executable, "-m", "pytest", "-o", "addopts=-q", "-p", "no:cacheprovider"]
    env = {**_env(), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    out = subprocess.run(command + SUITES, cwd=ROOT, env=env, capture_output=True, text=True)
    tail = "\n".join((out.stdout + out.stderr).splitlines()[-30:])
    assert out.returncode == 0, tail
    assert " passed" in tail and "failed" not in tail and "skipped" not in tail, tail
