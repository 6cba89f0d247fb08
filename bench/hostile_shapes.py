"""Logs shaped to hurt the readers (issue 24): each made in memory, written hash-chained.

    python -m bench.hostile_shapes strikes N OUT     N units entered, then each struck
    python -m bench.hostile_shapes pingpong N OUT    N undo/redo pairs of one entry
    python -m bench.hostile_shapes added N OUT       N units entered (verify's shape)
    python -m bench.hostile_shapes control N OUT     N Locations controlled, one entry each

``bench/hostile_run.py`` times the commands on them (docs/performance.md has figures).
"""

from __future__ import annotations

import sys
from pathlib import Path

from bench.generate import new_game
from stockade.core.log.chain import chained
from stockade.core.model import events as ev


def strikes(count: int) -> list[ev.Record]:
    game = new_game()
    for n in range(count):
        game.submit(
            [
                ev.UnitEntered(
                    handle=f"u{n}",
                    side="Americans",
                    unit_kind="squad",
                    counter="4-6-7",
                    location="A1",
                )
            ]
        )
    for n in range(count):
        game.strike(2 + n, "wrong counter")
    return list(game.records)


def pingpong(count: int) -> list[ev.Record]:
    game = new_game()
    game.submit(
        [
            ev.UnitEntered(
                handle="u1", side="Americans", unit_kind="squad", counter="4-6-7", location="A1"
            )
        ]
    )
    for _ in range(count):
        game.undo()
        game.redo()
    return list(game.records)


def added(count: int) -> list[ev.Record]:
    game = new_game()
    for n in range(count):
        game.submit(
            [
                ev.UnitEntered(
                    handle=f"u{n}",
                    side="Germans",
                    unit_kind="squad",
                    counter="4-6-7",
                    location="B2",
                )
            ]
        )
    return list(game.records)


def control(count: int) -> list[ev.Record]:
    """``count`` entries of ``control``, each a Location of its own (the victory book
    holds them all at the end)."""
    game = new_game()
    sides = ("Germans", "Americans")
    for n in range(count):
        game.submit([ev.LocationControlled(location=f"X{n}", side=sides[n % 2])])
    return list(game.records)


SHAPES = {"strikes": strikes, "pingpong": pingpong, "added": added, "control": control}


def main(argv: list[str]) -> int:
    shape, count, out = argv[0], int(argv[1]), Path(argv[2])
    lines = chained([ev.encode(r) for r in SHAPES[shape](count)])
    out.write_bytes(b"".join(line + b"\n" for line in lines))
    print(f"{out}: {len(lines)} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
