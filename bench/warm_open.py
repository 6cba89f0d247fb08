"""An open from the snapshot against a raw msgspec decode of the same log, this build
and another checkout interleaved (each with its own ``.venv`` and snapshot cache).

    python -m bench.warm_open LOG --base /work/wt/base            # CPU, interleaved pairs
    python -m bench.warm_open LOG --step open|import|raw          # one step, for callgrind

CPU: each pair runs one child per build, each child ``--rounds`` rounds of a raw
``decode_lines`` of the log's bytes and a warm ``Game.open`` (read only, the cyclic GC
paused for both as the open pauses it), and gives the median CPU time of each and
their ratio. ``--step``: the process does that step once after the imports (``import``:
nothing), so that ``valgrind --tool=callgrind`` of ``open`` less ``import`` counts one
warm open with its once-a-process costs (code fingerprint, rows check); the process
ends without freeing what it made (``WARM_OPEN_TEARDOWN=1``: it frees it, and that is
counted too).
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def _prepare(log: Path) -> None:
    """Make (or refresh) the log's snapshot in this build's cache."""
    from stockade.core.book.game import Game

    Game.open(log, read_only=True).close()


def _step(log: Path, step: str) -> None:
    import msgspec

    from stockade.core.book.game import Game
    from stockade.core.model import events as ev

    decoder = msgspec.json.Decoder(ev.AnyRecord)
    gc.disable()
    kept: object = None
    if step == "open":
        game = Game.open(log, read_only=True)
        assert game.projection.restored
        kept = game
    elif step == "raw":
        kept = decoder.decode_lines(log.read_bytes())
    sys.stdout.flush()
    if os.environ.get("WARM_OPEN_TEARDOWN"):  # the process frees what it made, as it exits
        return
    os._exit(0 if kept is not None or step == "import" else 1)  # no teardown counted


def _rounds(log: Path, rounds: int) -> None:
    import msgspec

    from stockade.core.book.game import Game
    from stockade.core.model import events as ev

    decoder = msgspec.json.Decoder(ev.AnyRecord)
    Game.open(log, read_only=True)  # once a process: fingerprint, rows check
    raw, warm = [], []
    for _ in range(rounds):
        gc.collect()
        gc.disable()
        t = time.process_time()
        decoder.decode_lines(log.read_bytes())
        raw.append(time.process_time() - t)
        gc.enable()
        gc.collect()
        gc.disable()
        t = time.process_time()
        game = Game.open(log, read_only=True)
        warm.append(time.process_time() - t)
        assert game.projection.restored
        del game
        gc.enable()
    r, w = statistics.median(raw), statistics.median(warm)
    print(f"{r * 1e3:.2f} {w * 1e3:.2f}")


def _child(python: Path, log: Path, cache: Path, args: list[str]) -> str:
    env = dict(os.environ, STOCKADE_CACHE_DIR=str(cache), PYTHONHASHSEED="0")
    done = subprocess.run(
        [str(python), __file__, str(log), *args],  # its own build's stockade
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("log", type=Path)
    parser.add_argument("--base", type=Path, help="a checkout with its .venv")
    parser.add_argument("--step", choices=["open", "import", "raw", "prepare"])
    parser.add_argument("--rounds-in-child", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--pairs", type=int, default=3)
    args = parser.parse_args(argv)
    log = args.log.resolve()
    if args.step == "prepare":
        _prepare(log)
        return 0
    if args.step:
        _step(log, args.step)
        return 0
    if args.rounds_in_child:
        _rounds(log, args.rounds_in_child)
        return 0
    builds = {"this": HERE / ".venv" / "bin" / "python"}
    if args.base is not None:
        builds["base"] = args.base.resolve() / ".venv" / "bin" / "python"
    scratch = Path(tempfile.mkdtemp(prefix="stockade-warm-"))
    caches = {name: scratch / name for name in builds}
    for name, python in builds.items():
        _child(python, log, caches[name], ["--step", "prepare"])
    print(f"load average {os.getloadavg()[0]:.1f}; CPU ms, medians of {args.rounds} rounds")
    for pair in range(args.pairs):
        out = []
        for name, python in builds.items():
            raw, warm = map(
                float,
                _child(python, log, caches[name], ["--rounds-in-child", str(args.rounds)]).split(),
            )
            out.append(f"{name}: raw {raw:.2f} warm {warm:.2f} = {warm / raw:.2f}x")
        print(f"pair {pair + 1}: " + "; ".join(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
