"""What every test shares: its own config, data and cache dirs.

Stockade remembers the last game, writes config and caches folded states. A test that
touched the player's own dirs could pass or fail by what another run left there, and
would leave files behind; so every test gets fresh dirs under its ``tmp_path``:
``tmp_path / "config"``, ``"data"`` and ``"cache"`` (the ``stockade_dirs`` fixture, used
by all tests; ask for it by name to get the paths). A test that wants no snapshot cache
at all asks for ``cache_off``; one that reads the app's notices asks for ``notices``.

Each room of tests (a folder mirroring a room of the code) has its own conftest for the
fixtures its tests share; helpers that are not fixtures live in plain modules (kits:
tests/rules/kit.py, tests/book/kit.py, tests/tui/support.py, ...), never in a test module.
"""

from __future__ import annotations

import gc
import os
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple, Protocol

import pytest

from tests import bytecode, processes, schedule


@dataclass(frozen=True)
class StockadeDirs:
    config: Path
    data: Path
    cache: Path


@pytest.fixture(autouse=True)
def stockade_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> StockadeDirs:
    """STOCKADE_CONFIG_DIR, STOCKADE_DATA_DIR and STOCKADE_CACHE_DIR under tmp_path
    (the dirs themselves are made by Stockade when it first writes there)."""
    dirs = StockadeDirs(tmp_path / "config", tmp_path / "data", tmp_path / "cache")
    monkeypatch.setenv("STOCKADE_CONFIG_DIR", str(dirs.config))
    monkeypatch.setenv("STOCKADE_DATA_DIR", str(dirs.data))
    monkeypatch.setenv("STOCKADE_CACHE_DIR", str(dirs.cache))
    return dirs


class GeneratedLog(Protocol):
    def __call__(self, path: Path, entries: int, seed: int) -> Path: ...


@pytest.fixture(scope="session")
def generated_log(tmp_path_factory: pytest.TempPathFactory) -> GeneratedLog:
    """``generated_log(path, entries, seed)`` writes at ``path`` the log
    ``bench.generate.write_log`` writes for ``generate(entries, seed)``, and returns
    ``path``. Each game is generated once a test process and its bytes copied for each
    test that asks: many tests of the log and the book open the same long generated game
    (900 entries take some 0.2 s of CPU to generate), and each writes to its own copy."""
    from bench.generate import generate, write_log

    made: dict[tuple[int, int], bytes] = {}

    def write(path: Path, entries: int, seed: int) -> Path:
        if (entries, seed) not in made:
            once = tmp_path_factory.mktemp("generated") / "game.jsonl"
            write_log(generate(entries, seed=seed), once)
            made[entries, seed] = once.read_bytes()
        path.write_bytes(made[entries, seed])
        return path

    return write


@pytest.fixture
def cache_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """No snapshot cache: every open folds the whole log."""
    monkeypatch.setenv("STOCKADE_CACHE_DIR", "off")


class Notice(NamedTuple):
    message: str
    title: str
    markup: bool


@pytest.fixture
def notices(monkeypatch: pytest.MonkeyPatch) -> list[Notice]:
    """Every notice Textual's own ``App.notify`` was given, in order (the app still shows
    it). The TUI's tests and the config's (a bad config file is told in a notice)."""
    from textual.app import App

    seen: list[Notice] = []
    real = App.notify

    def record(self, message, *, title="", severity="information", timeout=None, markup=True):
        seen.append(Notice(message, title, markup))
        return real(self, message, title=title, severity=severity, timeout=timeout, markup=markup)

    monkeypatch.setattr(App, "notify", record)
    return seen


ROOT = Path(__file__).resolve().parent.parent
# The folders a `stockade` process started by a test imports from (the package's rooms,
# the bench the bench tests run, the tests' own kits).
COMPILED = ("core", "tui", "themes", "sample_games", "bench", "tests")
# Middle-generation collections before a full one in a test process (Python's default: 10).
FULL_AFTER = 100


@pytest.hookimpl(optionalhook=True)  # a child pytest may run without xdist
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker per core the run may use, and one more. Many tests spend
    part of their time waiting, not computing (a `stockade` child, `pip` fetching the
    wheel's dependencies, a server's reply, the app's idle pauses); with one worker a
    core, a core sits idle through each wait, and the extra worker fills it."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 1


def pytest_configure(config: pytest.Config) -> None:
    """Every process a test starts dies with the run (tests/processes.py). The first
    process compiles once what every later one would compile again (tests/bytecode.py):
    hundreds of tests start a fresh interpreter, and where PYTHONDONTWRITEBYTECODE is set
    (as in some CI images) none of them keeps the bytecode it compiles, so each would
    compile the modules it imports again (about 0.3 s of CPU a process; a fifth of the CLI
    room's CPU); and each xdist worker would rewrite and compile every test module."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        processes.die_with_parent()
    else:
        bytecode.compile_plain(ROOT / folder for folder in COMPILED)
        if config.getoption("numprocesses", None):
            bytecode.rewrite_once(config, bytecode.test_modules(config))
    processes.guard_children()


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """A worker's tests are over: its garbage is collected now, and no automatic
    collection runs from here to its exit. What the
    worker made is let go as it ends, and with full collections rarer (``FULL_AFTER``)
    that can be a long collection; the controller gives a worker 5 s to end before it
    interrupts its main thread (execnet), and an interrupt that lands in a collector
    callback (hypothesis keeps one) is printed as an unraisable KeyboardInterrupt at the
    end of a passing run. pytest itself collects (five times) once the run is over, to
    flush unraisable exceptions: the garbage is collected here, while the controller
    still waits for this worker's results, and what survives is frozen, so those later
    collections walk little."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        gc.collect()
        gc.freeze()  # what lives on is walked by none of those later collections
        gc.disable()


def pytest_unconfigure(config: pytest.Config) -> None:
    processes.release_children()


def pytest_collection_finish(session: pytest.Session) -> None:
    """What the process holds once the tests are collected (the interpreter's, pytest's,
    Textual's and Stockade's modules, the collected items) lives to the end of the run:
    it is moved out of the cyclic collector's walks, as the launcher does for the app
    (``gc.freeze``). Each Pilot test leaves an app's worth of cycles behind, and the
    full collections that free them then walk only what was made since, not the whole
    process again (a quarter of a TUI test's CPU went to those walks). Garbage is
    collected first, so nothing that could be freed is kept. A full collection then waits
    for ten times as many younger ones as Python's default (``FULL_AFTER``): a test's
    cycles are still freed, a run at a time rather than after every few tests (the TUI
    room's CPU: 12 % less, 46-48 s against 53-54 s on two of its files)."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_AFTER)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On xdist workers, the longest tests first (tests/schedule.py): a long test handed
    out last would run alone while the other cores idle."""
    nodeids = [item.nodeid for item in items]
    if config.args_source == pytest.Config.ArgsSource.TESTPATHS:
        gone = schedule.stale(nodeids)
        if gone and os.environ.get("PYTEST_XDIST_WORKER", "gw0") == "gw0":
            config.issue_config_time_warning(
                pytest.PytestWarning(f"tests/schedule.py weighs tests that are gone: {gone}"),
                stacklevel=2,
            )
    if os.environ.get("PYTEST_XDIST_WORKER"):
        items[:] = [items[i] for i in schedule.heaviest_first(nodeids)]
