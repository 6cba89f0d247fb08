"""Stockade benchmarks: medians and ratios, measured side by side in one run.

    python -m bench.run                 # everything (generates missing logs first)
    python -m bench.run --quick         # 1k/10k only, fewer repeats

Generated logs are cached in bench/out/ (``bench/generate.py``, seed 7). Results are
recorded in docs/performance.md. Goals:

* load + validate + fold <= 3x a raw msgspec ``decode_lines`` of the same file;
* undo / redo / strike / replay-step at depth 100k <= 2x depth 100 (flat);
* headless ``stockade tally`` never imports Textual;
* TUI cold start to first paint <= 1.2x a bare Textual app with a Header and Footer;
* TUI undo of one event with the panels updated <= 1.5x one bare DataTable cell update
  (CPU time of action + ``await pilot.pause()``; wall time is shown too but is
  quantised by Textual's ``wait_for_idle``, which sleeps in 20 ms steps).
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import cast

import msgspec

from stockade.core.book.game import Game
from stockade.core.log.game_log import load
from stockade.core.model import events as ev

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):  # `python bench/run.py`: `bench.generate` lives in ROOT
    sys.path.insert(0, str(ROOT))

OUT = ROOT / "bench" / "out"
SEED = 7


# --------------------------------------------------------------------- helpers
def log_path(events: int) -> Path:
    """Where the generated log of ``events`` records is kept, named by the generator's
    own source: a changed generator makes a new log, never reads one an older made."""
    made_by = hashlib.blake2b((ROOT / "bench" / "generate.py").read_bytes(), digest_size=4)
    return OUT / f"game-{events}-s{SEED}-{made_by.hexdigest()}.jsonl"


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
        print(f"  generated {path.name} in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return path


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def timed_nogc(fn) -> float:
    """``fn``'s time with the cyclic GC paused, its result freed after the clock
    stops (freeing 100k records or a whole game is not part of making them)."""
    gc.disable()
    try:
        start = time.perf_counter()
        result = fn()
        elapsed = time.perf_counter() - start
    finally:
        gc.enable()
    del result
    return elapsed


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
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "python": platform.python_version(),
        "msgspec": msgspec.__version__,
        "os": platform.platform(),
    }


def table(headers: list[str], rows: list[list[str]]) -> str:
    out = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(out)


# ------------------------------------------------------------------- load
def bench_load(sizes: list[int], repeat: int) -> tuple[str, dict]:
    """Raw decode vs load+validate vs ``Game.open`` folding the whole log ("cold": no
    snapshot cache) vs ``Game.open`` from a verified snapshot ("warm": folds the last
    ``snapcache.TAIL`` events; a snapshot is only made for games of at least
    ``snapcache.MIN_EVENTS`` events, so at 1k warm = cold)."""
    from stockade.core.log import snapcache

    decoder = msgspec.json.Decoder(ev.AnyRecord)
    rows, results = [], {}
    cache = OUT / "snapshot-cache"
    os.environ["STOCKADE_CACHE_DIR"] = str(cache)
    for n in sizes:
        path = ensure_log(n)
        Game.open(path, read_only=True).close()  # make (or refresh) its snapshot
        raw, val, cold, warm = [], [], [], []
        for _ in range(repeat):  # interleaved: all see the same machine state
            # All four with the cyclic GC paused, as Game.open pauses it (each full
            # collection walks every object made so far: it would slow the raw decode
            # of 100k records by ~1.5x and flatter the ratios).
            gc.collect()
            raw.append(timed_nogc(lambda path=path: decoder.decode_lines(path.read_bytes())))
            gc.collect()
            val.append(timed_nogc(lambda path=path: load(path)))
            gc.collect()
            snapcache.ENABLED = False
            try:
                cold.append(timed_nogc(lambda path=path: Game.open(path, read_only=True)))
            finally:
                snapcache.ENABLED = True
            gc.collect()
            warm.append(timed_nogc(lambda path=path: Game.open(path, read_only=True)))
        r, v, c, w = median(raw), median(val), median(cold), median(warm)
        results[n] = {"raw": r, "load": v, "fold": c, "warm": w}
        rows.append(
            [
                f"{n:,}",
                f"{path.stat().st_size / 1e6:.1f} MB",
                fmt(r),
                fmt(v),
                f"{v / r:.2f}x",
                fmt(c),
                f"{c / r:.1f}x",
                fmt(w),
                f"{w / r:.1f}x",
                "met" if w / r <= 3 else f"missed ({w / r / 3:.1f}x over)",
            ]
        )
    head = [
        "events",
        "file",
        "raw decode_lines",
        "load+validate",
        "ratio",
        "open, fold all (cold)",
        "ratio",
        "open from snapshot (warm)",
        "ratio",
        "goal <= 3x (warm)",
    ]
    return table(head, rows), results


# ---------------------------------------------------------------- depth ops
def _game_of(n: int) -> Game:
    return Game.load(load(ensure_log(n)).records)  # in memory: no fsync in the figures


SAME_TAIL = 64


def add_same_tail(game: Game) -> None:
    """Append the same 64 entries to every game (a new squad entering, then moves,
    pins and no-op phase entries), so that the depth ops below act on identical
    entries at every depth: the generated logs end differently (at 100k the last
    group is a Casualty Reduction, at 100 a phase change), which would otherwise be
    measured as a depth effect."""
    state = game.state
    side, turn, phase = state.attacker, state.turn, state.phase
    game.submit(
        [
            ev.UnitEntered(
                handle="zbench", side=side, unit_kind="squad", counter="4-6-7", location="ZZ1"
            )
        ]
    )
    for i in range(SAME_TAIL - 1):
        if i % 3 == 0:
            game.submit([ev.PhaseSet(turn=turn, attacker=side, phase=cast(ev.Phase, phase))])
        elif i % 3 == 1:
            game.submit([ev.StatusChanged(handle="zbench", location=f"ZZ{i}")])
        else:
            game.submit([ev.StatusChanged(handle="zbench", pinned=bool(i % 2))])


def _rounds(games: dict[int, Game], repeat: int, times: dict) -> None:
    """Rounds interleaved across the depths (each round: one op of a kind at every
    depth, so machine-load drift hits all depths alike); undo+redo pairs, then
    strike+unstrike pairs, then replay steps, each kind in its own rounds (a replay
    step at 100k copies the unit table, which evicts the CPU caches and would add
    ~10-20 µs of misses to whatever op ran right after it)."""
    for _ in range(repeat):
        for n, game in games.items():
            times[n]["undo"].append(timed(game.undo))
            times[n]["redo"].append(timed(game.redo))
    for _ in range(repeat):
        for n, game in games.items():
            target = next(
                r.seq
                for r in reversed(game.effective)
                if isinstance(r, (ev.StatusChanged, ev.PhaseSet))
            )
            times[n]["strike"].append(timed(lambda g=game, t=target: g.strike(t, "bench")))
            times[n]["unstrike"].append(timed(lambda g=game, t=target: g.unstrike(t)))
    for i in range(repeat):
        for n, game in games.items():
            # one replay step: the state just before the latest few entries
            seq = game.effective[-1 - (i * 7) % min(50, len(game.effective) - 1)].seq
            times[n]["replay-step"].append(timed(lambda g=game, s=seq: g.state_at(s)))


def bench_depth(depths: list[int], repeat: int) -> tuple[str, dict]:
    """Each op at each depth twice: on the log as generated (its own last entries) and
    after ``add_same_tail`` (identical entries at every depth: the fair comparison)."""
    ops = ["undo", "redo", "strike", "unstrike", "replay-step"]
    games = {n: _game_of(n) for n in depths}
    results: dict[str, dict[int, dict[str, float]]] = {}
    for tail in ("natural", "same"):
        if tail == "same":
            for game in games.values():
                add_same_tail(game)
        times: dict[int, dict[str, list[float]]] = {n: {op: [] for op in ops} for n in depths}
        _rounds(games, repeat, times)
        results[tail] = {n: {op: median(v) for op, v in times[n].items()} for n in depths}
        for n in depths:
            results[tail][n]["units"] = len(games[n].state.units)
    base = depths[0]
    rows = []
    for op in ops:
        for tail in ("same", "natural"):
            res = results[tail]
            row = [op + (" (same last entries)" if tail == "same" else " (log as generated)")]
            row += [fmt(res[n][op]) for n in depths]
            ratio = res[depths[-1]][op] / res[base][op]
            row += [f"{ratio:.1f}x", "met" if ratio <= 2 else f"missed ({ratio / 2:.1f}x over)"]
            rows.append(row)
    rows.append(
        ["(units in state)"] + [f"{results['natural'][n]['units']:,}" for n in depths] + ["", ""]
    )
    head = ["op"] + [f"depth {n:,}" for n in depths] + [f"{depths[-1]:,} / {base:,}", "goal <= 2x"]
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
        times = [
            timed(
                lambda i=i: game.submit([ev.StatusChanged(handle=unit.handle, pinned=bool(i % 2))])
            )
            for i in range(repeat * 10)
        ]
        game.close()
    return fmt(median(times))


# ---------------------------------------------------------------- processes
def _cli_command() -> list[str] | None:
    return [
        sys.executable,
        "-c",
        "import sys; sys.argv[0] = 'stockade'; from stockade.tui.launcher import main; "
        "raise SystemExit(main())",
    ]


def bench_tally(repeat: int) -> str:
    cmd = _cli_command()
    if cmd is None:
        return "not measured: no CLI entry point (tui/launcher.py) in the tree yet"
    path = ensure_log(1000)
    times, textual = [], None
    for _ in range(repeat):
        times.append(
            timed(lambda: subprocess.run(cmd + ["tally", str(path)], cwd=ROOT, capture_output=True))
        )
    proc = subprocess.run(
        [cmd[0], "-X", "importtime"] + cmd[1:] + ["tally", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    textual = any(
        line.split("|")[-1].strip().startswith("textual")
        for line in proc.stderr.splitlines()
        if line.startswith("import time")
    )
    bare = median(
        [timed(lambda: subprocess.run([sys.executable, "-c", "pass"])) for _ in range(repeat)]
    )
    status = "exit 0" if proc.returncode == 0 else f"exit {proc.returncode}"
    return (
        f"`stockade tally` (1k-event log): median {fmt(median(times))} "
        f"(bare `python -c pass`: {fmt(bare)}); {status}; imports Textual: "
        f"{'YES (goal missed)' if textual else 'no (goal met)'}"
    )


def bench_memory(n: int) -> str:
    path = ensure_log(n)
    code = (
        f"import sys, gc; sys.path.insert(0, {str(ROOT)!r})\n"
        "from stockade.core.book.game import Game\n"
        "def rss():\n"
        "    for line in open('/proc/self/status'):\n"
        "        if line.startswith('VmRSS'): return int(line.split()[1]) * 1024\n"
        f"before = rss(); g = Game.open({str(path)!r}, read_only=True); gc.collect()\n"
        "after = rss()\n"
        "print(before, after)\n"
    )
    # cold: the whole log folded (every event has its undo entry): the worst case
    env = dict(os.environ, STOCKADE_CACHE_DIR="off")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    if out.returncode:
        return f"not measured: {out.stderr.strip()[-200:]}"
    before, after = map(int, out.stdout.split())
    size = path.stat().st_size
    return (
        f"{n:,}-event game ({size / 1e6:.1f} MB on disk): process RSS {after / 1e6:.0f} MB, "
        f"of which the open game {(after - before) / 1e6:.0f} MB = "
        f"{(after - before) / size:.1f}x the log's size"
    )


# ------------------------------------------------------------------------ TUI
# Both TUI figures run in fresh subprocesses: the cold start so that interpreter start
# and every import count for both apps; the undo so that the big games the other
# sections hold in this process do not tax it (GC). Each child prints one JSON line.

_COLD_PRELUDE = """\
import time
t_import = time.perf_counter()
import asyncio, json, os, sys
sys.path.insert(0, {root!r})
"""

# The first paint is taken where each app's first screen has been refreshed (Textual's
# ``call_after_refresh``): for Stockade, the frame it paints while the game is read
# (the frame calls ``start_reading`` then); for the bare app, its Header and Footer.
# Stockade's panels are filled when the main screen has replaced the frame and been
# refreshed in its turn.
_COLD_STOCKADE = (
    _COLD_PRELUDE
    + """\
