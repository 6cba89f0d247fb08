"""Regenerate the sample games' logs from their scripts.

    .venv/bin/python -m stockade.sample_games.regenerate            # all games, in place
    .venv/bin/python -m stockade.sample_games.regenerate ex13_hero_capacity demo
    .venv/bin/python -m stockade.sample_games.regenerate --out DIR  # write elsewhere (tests)

Each ``NAME.jsonl`` is made by running ``NAME.stockade`` onto a new game (``stockade new``
with the script's ``# new:`` arguments, then ``stockade run``). Deterministic: the core
stamps each record with the wall-clock time (``at``, display only, never read by the
rules) and has no switch to fix it, so this script pins the core's clock
(``core.book.writer.now``) to one fixed instant while it runs. Everything else in a log comes
from the script, so the same scripts always give byte-identical logs.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import contextmanager
from pathlib import Path

from stockade.sample_games import catalog


@contextmanager
def fixed_clock(at: str = catalog.FIXED_AT):
    from stockade.core.book import writer

    saved = writer.now
    writer.now = lambda: at
    try:
        yield
    finally:
        writer.now = saved


def regenerate(names: list[str] | None = None, out: Path | None = None) -> list[Path]:
    out = Path(out) if out else catalog.HERE
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with fixed_clock():
        for name in names or catalog.names():
            target = out / f"{name}.jsonl"
            catalog.build(name, target)
            for extra in out.glob(f"{name}.jsonl.*"):  # lock or side files, if any
                if extra.is_file() and extra.suffix in (".lock",):
                    extra.unlink()
            written.append(target)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="games to regenerate (default: all)")
    parser.add_argument("--out", type=Path, help="write the logs to this folder instead")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.names) - set(catalog.names()))
    if unknown:
        print("no such sample game: " + ", ".join(unknown), file=sys.stderr)
        return 2
    try:
        for path in regenerate(args.names or None, args.out):
            print(path)
    except Exception as exc:  # a refused script line: one clear line, no traceback
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
