"""Read commands on big logs, this build against another (today's main), interleaved:
CPU seconds and peak memory of each command, one process per run.

    python -m bench.bounded_run --base /work/wt/bounded-base LOG...
    python -m bench.bounded_run --base ... --control 1000 2000 4000 8000
    python -m bench.bounded_run --base ... --shape pingpong 350000 --runs 1

``run`` records a short script (the clock moved on ten times, three of them taken back)
into a fresh copy of each log: what a write on a big game holds, not a long script
(``bench/run_stream.py`` measures that).

Each LOG (or each ``control N`` shape from ``bench/hostile_shapes.py``, made under
/tmp/stockade-bench/) is read by every command below, by this build's interpreter and
by ``BASE``'s (its own ``.venv``), alternating, ``--runs`` times each; the medians are
printed. CPU is user + system of the child (``resource.getrusage(RUSAGE_CHILDREN)``
before and after); peak memory is the child's own ``VmHWM`` (Linux), which
``ru_maxrss`` of children is not: it keeps the largest child seen so far.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.hostile_run import CLI

HERE = Path(__file__).resolve().parent.parent
OUT = Path(tempfile.gettempdir()) / "stockade-bench"


def commands(log: Path) -> list[tuple[str, list[str]]]:
    repaired = OUT / "repaired.jsonl"
    with open(log, "rb") as f:
        lines = sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 22), b""))
    return [
        ("tally", ["tally", str(log)]),
        ("check", ["check", str(log)]),
        ("history", ["history", str(log)]),
        ("history --json", ["history", str(log), "--json"]),
        ("show", ["show", str(log)]),
        ("verify", ["verify", str(log), str(log)]),
        ("repair", ["repair", str(log), "-o", str(repaired), "--force"]),
        ("watch", ["watch", str(log), "--until", str(lines)]),  # opens, prints, stops
        ("run", ["run", str(RUN_COPY), str(run_script())]),  # on a fresh copy each time
    ]


RUN_COPY = OUT / "run-copy.jsonl"


def run_script() -> Path:
    """A short script any game accepts: the clock moved on and part of it taken back."""
    path = OUT / "run-script.txt"
    OUT.mkdir(parents=True, exist_ok=True)
    path.write_text("next\n" * 10 + "undo\n" * 3)
    return path


def run(python: Path, args: list[str]) -> tuple[float, float, int]:
    """CPU seconds and peak MB of one CLI run under ``python``, and its exit code."""
    env = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="stockade-bench-") as scratch:
        for name in ("CONFIG", "DATA", "CACHE"):  # no snapshot or kept tally of a run before
            env[f"STOCKADE_{name}_DIR"] = os.path.join(scratch, name.lower())
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(
            [str(python), "-c", CLI, *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=env,
            check=False,
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    said = done.stderr.decode(errors="replace")
    peak = int(said.rsplit("VmHWM ", 1)[1].split()[0]) if "VmHWM " in said else 0
    return cpu, peak / 1024, done.returncode


def control_log(python: Path, count: int) -> Path:
    return shaped_log(python, "control", count)


def shaped_log(python: Path, shape: str, count: int) -> Path:
    """``bench.hostile_shapes SHAPE COUNT``, made once under /tmp/stockade-bench/."""
    path = OUT / f"{shape}-{count}.jsonl"
    if not path.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [str(python), "-m", "bench.hostile_shapes", shape, str(count), str(path)],
            cwd=HERE,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("logs", nargs="*", type=Path)
    parser.add_argument("--base", type=Path, required=True, help="a checkout with its .venv")
    parser.add_argument("--control", type=int, nargs="*", default=[])
    parser.add_argument(
        "--shape",
        nargs=2,
        action="append",
        default=[],
        metavar=("SHAPE", "N"),
        help="a bench.hostile_shapes log (pingpong 350000 is ~91 MB; added N, strikes N)",
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", nargs="*", help="command names to run (default: all)")
    args = parser.parse_args(argv)
    mine, base = Path(sys.executable), args.base / ".venv" / "bin" / "python"
    logs = [*args.logs, *(control_log(mine, n) for n in args.control)]
    logs += [shaped_log(mine, shape, int(n)) for shape, n in args.shape]
    print(f"load average {os.getloadavg()[0]:.1f}; medians of {args.runs} runs, interleaved")
    print(f"{'log':<22} {'command':<15} {'CPU s':>7} {'base':>7} {'MB':>6} {'base':>6}  exit")
    for log in logs:
        for name, cmd in commands(log):
            if args.only and name not in args.only:
                continue
            got: dict[str, list[tuple[float, float, int]]] = {"mine": [], "base": []}
            for _ in range(args.runs):
                for python, who in ((mine, "mine"), (base, "base")):
                    if name == "run":  # `run` writes: each run records into its own copy
                        shutil.copyfile(log, RUN_COPY)
                    got[who].append(run(python, cmd))
            cpu = {k: statistics.median(r[0] for r in v) for k, v in got.items()}
            mb = {k: statistics.median(r[1] for r in v) for k, v in got.items()}
            codes = f"{got['mine'][0][2]}/{got['base'][0][2]}"
            print(
                f"{log.name[:22]:<22} {name:<15} {cpu['mine']:>7.2f} {cpu['base']:>7.2f}"
                f" {mb['mine']:>6.0f} {mb['base']:>6.0f}  {codes}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
