"""What keeping a verdict costs a write: one entry (and its undo) on a game with and
without Victory Conditions, at a few sizes, in memory (no fsync: the difference is
the verdict, which every write of a game with Victory Conditions judges before and
after, from the whole tally).

    python -m bench.verdict            # sizes 1k, 10k
    python -m bench.verdict 1000 20000
"""

from __future__ import annotations

import statistics
import sys
import time

from bench.generate import generate
from stockade.core.book.game import Game
from stockade.core.commands import execute

REPEAT = 200


def _per_write(game: Game) -> tuple[float, float]:
    """Median seconds of one phase entry, and of its undo."""
    writes, undos = [], []
    for _ in range(REPEAT):
        started = time.perf_counter()
        execute(game, "next")
        writes.append(time.perf_counter() - started)
        started = time.perf_counter()
        game.undo()
        undos.append(time.perf_counter() - started)
    return statistics.median(writes), statistics.median(undos)


def main(argv: list[str]) -> int:
    sizes = [int(a) for a in argv] or [1_000, 10_000]
    print("| events | write, no VC | write, VC | undo, no VC | undo, VC |")
    print("|---|---|---|---|---|")
    for n in sizes:
        game = generate(n, seed=7, controls=False)
        plain = _per_write(game)
        side = next(iter(game.state.sides))
        execute(game, f"vc {side} wins at end if amassed >= 20 or controls P4")
        judged = _per_write(game)
        cells = [f"{t * 1e6:.0f} µs" for t in (plain[0], judged[0], plain[1], judged[1])]
        print(f"| {n} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
