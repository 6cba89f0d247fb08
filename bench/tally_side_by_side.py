"""``stockade tally`` of this checkout beside another's (``--base``), store off: every
sample game, every tests/fixtures/hostile log, a torn, an edited and a missing log; the
plain text, ``--json``, every ``--format`` and ``--at`` in and out of range. Prints each
difference (stdout, stderr or exit code) and the count of equal runs.

    python -m bench.tally_side_by_side --base /work/wt/base
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.run import log_path

ROOT = Path(__file__).resolve().parent.parent
FORMATS = ("text", "md", "html", "bbcode", "csv")
VARIANTS: list[list[str]] = [
    [],
    ["--json"],
    *(["--format", f] for f in FORMATS),
    ["--at", "1"],
    ["--at", "5"],
    ["--json", "--at", "7"],
    ["--format", "csv", "--at", "3"],
    ["--at", "0"],
    ["--at", "100000"],
]


def logs(tmp: Path) -> list[Path]:
    """The logs compared: samples, hostile fixtures and a few made here."""
    found = sorted((ROOT / "sample_games").glob("*.jsonl"))
    found += sorted(p for p in (ROOT / "tests" / "fixtures" / "hostile").iterdir() if p.is_file())
    demo = (ROOT / "sample_games" / "demo.jsonl").read_bytes()
    torn = tmp / "torn.jsonl"
    torn.write_bytes(demo + b'{"kind":"phase","turn":')
    edited = tmp / "edited.jsonl"
    edited.write_bytes(demo.replace(b'"Demo', b'"Dumo', 1))
    found += [torn, edited, tmp / "missing.jsonl"]
    big = log_path(1_000)
    if big.exists():
        found.append(big)
    return found


def run(tree: Path, log: Path, args: list[str]) -> tuple[int, str, str]:
    script = tree / ".venv" / "bin" / "stockade"
    env = dict(os.environ, STOCKADE_CACHE_DIR="off", PYTHONHASHSEED="0")
    done = subprocess.run(
        [str(script), "tally", str(log), *args], env=env, capture_output=True, text=True
    )
    return done.returncode, done.stdout, done.stderr


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, required=True)
    opts = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="side-by-side-"))
    try:
        same = differ = 0
        for log in logs(tmp):
            for args in VARIANTS:
                mine, theirs = run(ROOT, log, args), run(opts.base, log, args)
                if mine == theirs:
                    same += 1
                else:
                    differ += 1
                    print(f"DIFFERS: {log.name} {' '.join(args)}", file=sys.stderr)
                    for name, a, b in zip(("code", "stdout", "stderr"), mine, theirs, strict=True):
                        if a != b:
                            print(f"  {name}: {a!r:.300}\n  base: {b!r:.300}", file=sys.stderr)
        print(f"{same} equal, {differ} differ")
        return 1 if differ else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
