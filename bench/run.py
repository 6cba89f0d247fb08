"""Stockade benchmarks: medians and ratios, measured side by side in one run.

    python -m bench.run                 # everything (generates missing logs first)
    python -m bench.run --quick         # 1k/10k only, fewer repeats

Generated logs are cached in bench/out/ (``bench/generate.py``, seed 7). Results are
recorded in docs/performance.md. Goals (issue 4):

* load + validate + fold <= 3x a raw msgspec ``decode_lines`` of the same file;
* undo / redo / strike / replay-step at depth 100k <= 2x depth 100 (flat);
* headless ``stockade tally`` never imports Textual;
* TUI figures (only when tui/app.py exists).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):
    sys.path.insert(0, str(ROOT))

import msgspec  # noqa: E402

from core import events as ev  # noqa: E402
from core.game import Game  # noqa: E402
from core.logfile import load  # noqa: E402

OUT = ROOT / "bench" / "out"
SEED = 7


# --------------------------------------------------------------------- helpers
def log_path(events: int) -> Path:
    return OUT / f"game-{events}-s{SEED}.jsonl"


def ensure_log(events: int) -> Path:
    path = log_path(events)
    if not path.exists():
        from bench.generate import generate, write_log
        OUT.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        game = generate(events, SEED)
        tmp = path.with_suffix(".tmp")
        write_log(game, tmp)
        tmp.replace(path)
        print(f"  generated {path.name} in {time.perf_counter() - started:.1f} s",
              file=sys.stderr)
    return path


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def median(xs: list[float]) -> float:
    return statistics.median(xs)


def fmt(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} µs"


def machine() -> dict:
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        cpu = platform.processor() or "?"
    return {"nproc": os.cpu_count(), "cpu": cpu, "python": platform.python_version(),
            "msgspec": msgspec.__version__, "os": platform.platform()}


def table(headers: list[str], rows: list[list[str]]) -> str:
    out = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(out)


# ------------------------------------------------------------------- load
def bench_load(sizes: list[int], repeat: int) -> tuple[str, dict]:
    decoder = msgspec.json.Decoder(ev.AnyRecord)
    rows, results = [], {}
    for n in sizes:
        path = ensure_log(n)
        raw, val, fold = [], [], []
        for _ in range(repeat):  # interleaved: the three see the same machine state
            gc.collect()
            raw.append(timed(lambda: decoder.decode_lines(path.read_bytes())))
            gc.collect()
            val.append(timed(lambda: load(path)))
            gc.collect()
            fold.append(timed(lambda: Game.open(path, read_only=True)))
        r, v, f = median(raw), median(val), median(fold)
        results[n] = {"raw": r, "load": v, "fold": f}
        rows.append([f"{n:,}", f"{path.stat().st_size / 1e6:.1f} MB", fmt(r), fmt(v),
                     f"{v / r:.2f}x", fmt(f), f"{f / r:.1f}x",
                     "met" if f / r <= 3 else f"missed ({f / r / 3:.0f}x over)"])
    head = ["events", "file", "raw decode_lines", "load+validate", "ratio",
            "load+validate+fold", "ratio", "goal <= 3x"]
    return table(head, rows), results


# ---------------------------------------------------------------- depth ops
def _game_of(n: int) -> Game:
    return Game(load(ensure_log(n)).records)  # in memory: no fsync in the figures


def bench_depth(depths: list[int], repeat: int) -> tuple[str, dict]:
    results: dict[int, dict[str, float]] = {}
    for n in depths:
        game = _game_of(n)
        times: dict[str, list[float]] = {"undo": [], "redo": [], "strike": [],
                                          "unstrike": [], "replay-step": []}
        for i in range(repeat):
            times["undo"].append(timed(game.undo))
            times["redo"].append(timed(game.redo))
            target = next(r.seq for r in reversed(game.effective)
                          if isinstance(r, (ev.StatusChanged, ev.PhaseSet)))
            times["strike"].append(timed(lambda: game.strike(target, "bench")))
            times["unstrike"].append(timed(lambda: game.unstrike(target)))
            # one replay step: the state just before the latest few entries
            seq = game.effective[-1 - (i * 7) % min(50, len(game.effective) - 1)].seq
            times["replay-step"].append(timed(lambda: game.state_at(seq)))
        results[n] = {k: median(v) for k, v in times.items()}
        results[n]["units"] = len(game.state.units)
    ops = ["undo", "redo", "strike", "unstrike", "replay-step"]
    base = depths[0]
    rows = []
    for op in ops:
        row = [op] + [fmt(results[n][op]) for n in depths]
        ratio = results[depths[-1]][op] / results[base][op]
        row += [f"{ratio:.1f}x", "met" if ratio <= 2 else f"missed ({ratio / 2:.1f}x over)"]
        rows.append(row)
    rows.append(["(units in state)"] + [f"{results[n]['units']:,}" for n in depths]
                + ["", ""])
    head = ["op"] + [f"depth {n:,}" for n in depths] + [f"{depths[-1]:,} / {base:,}",
                                                         "goal <= 2x"]
    return table(head, rows), results


def bench_append(repeat: int) -> str:
    """One accepted entry on disk: rules + one write + fsync (for scale)."""
    import tempfile
    from bench.generate import Driver, new_game
    with tempfile.TemporaryDirectory(dir=OUT) as tmp:
        game = new_game(path=Path(tmp) / "g.jsonl")
        driver = Driver(game, SEED, controls=False)
        for _ in range(300):
            driver.step()
        unit = next(u for u in game.state.units.values() if u.status == "active")
        times = [timed(lambda i=i: game.submit(
            [ev.StatusChanged(handle=unit.handle, pinned=bool(i % 2))]))
            for i in range(repeat * 10)]
        game.close()
    return fmt(median(times))


# ---------------------------------------------------------------- processes
def _cli_command() -> list[str] | None:
    for module in ("tui.launcher", "cli", "core.cli", "stockade.cli"):
        if (ROOT / (module.replace(".", "/") + ".py")).exists():
            return [sys.executable, "-c",
                    f"import sys; sys.argv[0] = 'stockade'; from {module} import main; "
                    "raise SystemExit(main())"]
    return None


def bench_tally(repeat: int) -> str:
    cmd = _cli_command()
    if cmd is None:
        return "not measured: no CLI entry point (tui/launcher.py) in the tree yet"
    path = ensure_log(1000)
    times, textual = [], None
    for _ in range(repeat):
        times.append(timed(lambda: subprocess.run(cmd + ["tally", str(path)], cwd=ROOT,
                                                  capture_output=True)))
    proc = subprocess.run([cmd[0], "-X", "importtime"] + cmd[1:] + ["tally", str(path)],
                          cwd=ROOT, capture_output=True, text=True)
    textual = any(line.split("|")[-1].strip().startswith("textual")
                  for line in proc.stderr.splitlines() if line.startswith("import time"))
    bare = median([timed(lambda: subprocess.run([sys.executable, "-c", "pass"]))
                   for _ in range(repeat)])
    status = "exit 0" if proc.returncode == 0 else f"exit {proc.returncode}"
    return (f"`stockade tally` (1k-event log): median {fmt(median(times))} "
            f"(bare `python -c pass`: {fmt(bare)}); {status}; imports Textual: "
            f"{'YES (goal missed)' if textual else 'no (goal met)'}")


def bench_memory(n: int) -> str:
    path = ensure_log(n)
    code = (
        "import sys, gc; sys.path.insert(0, %r)\n"
        "from core.game import Game\n"
        "def rss():\n"
        "    for l in open('/proc/self/status'):\n"
        "        if l.startswith('VmRSS'): return int(l.split()[1]) * 1024\n"
        "before = rss(); g = Game.open(%r, read_only=True); gc.collect(); after = rss()\n"
        "print(before, after)\n") % (str(ROOT), str(path))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if out.returncode:
        return f"not measured: {out.stderr.strip()[-200:]}"
    before, after = map(int, out.stdout.split())
    size = path.stat().st_size
    return (f"{n:,}-event game ({size / 1e6:.1f} MB on disk): process RSS {after / 1e6:.0f} MB, "
            f"of which the open game {(after - before) / 1e6:.0f} MB = "
            f"{(after - before) / size:.1f}x the log's size")


def bench_tui(repeat: int) -> str:
    if not (ROOT / "tui" / "app.py").exists():
        return "not measured: tui/app.py does not exist yet (the TUI is another issue)"
    return "tui/app.py exists: TUI timing is not implemented in this run yet"


# -------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Stockade benchmarks")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeat", type=int, default=0)
    parser.add_argument("--json", type=Path, help="also write raw results here")
    args = parser.parse_args(argv)
    sizes = [1_000, 10_000] if args.quick else [1_000, 10_000, 100_000]
    depths = [100, 10_000] if args.quick else [100, 10_000, 100_000]
    repeat = args.repeat or (3 if args.quick else 7)
    m = machine()
    print(f"machine: {m['nproc']} CPUs, {m['cpu']}, Python {m['python']}, "
          f"msgspec {m['msgspec']}, {m['os']}\n")
    load_table, load_results = bench_load(sizes, repeat)
    print("## Load: read + decode + validate (+ fold into a Game)\n")
    print(load_table, "\n")
    depth_table, depth_results = bench_depth(depths, repeat * 3)
    print("## Undo, redo, strike, replay-step by game length (in memory, no fsync)\n")
    print(depth_table, "\n")
    print(f"One accepted entry on disk (rules + one write + fsync): median "
          f"{bench_append(repeat)}\n")
    print("## Processes\n")
    print("- " + bench_tally(repeat))
    print("- memory: " + bench_memory(sizes[-1]))
    print("- TUI: " + bench_tui(repeat))
    if args.json:
        args.json.write_text(json.dumps({"machine": m, "load": load_results,
                                         "depth": depth_results}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
