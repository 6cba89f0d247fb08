"""The hostile-log corpus (tests/fixtures/hostile/) against every command.

Each command runs over every file in one process under a memory limit (RLIMIT_AS) and
a CPU-time limit, one ``stockade`` call per file with its own dirs, output and exit
code, and must end with a one-line message naming the bad line -- never a traceback,
never a kill by the limits -- and print nothing that could drive a terminal: no byte
below 0x20 but newline and tab, no DEL, no C1 character, nothing that is not UTF-8.
The TUI's reader reads every file (one process, the same limits) and the app shows
each game read headless, its screen and notices held to the same rule. Each child
reports every file it was given: the tests count the reports, so a child that stopped
early fails them however fast the machine is.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.cli.support import CLI_CHILD

# One worker runs this module's tests (pyproject.toml: --dist loadgroup), so the corpus is run once.
pytestmark = pytest.mark.xdist_group("test_hostile_corpus")

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "hostile"
EXPECTED: dict[str, dict] = json.loads((CORPUS / "expected.json").read_text())
MEMORY_MB = 200  # the bound for tally on the huge-turn log; every command meets it
TUI_MEMORY_MB = 400  # Textual and its threads reserve more address space
# A runaway loop is killed by the kernel, not waited for. Far beyond what the work takes
# (a few seconds of CPU for a whole command or the TUI run), so no machine is too slow.
CPU_SECONDS = 600
HANG_SECONDS = 900  # wall: a child blocked for good, never one sharing busy cores
FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")

COMMANDS: dict[str, list[str]] = {
    "check": ["check", "{log}"],
    "tally": ["tally", "{log}"],
    "tally-json": ["tally", "{log}", "--json"],
    "tally-md": ["tally", "{log}", "--format", "md"],
    "tally-html": ["tally", "{log}", "--format", "html"],
    "tally-bbcode": ["tally", "{log}", "--format", "bbcode"],
    "tally-csv": ["tally", "{log}", "--format", "csv"],
    "history": ["history", "{log}"],
    "repair": ["repair", "{log}", "-o", "{tmp}/repaired.jsonl"],
    "do": ["do", "{log}", "add German 4-6-7 as z9 at '[b]Q4'"],
    "undo": ["undo", "{log}"],
}


# One interpreter runs its commands, each over the whole corpus: each call gets its own
# dirs, working directory, stdout and stderr (bytes, encoded as a real ``stockade``
# process encodes them with PYTHONIOENCODING=utf-8) and exit code, written to a JSON
# report. Two such interpreters share the commands (one per core): an interpreter per
# command cost as much again in start-ups and the core's imports.
CLI_BATCH = r"""
import io, json, os, sys
from pathlib import Path
from stockade.core.cli import main

