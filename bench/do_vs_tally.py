"""``stockade do`` against ``stockade tally`` on the same 10k-record log, side by side.

    python -m bench.do_vs_tally [--events 10000] [--repeat 10]

Goal (issue 19): one ``do`` (read, fold, parse, check, write one record) <= 1.3x one
``tally`` (read, fold, print) of the same log. Each ``do`` runs on a fresh copy of the
log, so every one records into the same 10k records; runs are interleaved so that load
drift on the machine hits both alike. Run with ``STOCKADE_CACHE_DIR=off`` to measure
whole folds (no snapshot cache).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.generate import generate, write_log

CLI = "import sys; from stockade.core.cli import main; sys.exit(main(sys.argv[1:]))"
COMMAND = "add German 4-6-7 as zbench1 at Q4"


def _timed(args: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CLI, *args], capture_output=True)
    if done.returncode != 0:
        raise RuntimeError(done.stderr.decode(errors="replace"))
    return time.perf_counter() - start


def measure(events: int, repeat: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        original, log = Path(folder) / "original.jsonl", Path(folder) / "game.jsonl"
        write_log(generate(events), original)
        shutil.copy(original, log)
        _timed(["tally", str(log)])  # warm: bytecode, the snapshot cache if it is on
        times: dict[str, list[float]] = {"tally": [], "do": []}
        for _ in range(repeat):
            times["tally"].append(_timed(["tally", str(log)]))
            shutil.copy(original, log)
            times["do"].append(_timed(["do", str(log), COMMAND]))
    tally, do = statistics.median(times["tally"]), statistics.median(times["do"])
    return {"tally": tally, "do": do, "ratio": do / tally}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args(argv)
    got = measure(args.events, args.repeat)
    print(
        f"{args.events}-record log, median of {args.repeat}: tally {got['tally']:.3f} s, "
        f"do {got['do']:.3f} s, do/tally {got['ratio']:.2f} (goal <= 1.3)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