from pathlib import Path
import stockade.tui.app as app_module

def clocks():
    return time.perf_counter() - t_import, time.process_time()

async def main():
    # as the launcher makes it (``launched``), in a tree that has it
    app = getattr(app_module, "launched", app_module.StockadeApp)(Path({path!r}))
    marks = {{}}
    start_reading = app.start_reading

    def painted():
        marks["painted"], marks["cpu"] = clocks()
        start_reading()

    app.start_reading = painted
    async with app.run_test(size=(120, 40)) as pilot:
        while type(app.screen).__name__ != "MainScreen":
            await asyncio.sleep(0.001)
        await app.screen.wait_for_refresh()
        marks["filled"], marks["filled_cpu"] = clocks()
        print(json.dumps(marks), flush=True)
    app.game.close()

asyncio.run(main())
"""
)

_COLD_BARE = (
    _COLD_PRELUDE
    + """\
from textual.app import App
from textual.widgets import Footer, Header

marks = {{}}

class Bare(App):
    def compose(self):
        yield Header()
        yield Footer()

    def on_mount(self):
        self.call_after_refresh(self.painted)

    def painted(self):
        marks["painted"], marks["cpu"] = time.perf_counter() - t_import, time.process_time()

async def main():
    app = Bare()
    async with app.run_test(size=(120, 40)) as pilot:
        while not marks:
            await asyncio.sleep(0.001)
        print(json.dumps(marks), flush=True)