report_path, jobs = sys.argv[1], json.loads(sys.argv[2])
report = {}
for command, key, args, work in jobs:
    for name in ("CONFIG", "DATA", "CACHE"):
        os.environ[f"STOCKADE_{name}_DIR"] = str(Path(work) / name.lower())
    os.chdir(work)
    out, err = io.BytesIO(), io.BytesIO()
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8", errors="strict")
    sys.stderr = io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace")
    try:
        code = main(args)
    finally:
        sys.stdout.flush(), sys.stderr.flush()
        said = out.getvalue().hex(), err.getvalue().hex()  # before the wrappers close them
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    report.setdefault(command, {})[key] = [code, *said]
Path(report_path).write_text(json.dumps(report))
"""


def _limits(memory_mb: int):
    def apply() -> None:
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))

    return apply


def _env(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("CONFIG", "DATA", "CACHE"):
        (tmp / name.lower()).mkdir(exist_ok=True)
        env[f"STOCKADE_{name}_DIR"] = str(tmp / name.lower())
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def run_bounded(args: list[str], tmp: Path, memory_mb: int = MEMORY_MB, child: str = CLI_CHILD):
    return subprocess.run(
        [sys.executable, "-c", child, *args],
        capture_output=True,
        preexec_fn=_limits(memory_mb),
        env=_env(tmp),
        # A hang guard only (a runaway loop meets CPU_SECONDS first). The TUI's run over the
        # corpus takes some 20 s of CPU; 120 s of wall ran out with every core busy.
        timeout=HANG_SECONDS,
        cwd=tmp,
    )


def assert_terminal_safe(what: str, data: bytes) -> str:
    text = data.decode("utf-8")  # strict: a stray byte from a log fails here
    hit = FORBIDDEN.search(text)
    assert hit is None, f"{what}: {hit.group()!r} reached the terminal: {text[:300]!r}"
    return text


def _run_all(tmp_path: Path) -> dict[tuple[str, str], subprocess.CompletedProcess]:
    """Every command over every file: two bounded processes, each running half the
    commands in turn (a command's calls all in one process)."""
    batches: dict[str, list[tuple[str, list[str], str]]] = {}
    for name in EXPECTED:
        for command, argv in COMMANDS.items():
            work = tmp_path / f"{name}-{command}"
            for sub in ("", "config", "data", "cache"):
                (work / sub).mkdir(exist_ok=True)
            shutil.copy(CORPUS / name, work / name)  # repair and friends never see the corpus
            args = [a.format(log=work / name, tmp=work) for a in argv]
            batches.setdefault(command, []).append((name, args, str(work)))

    def run_batch(commands: list[str]) -> dict[tuple[str, str], subprocess.CompletedProcess]:
        report = tmp_path / f"{commands[0]}.json"
        jobs = [(c, name, args, work) for c in commands for name, args, work in batches[c]]
        done = run_bounded([str(report), json.dumps(jobs)], tmp_path, child=CLI_BATCH)
        stderr = done.stderr.decode("utf-8", "replace")
        assert done.returncode == 0 and report.exists(), (
            f"{commands}: rc {done.returncode}\n{stderr}"
        )
        got = json.loads(report.read_text())
        assert sorted(got) == sorted(commands), f"{commands}: not every command reported"
        results: dict[tuple[str, str], subprocess.CompletedProcess] = {}
        for command in commands:
            assert sorted(got[command]) == sorted(EXPECTED), f"{command}: not every file reported"
            for name, args, _ in batches[command]:
                code, out, err = got[command][name]
                results[name, command] = subprocess.CompletedProcess(
                    args, code, bytes.fromhex(out), bytes.fromhex(err)
                )
        return results

    results: dict[tuple[str, str], subprocess.CompletedProcess] = {}
    commands = list(batches)
    with ThreadPoolExecutor(max_workers=2) as pool:
        for batch in pool.map(run_batch, [commands[0::2], commands[1::2]]):
            results.update(batch)
    assert len(results) == len(EXPECTED) * len(COMMANDS)
    return results


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    return _run_all(tmp_path_factory.mktemp("corpus"))


def test_the_corpus_is_as_the_script_makes_it():
    assert len(EXPECTED) >= 30
    for name in EXPECTED:
        assert (CORPUS / name).is_file(), name


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_command_names_the_line_within_bounds(results, name):
    line, field = EXPECTED[name]["line"], EXPECTED[name]["field"]
    for command in COMMANDS:
        done = results[(name, command)]
        out = assert_terminal_safe(f"{name} {command} stdout", done.stdout)
        err = assert_terminal_safe(f"{name} {command} stderr", done.stderr)
        where = f"{name} / {command}: rc {done.returncode}\n{err[-500:]}"
        assert done.returncode >= 0, f"killed by signal {-done.returncode}: {where}"
        assert "Traceback" not in out + err and "internal error" not in err, where
        assert "MemoryError" not in err, where
        if line is None:  # a sound log: its oddities are only text
            assert done.returncode == 0 or command == "undo", where  # (nothing to undo)
            assert err == "" or command == "undo", where
            continue
        # repair reports what it wrote on stdout; every other command warns on stderr
        said = out + err if command == "repair" else err
        messages = [m for m in said.splitlines() if m]
        if command == "repair":  # one line, then one per entry that no longer holds
            messages = [m for m in messages if not m.startswith(("entry ", "... ", "strike "))]
        assert len(messages) == 1, where  # one line, not a cascade
        assert f"line {line}" in messages[0], where
        if field and command == "check":
            assert f"field '{field}'" in messages[0], where
        if command == "check":
            assert done.returncode != 0, where


def test_the_huge_turn_log_is_refused_by_check_with_line_and_field(results):
    done = results[("huge_turn.jsonl", "check")]
    assert done.returncode not in (0, 2)  # refused (the code is the CLI table's)
    assert "line 4: bad 'phase' record: field 'turn': out of range" in done.stderr.decode()
    tally = results[("huge_turn.jsonl", "tally")]
    assert tally.returncode == 0 and b"line 4" in tally.stderr  # under MEMORY_MB: rlimit


def test_the_limit_is_real(tmp_path):
    """The memory limit does stop a process that outgrows it (so the tests above mean
    something): allocating past it fails inside the child."""
    child = "import sys\ntry:\n    b = bytearray(400 * 2**20)\nexcept MemoryError:\n    sys.exit(7)"
    assert run_bounded([], tmp_path, child=child).returncode == 7


TUI_CHILD = r"""
import asyncio, gc, hashlib, html, json, re, shutil, sys
from pathlib import Path
import msgspec
from stockade.core.model.visible import visible
from stockade.tui.app import StockadeApp
from stockade.tui.reading import read_game
from textual.app import App

# What the modules hold lives to the end: frozen out of the collector's walks, as the
# launcher freezes it before the app (tui/app.py, ``launched``), and full collections
# made ten times rarer, as tests/conftest.py does in the test process. Each app leaves
# its cycles behind, and the full collections walked every app made so far: a quarter
# of this child's CPU.
gc.collect()
gc.freeze()
_young, _middle, _ = gc.get_threshold()
gc.set_threshold(_young, _middle, 100)

# Every notice as it is posted: a notice shown for 8 s may be gone from the screen by the
# time a busy machine has drawn it, and what is tested is that it was told.
SEEN = []
_notify = App.notify

def _record(self, message, *args, **kwargs):
    SEEN.append(str(message))
    return _notify(self, message, *args, **kwargs)

App.notify = _record

async def show(game):
    app = StockadeApp(game, remember=False)
    SEEN.clear()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("v")
        await pilot.pause()
        texts = re.findall(r"<text[^>]*>(.*?)</text>", app.export_screenshot())
        screen = html.unescape("".join(texts)).replace("\xa0", " ")
        notes = list(SEEN)
    return {"screen": screen, "notes": notes}

async def main():
    # A file is read by the reader the launcher's app runs (tui/reading.py). The app's
    # screen is a function of the game read (its records, and whether it is read-only)
    # and its notices are the game's warnings: each game is shown once, and a file that
    # reads to a game already shown gets that screen and its own warnings as notices.
    # Every game shown reports whether its notices were its warnings, as told here.
    out, shown = {}, {}
    for name in sys.argv[2:]:
        work = Path(sys.argv[1]) / name
        shutil.copy(Path(sys.argv[1]).parent / name, work)
        read = read_game(work)
        game = read.game
        if game is None:  # the launcher prints this and exits (tui/app.py, run_app)
            out[name] = {"error": visible(f"stockade: {read.problem}")}
            continue
        key = hashlib.sha256(msgspec.json.encode([game.read_only, *game.records])).hexdigest()
        told = [visible(w) for w in game.warnings]
        if key in shown:
            seen = {"screen_of": shown[key], "notes": told}
        else:
            shown[key] = name
            seen = await show(game)
            seen["told_as_warned"] = seen["notes"] == told
        seen["read_only"] = game.read_only
        game.close()
        out[name] = seen
    print(json.dumps(out))

asyncio.run(main())
"""


def test_the_tui_opens_every_file_within_bounds(tmp_path):
    """Every file is read by the app's reader, as the launcher reads it; each game read
    is shown once (6 apps for the 38 files, not 33): 27 files read to the same three
    entries, everything from their bad line on left out, and what differs between them
    is the warning that names that line, which reaches the player as a notice. A shown
    game's notices must be exactly its warnings (planted: the app dropping the warnings
    fails here), so a file that reads to a shown game is held to its own warnings."""
    files = tmp_path / "files"
    shutil.copytree(CORPUS, files)
    (files / "opened").mkdir()  # the child opens copies here: torn tails get set aside
    args = [str(files / "opened"), *sorted(EXPECTED)]
    done = run_bounded(args, tmp_path, memory_mb=TUI_MEMORY_MB, child=TUI_CHILD)
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 0, err[-2000:]
    report = json.loads(done.stdout)
    assert sorted(report) == sorted(EXPECTED)  # every file opened, none skipped
    shown = [name for name, seen in report.items() if "screen" in seen]
    games = {name: seen["screen_of"] for name, seen in report.items() if "screen_of" in seen}
    assert set(games.values()) <= set(shown)  # each stands for a game shown itself
    for name, seen in report.items():
        line = EXPECTED[name]["line"]
        said = seen.get("error", "") + " ".join(seen.get("notes", []))
        assert_terminal_safe(name, (said + seen.get("screen", "")).encode())
        if "screen" in seen:
            assert seen["told_as_warned"], (name, seen["notes"])
        if line is None:
            assert "error" not in seen, (name, said)
        else:
            assert f"line {line}" in said, (name, said)
            assert "error" in seen or seen["read_only"] or "left out" in said, (name, said)
    assert "[link=file:///etc/passwd]click me[/link]" in report["rich_markup.jsonl"]["screen"]
