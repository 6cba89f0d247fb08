"""`python -m bench.run --quick --tui-only` works in a fresh clone, where bench/out/
does not exist yet (issue 9). Numbers are not checked here: speed is bench/'s business."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TRACKED = ("bench", "core", "tui", "themes", "sample_games")


def test_quick_tui_bench_runs_without_bench_out(tmp_path):
    clone = tmp_path / "clone"
    for folder in TRACKED:
        shutil.copytree(
            ROOT / folder, clone / folder, ignore=shutil.ignore_patterns("out", "__pycache__")
        )
    assert not (clone / "bench" / "out").exists()
    env = {**os.environ, "STOCKADE_CACHE_DIR": "off"}
    command = [sys.executable, "-m", "bench.run", "--quick", "--tui-only", "--repeat", "1"]
    out = subprocess.run(command, cwd=clone, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "## TUI" in out.stdout and "cold start" in out.stdout
    assert (clone / "bench" / "out").is_dir()
