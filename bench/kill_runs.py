"""SIGKILL ``stockade run`` at random moments and count what each kill left in the log.

    python -m bench.kill_runs [--trials 200] [--lines 300] [--seed 5] [--within 2.0]

The promise (docs/durability.md, "One script, one group"): after every kill the log
holds all of the script's records or none (read-only and opened for writing alike), and
a run that replied said exactly what the file holds. Prints the counts; exits 1 if any
trial broke the promise. Slow on purpose (one interpreter per trial): not a test.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from stockade.core.book.game import Game
from stockade.core.model import events as ev

SIDES = [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]
RUN = "import sys; from stockade.core.cli import main; sys.exit(main(sys.argv[1:]))"


def _records(path: Path, read_only: bool) -> int:
    game = Game.open(path, read_only=read_only)
    try:
        return len(game.records) - 1  # the header is not the script's
    finally:
        game.close()


def trials(count: int, lines: int, seed: int, within: float) -> dict[str, int]:
    rng = random.Random(seed)
    seen = {"none": 0, "all": 0, "part": 0, "replied": 0, "reply_wrong": 0, "views_differ": 0}
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "script.txt"
        script.write_text(
            "\n".join(f"add German 4-6-7 as g{n} at Q{n % 9 + 1}" for n in range(1, lines + 1))
        )
        for n in range(count):
            path = Path(folder) / f"game{n}.jsonl"
            Game.create(path, "Kill", SIDES, first_attacker="American").close()
            reply = Path(folder) / "reply.json"
            with open(reply, "w") as out:  # a file, not a pipe: a full pipe would block it
                proc = subprocess.Popen(
                    [sys.executable, "-c", RUN, "run", str(path), str(script), "--json"],
                    stdout=out,
                    stderr=subprocess.DEVNULL,
                )
                time.sleep(rng.uniform(0.0, within))
                proc.send_signal(signal.SIGKILL)
                proc.wait()
            shown = _records(path, read_only=True)
            held = _records(path, read_only=False)  # cuts back a group never accepted
            seen["views_differ"] += shown != held
            seen["all" if held == lines else "none" if held == 0 else "part"] += 1
            if proc.returncode == 0:
                seen["replied"] += 1
                seen["reply_wrong"] += json.loads(reply.read_text())["recorded"] != held
    return seen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--lines", type=int, default=300)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--within", type=float, default=2.0, help="latest kill, seconds")
    args = parser.parse_args(argv)
    seen = trials(args.trials, args.lines, args.seed, args.within)
    print(json.dumps(seen))
    return 1 if seen["part"] or seen["reply_wrong"] or seen["views_differ"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
