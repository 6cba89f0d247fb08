"""The readers on logs shaped to hurt them (issue 24): CPU seconds and peak memory of
each command, one process per run (``os.wait4`` gives the child's own usage).

    python -m bench.hostile_run            # every shape below
    python -m bench.hostile_run --quick    # the smaller sizes only

Shapes are made by ``bench/hostile_shapes.py`` (strikes, undo/redo ping-pong, added
entries) or here (millions of empty or tiny lines after a header) into bench/out/.
Figures are recorded in docs/performance.md ("Issue 24").
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.hostile_shapes import SHAPES
from stockade.core.log.chain import chained
from stockade.core.model import events as ev

OUT = Path(__file__).resolve().parent / "out"
# The child reports its own peak memory (VmHWM, Linux): ``ru_maxrss`` from ``wait4``
# counts the forked image of this process before the exec, not the command's own.
CLI = """
import sys
from stockade.core.cli import main
try:
    code = main(sys.argv[1:])
finally:
    with open("/proc/self/status") as status:
        peak = [line.split()[1] for line in status if line.startswith("VmHWM")]
    sys.stderr.write(f"\\nVmHWM {peak[0] if peak else 0}\\n")
sys.exit(code)
"""


def shape(name: str, count: int) -> Path:
    path = OUT / f"hostile-{name}-{count}.jsonl"
    if not path.exists():
        OUT.mkdir(exist_ok=True)
        if name in SHAPES:
            lines = chained([ev.encode(r) for r in SHAPES[name](count)])
            path.write_bytes(b"".join(line + b"\n" for line in lines))
        else:
            header = shape("added", 0).read_bytes()
            path.write_bytes(header + {"empty": b"\n", "braces": b"{}\n"}[name] * count)
    return path


def run(args: list[str]) -> tuple[float, float, int]:
    """CPU seconds (user + system) and peak memory (MB) of one CLI run, and its code."""
    env = dict(os.environ)
    for name in ("CONFIG", "DATA", "CACHE"):
        env[f"STOCKADE_{name}_DIR"] = tempfile.mkdtemp(prefix="stockade-bench-")
    child = subprocess.Popen(
        [sys.executable, "-c", CLI, *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert child.stderr is not None
    said = child.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    peak = int(said.rsplit("VmHWM ", 1)[1].split()[0]) if "VmHWM " in said else 0
    return usage.ru_utime + usage.ru_stime, peak / 1024, child.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    quick = parser.parse_args(argv).quick
    big = not quick
    header = shape("added", 0)
    cases: list[tuple[str, list[str]]] = []
    for n in (250, 500, 1000) + ((3000,) if big else ()):
        cases.append((f"history, {n} strikes", ["history", str(shape("strikes", n))]))
    for n in (1000,) + ((5000,) if big else ()):
        cases.append((f"history, {n} undo/redo pairs", ["history", str(shape("pingpong", n))]))
    for n in (2000, 4000) + ((8000,) if big else ()):
        cases.append(
            (f"verify, {n} entries added", ["verify", str(header), str(shape("added", n))])
        )
    for name, n in (("empty", 2_000_000), ("braces", 3_000_000)):
        log = str(shape(name, n))
        for command in ("check", "tally"):
            cases.append((f"{command}, {n:,} {name} lines", [command, log]))
        repaired = str(OUT / "hostile-repaired.jsonl")
        cases.append((f"repair, {n:,} {name} lines", ["repair", log, "-o", repaired, "--force"]))
    print(f"{'case':<40} {'CPU s':>7} {'peak MB':>8}  exit")
    for what, args in cases:
        cpu, peak, code = run(args)
        print(f"{what:<40} {cpu:>7.2f} {peak:>8.0f}  {code}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
