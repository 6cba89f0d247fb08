"""Compile once, before the workers start, what every worker would otherwise compile again.

Each xdist worker imports every test module it collects, and pytest compiles a test
module only after rewriting its ``assert`` statements (so a failure shows the values).
Rewriting and compiling the suite's test modules costs several seconds of CPU in each
worker. pytest keeps the rewritten code in ``__pycache__/*-pytest-*.pyc`` and reads it
back when the source has not changed, but it writes that file only where Python may write
bytecode: never under ``PYTHONDONTWRITEBYTECODE`` (as in some CI images), and in a clean
clone the workers all rewrite at once before either has written it. So the controlling
process writes it once, here, for the test modules the run will collect, and the workers
only read it. The plain modules (kits, the package itself) get ordinary bytecode.

The rewritten code is pytest's own (its rewriter, its file format, its staleness check on
the source's mtime and size); this only decides who writes it first. It uses pytest's
internal functions: if a pytest release renames them, nothing is written here and the
workers rewrite as before (slower, never different).
"""

from __future__ import annotations

import compileall
import re
from collections.abc import Iterable
from pathlib import Path

import pytest

# A test module or conftest: pytest rewrites these; ordinary bytecode for them is unused.
REWRITTEN = re.compile(r"(^|[\\/])(test_[^\\/]*|conftest)\.py$")


def compile_plain(folders: Iterable[Path]) -> None:
    """Ordinary bytecode for every module under the folders that pytest does not rewrite."""
    for folder in folders:
        compileall.compile_dir(folder, quiet=1, rx=REWRITTEN)


def test_modules(config: pytest.Config) -> list[Path]:
    """The test modules and conftests under the paths this run collects from."""
    found: set[Path] = set()
    for arg in config.args:
        path = Path(config.invocation_params.dir, arg.split("::")[0]).resolve()
        files = path.rglob("*.py") if path.is_dir() else [path]
        found |= {f for f in files if REWRITTEN.search(str(f)) and f.is_file()}
        # the conftests above a named file or folder are collected too
        found |= {c for d in path.parents for c in [d / "conftest.py"] if c.is_file()}
    return sorted(found)


def rewrite_once(config: pytest.Config, modules: Iterable[Path]) -> int:
    """Write pytest's rewritten bytecode for each module whose cached copy is missing or
    stale; the number written."""
    try:
        from _pytest.assertion import rewrite as r

        state = config.stash[r.assertstate_key]
    except (ImportError, AttributeError, KeyError):  # another pytest, or --assert=plain
        return 0
    written = 0
    for fn in modules:
        cache_dir = r.get_cache_dir(fn)
        pyc = cache_dir / (fn.name[:-3] + r.PYC_TAIL)
        if not r.try_makedirs(cache_dir) or r._read_pyc(fn, pyc, state.trace) is not None:
            continue
        source_stat, co = r._rewrite_test(fn, config)
        written += bool(r._write_pyc(state, co, source_stat, pyc))
    return written
