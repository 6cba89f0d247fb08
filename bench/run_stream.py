"""``stockade run`` of long scripts, this build against another (today's main),
interleaved: CPU seconds and peak memory of each run, one process per run.

    python -m bench.run_stream --base /work/wt/runstream-base
    python -m bench.run_stream --base ... --lines 25000 50000 --runs 3

Each script moves one squad back and forth (``move a1 R8`` / ``move a1 R7``): one
record per line, the game's state the same size throughout, so what grows with the
script is the run's own holding (and the history a game keeps of its records). Each
run records into a fresh copy of a new game's log. Peak memory is the child's VmHWM,
CPU its user + system (``bench.bounded_run.run``).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.bounded_run import run

OUT = Path(tempfile.gettempdir()) / "stockade-bench" / "run-stream"
NEW = "import sys; from stockade.core.cli import main; sys.exit(main(sys.argv[1:]))"


def script(lines: int) -> Path:
    path = OUT / f"move-{lines}.txt"
    if not path.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        moves = [f"move a1 {'R8' if n % 2 else 'R7'}" for n in range(1, lines)]
        path.write_text("\n".join(["add American 7-4-7 as a1 at Q5", *moves]) + "\n")
    return path


def new_log(python: Path) -> Path:
    path = OUT / "new.jsonl"
    if not path.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        sides = ["--side", "American:American:4", "--side", "German:German:3"]
        subprocess.run(
            [str(python), "-c", NEW, "new", str(path), "--scenario", "Bench", *sides],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, required=True, help="a checkout with .venv")
    parser.add_argument("--lines", type=int, nargs="+", default=[25_000, 50_000, 100_000, 200_000])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="run with --json")
    args = parser.parse_args(argv)
    builds = {"this": Path(sys.executable), "base": args.base / ".venv" / "bin" / "python"}
    header = new_log(builds["this"])
    games = Path(tempfile.mkdtemp(prefix="games-", dir=OUT))  # this run's own: never shared
    print(f"{'lines':>8} {'build':>5} {'CPU s':>7} {'peak MB':>8}  exit", flush=True)
    for lines in args.lines:
        seen: dict[str, list[tuple[float, float]]] = {name: [] for name in builds}
        for _ in range(args.runs):
            for name, python in builds.items():
                log = games / f"game-{name}.jsonl"
                shutil.copyfile(header, log)
                command = ["run", str(log), str(script(lines)), "--json" if args.json else "-q"]
                cpu, peak, code = run(python, command)
                seen[name].append((cpu, peak))
                print(f"{lines:>8} {name:>5} {cpu:>7.2f} {peak:>8.0f}  {code}", flush=True)
                for made in games.iterdir():  # the log and what its run kept beside it
                    made.unlink()
        medians = {n: [statistics.median(v[i] for v in seen[n]) for i in (0, 1)] for n in seen}
        this, base = medians["this"], medians["base"]
        print(
            f"{lines:>8} median: this {this[0]:.2f} s {this[1]:.0f} MB, base {base[0]:.2f} s "
            f"{base[1]:.0f} MB (CPU {this[0] / base[0]:.2f}x, memory {this[1] / base[1]:.2f}x)",
            flush=True,
        )
    games.rmdir()
    return 0


if __name__ == "__main__":
    sys.exit(main())
