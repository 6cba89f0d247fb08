"""How long a headless ``stockade`` command takes as a whole process, against a bare
``python -c pass`` of the same interpreter, hyperfine-style: every command is run many
times, interleaved (a burst of load on a shared machine lands on all of them alike),
after warm-up runs that write the bytecode; the median of each and its ratio to the
bare interpreter are printed.

    python -m bench.cli_startup                  # 40 runs each
    python -m bench.cli_startup --runs 100 --json out.json
    python -m bench.cli_startup --base ../main   # also that checkout (its own .venv), interleaved
    python -m bench.cli_startup --tally-only     # python -c pass and the 1k tally rows only

Goals (docs/performance.md): ``stockade tally`` on a 1k-entry log answered from the
derived store <= 1.5x ``python -c pass``; a tally that folds <= 3x; ``stockade do`` on
a 10k-entry log <= 1.2x a tally that folds it.
The logs are the generated ones of bench/run.py (bench/out/, seed 7).

A tally repeated on an unchanged log is answered from the log's derived store after its
first run (core/log/derived.py, core/cli/stored_tally.py); the "folds" rows are the
first tally after a change: the store's tally entry is deleted before each of their
runs (untimed), so each folds (a 10k log still opens from its snapshot, as after a
change that only appends).

A ``do`` keeps the tally of what it wrote when the game has no conflicting entries. The
generated 10k log has one, so the ``do`` row writes into a copy with it struck (the
``do`` keeps, and the tally run right after it is answered from what it kept); the
"keeps nothing" row writes into a copy that still has it (the same write, nothing kept):
the two are the cost of keeping, interleaved.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):  # `python bench/cli_startup.py`
    sys.path.insert(0, str(ROOT))

from bench.run import ensure_log  # noqa: E402  (after the path fix above)
from stockade.core.log import derived  # noqa: E402


def stockade_script(python: str = sys.executable) -> list[str]:
    """The installed console script beside ``python``, as a player runs it; the
    launcher module itself when there is none (a tree that was never installed)."""
    script = Path(python).with_name("stockade")
    if script.is_file():
        return [str(script)]
    return [python, "-m", "stockade.tui.launcher"]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def forget_kept_tally(env: dict[str, str], log: str) -> None:
    """Delete the tally entry of ``log``'s derived store: its next tally folds (a 10k
    log still opens from its snapshot, the store's other entry)."""
    kept = derived.entry_path(env["STOCKADE_CACHE_DIR"], os.path.realpath(log), "tally")
    Path(kept).unlink(missing_ok=True)


