"""The TUI's first paint and fill counted in instructions (callgrind), thread by thread.

One process per run, the demo at 120x40, started as the launcher starts the app and
marked where ``bench.run --tui-only`` takes its clocks: the frame painted, the read's
end (the main thread, as the read's result arrives), the main screen current and
refreshed once. Callgrind dumps its counters at each mark (``--dump-before`` a libc call
nothing else in the app makes) and counts each thread apart, so the fill is the read
thread plus the main thread from the read's end to the panels filled (the frame's own
clock and the harness's polling while valgrind runs the read for minutes are left out).

    python -m bench.fill_instructions [--tree CHECKOUT] [--repeat 3]

``--tree``: another checkout with its own .venv (e.g. today's main). Slow: a run takes
1-2 minutes of CPU under valgrind.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = """\
import asyncio, os, sys
from pathlib import Path
import stockade.tui.app as app_module

def mark():
    os.getpriority(os.PRIO_PROCESS, 0)  # callgrind dumps before this call

async def main():
    app = getattr(app_module, "launched", app_module.StockadeApp)(Path(sys.argv[1]))
    start_reading, show = app.start_reading, app._show_read_game

    def painted():
        mark()
        start_reading()

    async def shown(game):
        mark()  # the read is done: from here the main thread mounts and renders
        await show(game)

    app.start_reading, app._show_read_game = painted, shown
    async with app.run_test(size=(120, 40)):
        while type(app.screen).__name__ != "MainScreen":
            await asyncio.sleep(0.001)
        await app.screen.wait_for_refresh()
        mark()
        os._exit(0)

asyncio.run(main())
"""


def summaries(out: Path) -> dict[str, int]:
    """Each dump file's instruction count, by its suffix (``.PART-THREAD``)."""
    counts = {}
    for path in out.glob("cg.*"):
        found = re.search(r"^summary: (\d+)", path.read_text(errors="replace"), re.M)
        if found:
            counts[path.name.split(".", 1)[1]] = int(found.group(1))
    return counts


def figures(counts: dict[str, int]) -> dict[str, int]:
    """First paint (main thread to the frame painted), the read thread, the main
    thread's mount and render (read's end to filled), and the fill (the last two)."""
    pid = max(k.split(".")[0].split("-")[0] for k in counts if ".1-01" in k)
    read = sum(v for k, v in counts.items() if k.startswith(pid) and k.endswith("-02"))
    mount = counts[f"{pid}.3-01"]
    return {
        "first_paint": counts[f"{pid}.1-01"],
        "read_thread": read,
        "mount_render": mount,
        "fill": read + mount,
    }


def run_once(tree: Path) -> dict[str, int]:
    with tempfile.TemporaryDirectory() as tmp_dir:
        tmp = Path(tmp_dir)
        game = tmp / "demo.jsonl"
        shutil.copyfile(tree / "sample_games" / "demo.jsonl", game)
        (tmp / "child.py").write_text(CHILD)
        env = dict(os.environ)
        for what in ("CONFIG", "DATA", "CACHE"):
            env[f"STOCKADE_{what}_DIR"] = str(tmp / what.lower())
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        out = tmp / "out"
        out.mkdir()
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--separate-threads=yes",
                "--dump-before=getpriority",
                f"--callgrind-out-file={out}/cg.%p",
                str(tree / ".venv" / "bin" / "python"),
                str(tmp / "child.py"),
                str(game),
            ],
            cwd=tmp,
            env=env,
            check=True,
            capture_output=True,
        )
        return figures(summaries(out))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=ROOT)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    for _ in range(args.repeat):
        got = run_once(args.tree.resolve())
        print("  ".join(f"{name} {count / 1e6:,.1f} M" for name, count in got.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