asyncio.run(main())
"""
)


def _tui_env(tmp: Path) -> dict:
    env = dict(os.environ)
    env["STOCKADE_CONFIG_DIR"] = str(tmp / "config")
    env["STOCKADE_DATA_DIR"] = str(tmp / "data")
    env["STOCKADE_CACHE_DIR"] = str(tmp / "cache")  # snapshots of the temp copies
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # bytecode on, as an installed program runs
    return env


def _cold_once(code: str, env: dict, tree: Path = ROOT) -> dict:
    """Wall time from spawn to the child's "painted" line, plus the child's own clocks.
    ``tree`` is the checkout run (another one runs with its own .venv)."""
    start = time.perf_counter()
    python = sys.executable if tree == ROOT else str(tree / ".venv" / "bin" / "python")
    proc = subprocess.Popen(
        [python, "-c", code],
        cwd=tree,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None  # stdout=PIPE
    line = proc.stdout.readline()
    spawn = time.perf_counter() - start
    rest, err = proc.communicate()
    if proc.returncode or not line.strip():
        raise RuntimeError(f"TUI child failed ({proc.returncode}): {err.strip()[-400:]}")
    out = json.loads(line)
    # the line comes once the panels are filled: the spawn to the first paint is less
    # the child's own time from the paint to the line
    out["spawn"] = spawn - (out.get("filled", out["painted"]) - out["painted"])
    return out


def _undo_child(path: str, repeat: int) -> None:
    """Child: undo one event with the panels updated vs one bare DataTable cell update.

    Prints JSON: per-repeat wall and CPU times of (action + ``await pilot.pause()``),
    plus the cost of a bare ``pilot.pause()`` with nothing to do (Textual's
    ``wait_for_idle`` sleeps in 20 ms steps, so wall times are quantised by it).
    """
    import asyncio

    from textual.app import App
    from textual.widgets import DataTable

    from stockade.core.book.game import Game
    from stockade.core.commands import execute
    from stockade.tui.app import StockadeApp
    from stockade.tui.screens.main import MainScreen
    from stockade.tui.widgets.history_view import HistoryView

    def clocks():
        return time.perf_counter(), time.process_time()

    def since(t):
        w, c = clocks()
        return w - t[0], c - t[1]

    async def stockade() -> dict:
        game = Game.open(Path(path))
        app = StockadeApp(game, remember=False)
        wall, cpu, sync_, idle_w, idle_c = [], [], [], [], []
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            # The history's never-folded entries are worded by a worker: let it finish
            # (it rewrites their lines) before undos whose rewrites are counted.
            await app.workers.wait_for_complete()
            await pilot.pause()
            main = app.screen
            assert isinstance(main, MainScreen)
            history = main.query_one(HistoryView)
            side = next(iter(game.state.sides))
            for i in range(repeat + 1):  # the first round is a warm-up
                outcome = execute(game, f"add {side} 4-6-7 as zz{i} at Q4")
                app.game_changed("bench", outcome.change)
                await pilot.pause()
                before = history.rebuilds
                count = history.line_count
                t = clocks()
                main.action_undo()
                s = time.perf_counter() - t[0]
                await pilot.pause()
                w, c = since(t)
                assert f"zz{i}" not in game.state.units, "undo did not happen"
                # the undone entry's line stays (marked undone); the undo gets its own line
                assert history.line_count == count + 1 and history.rebuilds == before + 1
                t = clocks()
                await pilot.pause()
                iw, ic = since(t)
                if i:
                    wall.append(w)
                    cpu.append(c)
                    sync_.append(s)
                    idle_w.append(iw)
                    idle_c.append(ic)
        events = len(game.records)
        game.close()
        return {
            "wall": wall,
            "cpu": cpu,
            "sync": sync_,
            "idle_wall": idle_w,
            "idle_cpu": idle_c,
            "events": events,
        }

    class Bare(App):
        def compose(self):
            yield DataTable()

        def on_mount(self):
            table = self.query_one(DataTable)
            table.add_columns("seq", "unit", "status", "where", "note")
            for r in range(40):
                table.add_row(str(r), f"u{r}", "ok", "Q4", "-", key=str(r))

    async def bare() -> dict:
        app = Bare()
        wall, cpu, sync_ = [], [], []
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            table = app.query_one(DataTable)
            column = list(table.columns)[2]
            for i in range(repeat + 1):
                t = clocks()
                table.update_cell(str(i % 40), column, f"undone {i}")
                s = time.perf_counter() - t[0]
                await pilot.pause()
                w, c = since(t)
                if i:
                    wall.append(w)
                    cpu.append(c)
                    sync_.append(s)
        return {"wall": wall, "cpu": cpu, "sync": sync_}

    async def both() -> dict:
        a = await stockade()
        b = await bare()
        return {"stockade": a, "bare": b}

    print(json.dumps(asyncio.run(both())), flush=True)


def _undo_measure(path: Path, repeat: int, env: dict) -> dict:
    code = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r}); "
        f"from bench.run import _undo_child; _undo_child({str(path)!r}, {repeat})"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if proc.returncode:
        raise RuntimeError(f"undo child failed: {proc.stderr.strip()[-600:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _verdict(ratio: float, goal: float) -> str:
    return "met" if ratio <= goal else f"missed ({ratio / goal:.2f}x over)"


def bench_tui(
    repeat: int, extra_sizes: list[int] | None = None, base: Path | None = None
) -> tuple[str, dict]:
    """Cold start vs bare Header+Footer app; undo with panels vs one DataTable cell.
    ``base``: another checkout (its own .venv) whose cold start is measured in the same
    rounds, on the same copy of the demo game."""
    if not (ROOT / "tui" / "app.py").exists():
        return "not measured: tui/app.py does not exist yet", {}
    import shutil
    import tempfile

    results: dict = {}
    rows = []
    with tempfile.TemporaryDirectory(dir=OUT) as tmp_name:
        tmp = Path(tmp_name)
        env = _tui_env(tmp)
        game_path = tmp / "demo.jsonl"
        shutil.copyfile(ROOT / "sample_games" / "demo.jsonl", game_path)

        # (a) cold start to first paint, interleaved
        cold: dict[str, list[dict[str, float]]] = {"stockade": [], "bare": []}
        stock_code = _COLD_STOCKADE.format(root=str(ROOT), path=str(game_path))
        bare_code = _COLD_BARE.format(root=str(ROOT))
        base_code = ""
        if base is not None:
            base = base.resolve()
            base_code = _COLD_STOCKADE.format(root=str(base), path=str(game_path))
            cold["base"] = []
            _cold_once(base_code, env, base)
        _cold_once(stock_code, env), _cold_once(bare_code, env)  # warm the page cache
        runs = {"stockade": (stock_code, ROOT), "bare": (bare_code, ROOT)}
        if base is not None:
            runs["base"] = (base_code, base)
        order = list(runs)
        for i in range(repeat):
            # each build in each place of the round in turn, so no build is always
            # the one run first (right after the round before) or last
            for who in order[i % len(order) :] + order[: i % len(order)]:
                code, tree = runs[who]
                cold[who].append(_cold_once(code, env, tree))
        med = {
            k: {m: median([r[m] for r in v]) for m in v[0] if isinstance(v[0][m], float)}
            for k, v in cold.items()
        }
        results["cold"] = med
        for metric, label in (
            ("spawn", "wall, process spawn → first paint"),
            ("painted", "wall, before imports → first paint"),
            ("cpu", "CPU of the process up to first paint"),
        ):
            b = med["bare"][metric]
            for who in [k for k in cold if k != "bare"]:
                s = med[who][metric]
                mark = " [base]" if who == "base" else ""
                rows.append(
                    [
                        f"cold start ({label}){mark}",
                        fmt(s),
                        fmt(b),
                        f"{s / b:.2f}x",
                        _verdict(s / b, 1.2),
                    ]
                )
        # the panels filled after the first paint: the same run's own differences
        for metric, since, label in (
            ("filled_cpu", "cpu", "CPU"),
            ("filled", "painted", "wall"),
        ):
            for who in [k for k in cold if k != "bare"]:
                gaps = [r[metric] - r[since] for r in cold[who]]
                gap = median(gaps)
                verdict = "met" if gap <= 0.100 else f"missed (+{gap * 1000:.0f} ms)"
                mark = " [base]" if who == "base" else ""
                rows.append(
                    [
                        f"demo's panels filled after the first paint ({label}){mark}",
                        f"+{fmt(gap)}",
                        "",
                        "",
                        verdict,
                    ]
                )

        # (b) undo with panels updated vs one DataTable cell update
        games = [("demo", game_path)]
        for n in extra_sizes or []:
            copy = tmp / f"game-{n}.jsonl"
            shutil.copyfile(ensure_log(n), copy)
            games.append((f"{n:,}-event", copy))
        for name, path in games:
            reps = repeat * 3 if name == "demo" else repeat
            raw = _undo_measure(path, reps, env)
            st, ba = raw["stockade"], raw["bare"]
            m = {
                "stockade": {
                    k: median(st[k]) for k in ("wall", "cpu", "sync", "idle_wall", "idle_cpu")
                },
                "bare": {k: median(ba[k]) for k in ("wall", "cpu", "sync")},
                "events": st["events"],
            }
            results[f"undo-{name}"] = m
            label = f"undo + panels, {name} game ({st['events']:,} records)"
            for metric, what in (
                ("cpu", "CPU of action + pause"),
                ("wall", "wall of action + pause"),
                ("sync", "wall of the action call alone"),
            ):
                s, b = m["stockade"][metric], m["bare"][metric]
                goal = _verdict(s / b, 1.5) if metric == "cpu" else "(info)"
                rows.append([f"{label}: {what}", fmt(s), fmt(b), f"{s / b:.2f}x", goal])
        idle = results["undo-demo"]["stockade"]
        pause_note = (
            f"`await pilot.pause()` with nothing to do: wall "
            f"{fmt(idle['idle_wall'])}, CPU {fmt(idle['idle_cpu'])}"
        )
    head = ["measure", "Stockade", "bare Textual", "ratio", "goal"]
    return table(head, rows) + "\n\n" + pause_note, results


# -------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Stockade benchmarks")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeat", type=int, default=0)
    parser.add_argument("--json", type=Path, help="also write raw results here")
    parser.add_argument("--tui-only", action="store_true", help="only the TUI figures")
    parser.add_argument(
        "--tui-big",
        type=int,
        default=0,
        metavar="EVENTS",
        help="also time TUI undo on the generated log of EVENTS events",
    )
    parser.add_argument(
        "--base",
        type=Path,
        help="another checkout (with its own .venv): its TUI cold start is measured in the "
        "same rounds (rows marked [base])",
    )
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)  # a fresh clone has no bench/out yet
    sizes = [1_000, 10_000] if args.quick else [1_000, 10_000, 100_000]
    depths = [100, 10_000] if args.quick else [100, 10_000, 100_000]
    repeat = args.repeat or (3 if args.quick else 7)
    m = machine()
    print(
        f"machine: {m['nproc']} CPUs, {m['cpu']}, Python {m['python']}, "
        f"msgspec {m['msgspec']}, {m['os']}\n"
    )
    if args.tui_only:
        tui_table, _ = bench_tui(repeat, [args.tui_big] if args.tui_big else [], args.base)
        print("## TUI (headless `App.run_test()`, 120x40; medians)\n")
        print(tui_table)
        return 0
    load_table, load_results = bench_load(sizes, repeat)
    print("## Load: read + decode + validate (+ fold into a Game)\n")
    print(load_table, "\n")
    depth_table, depth_results = bench_depth(depths, repeat * 9)
    print("## Undo, redo, strike, replay-step by game length (in memory, no fsync)\n")
    print(depth_table, "\n")
    print(
        f"One accepted entry on disk (rules + one write + fsync): median {bench_append(repeat)}\n"
    )
    print("## Processes\n")
    print("- " + bench_tally(repeat))
    print("- memory: " + bench_memory(sizes[-1]))
    print()
    tui_table, tui_results = bench_tui(repeat, [args.tui_big] if args.tui_big else [])
    print("## TUI (headless `App.run_test()`, 120x40; medians)\n")
    print(tui_table, "\n")
    if args.json:
        args.json.write_text(
            json.dumps(
                {"machine": m, "load": load_results, "depth": depth_results, "tui": tui_results},
                indent=1,
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