def once(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of one run of ``command``."""
    if command[-1] == FOLDS:
        command = command[:-1]
        forget_kept_tally(env, command[-1])
    cpu, started = _children_cpu(), time.perf_counter()
    done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - started
    # 4: written, but the log still has entries that no longer hold (the conflict copy)
    if done.returncode not in (0, 4):
        raise SystemExit(f"{' '.join(command)}: exit {done.returncode}\n{done.stderr.decode()}")
    return elapsed, _children_cpu() - cpu


FOLDS = "<folds>"  # the last word of a command that must fold: see forget_kept_tally

# Strikes every entry of the log argv[1] that no longer holds, one at a time (a strike
# can change which later entries hold), with the core (no output, no snapshot kept by
# this process: STOCKADE_CACHE_DIR is the run's own).
STRIKE_CONFLICTS = """
import sys
from pathlib import Path
from stockade.core.book.game import Game
game = Game.open(Path(sys.argv[1]))
while game.conflicts:
    game.strike(min(game.conflicts), "bench: a log with no conflicts")
game.close()
"""


def measure(
    commands: dict[str, tuple[list[str], dict[str, str]]], runs: int
) -> dict[str, tuple[float, float]]:
    """Median wall and CPU time of each command (run in its own environment). On a
    shared machine the CPU time is the steadier of the two: waiting for a core does not
    count in it."""
    for command, env in commands.values():  # warm-up: bytecode written, files in the page cache
        once(command, env)
        once(command, env)
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, (command, env) in commands.items():
            times[name].append(once(command, env))
    return {
        name: (statistics.median(t[0] for t in ts), statistics.median(t[1] for t in ts))
        for name, ts in times.items()
    }


def tree_commands(
    python: str, tmp: Path, small: Path, big: Path, env: dict[str, str]
) -> dict[str, tuple[list[str], dict[str, str]]]:
    """The commands measured for the checkout whose interpreter is ``python``, each with
    the environment it runs in (the checkout's own config, data and cache folders under
    ``tmp``: two checkouts never share a derived store)."""
    env = dict(env)
    for name in ("CONFIG", "DATA", "CACHE"):
        env[f"STOCKADE_{name}_DIR"] = str(tmp / name.lower())
    stockade = stockade_script(python)
    # `do` writes: each run records 'next' into its own copy of the 10k log; the
    # copy grows by one entry a run, which is noise next to 10,000.
    target, plain = tmp / "do.jsonl", tmp / "do-conflict.jsonl"
    shutil.copyfile(big, target)
    shutil.copyfile(big, plain)
    subprocess.run([python, "-c", STRIKE_CONFLICTS, str(target)], env=env, check=True)
    return {
        "python -c pass": ([python, "-c", "pass"], env),
        "stockade --version": ([*stockade, "--version"], env),
        "stockade tally (1k)": ([*stockade, "tally", str(small)], env),
        "stockade tally (1k, folds)": ([*stockade, "tally", str(small), FOLDS], env),
        "stockade tally (10k)": ([*stockade, "tally", str(big)], env),
        "stockade tally (10k, folds)": ([*stockade, "tally", str(big), FOLDS], env),
        "stockade do next (10k)": ([*stockade, "do", str(target), "next"], env),
        "stockade tally (10k, after do)": ([*stockade, "tally", str(target)], env),
        "stockade do next (10k, keeps nothing)": ([*stockade, "do", str(plain), "next"], env),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--json", type=Path, help="also write the medians here")
    parser.add_argument(
        "--base",
        type=Path,
        help="another checkout (with its own .venv) measured in the same rounds: its rows "
        "are marked 'base'",
    )
    parser.add_argument(
        "--tally-only",
        action="store_true",
        help="only `python -c pass` and the 1k tally rows (from the store, folding): the "
        "start goals, in a few minutes on a busy machine",
    )
    args = parser.parse_args(argv)
    small, big = ensure_log(1_000), ensure_log(10_000)
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": ""}
        env.pop("PYTHONDONTWRITEBYTECODE")  # bytecode on, as an installed program runs
        (Path(tmp) / "this").mkdir()
        trees = {"": tree_commands(sys.executable, Path(tmp) / "this", small, big, env)}
        if args.base:
            (Path(tmp) / "base").mkdir()
            python = str(args.base.resolve() / ".venv" / "bin" / "python")
            trees["base "] = tree_commands(python, Path(tmp) / "base", small, big, env)
        if args.tally_only:
            trees = {
                mark: {name: c for name, c in rows.items() if name in TALLY_ONLY}
                for mark, rows in trees.items()
            }
        commands = {
            f"{mark}{name}": command
            for mark, rows in trees.items()
            for name, command in rows.items()
        }
        everything = measure(commands, args.runs)
    load = os.getloadavg()[0]
    print(
        f"{args.runs} interleaved runs each, medians; bytecode on; {os.cpu_count()} CPUs; "
        f"load average {load:.1f} at the end\n"
    )
    for mark, rows in trees.items():
        title = mark.strip() or "this checkout"
        report({name: everything[f"{mark}{name}"] for name in rows}, title)
    if args.json:
        args.json.write_text(json.dumps({"runs": args.runs, "medians": everything}, indent=1))
    return 0


TALLY_ONLY = ("python -c pass", "stockade tally (1k)", "stockade tally (1k, folds)")


def report(medians: dict[str, tuple[float, float]], title: str) -> None:
    """The table of one checkout's medians against its own ``python -c pass``, and the
    ratios of the goals."""
    print(f"\n{title}:\n")
    bare_wall, bare_cpu = medians["python -c pass"]
    print("| command | wall | / python -c pass | CPU | / python -c pass |")
    print("|---|---:|---:|---:|---:|")
    for name, (wall, cpu) in medians.items():
        print(
            f"| `{name}` | {wall * 1000:.1f} ms | {wall / bare_wall:.2f}x "
            f"| {cpu * 1000:.1f} ms | {cpu / bare_cpu:.2f}x |"
        )
    for what, ratio in (
        (
            "tally 1k / python -c pass (goal <= 1.5x)",
            lambda i: medians["stockade tally (1k)"][i] / medians["python -c pass"][i],
        ),
        (
            "tally 1k, folds / python -c pass (goal <= 3x)",
            lambda i: medians["stockade tally (1k, folds)"][i] / medians["python -c pass"][i],
        ),
        (
            "do 10k / tally 10k, from the store",
            lambda i: medians["stockade do next (10k)"][i] / medians["stockade tally (10k)"][i],
        ),
        (
            "do 10k / tally 10k, folds (goal <= 1.2x)",
            lambda i: (
                medians["stockade do next (10k)"][i] / medians["stockade tally (10k, folds)"][i]
            ),
        ),
        (
            "do 10k / do 10k, keeps nothing (the cost of keeping)",
            lambda i: (
                medians["stockade do next (10k)"][i]
                / medians["stockade do next (10k, keeps nothing)"][i]
            ),
        ),
    ):
        with contextlib.suppress(KeyError):  # --tally-only: a row not measured
            print(f"\n{what}: wall {ratio(0):.2f}x, CPU {ratio(1):.2f}x", end="")
    print()


if __name__ == "__main__":
    raise SystemExit(main())
