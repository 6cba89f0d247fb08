"""The hostile-log corpus (tests/fixtures/hostile/, issue 13) against every command.

Each command runs in its own process under a memory limit (RLIMIT_AS) and a CPU-time
limit, and must end with a one-line message naming the bad line -- never a traceback,
never a kill by the limits -- and print nothing that could drive a terminal: no byte
below 0x20 but newline and tab, no DEL, no C1 character, nothing that is not UTF-8.
The TUI opens every file headless (one process, the same limits) and its screen is
held to the same rule.
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

CORPUS = Path(__file__).resolve().parent / "fixtures" / "hostile"
EXPECTED: dict[str, dict] = json.loads((CORPUS / "expected.json").read_text())
MEMORY_MB = 200  # the bound for tally on the huge-turn log; every command meets it
TUI_MEMORY_MB = 400  # Textual and its threads reserve more address space
CPU_SECONDS = 20  # a runaway loop is killed by the kernel, not waited for
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

CLI_CHILD = "import sys; from stockade.core.cli import main; sys.exit(main(sys.argv[1:]))"


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
        timeout=120,
        cwd=tmp,
    )


def assert_terminal_safe(what: str, data: bytes) -> str:
    text = data.decode("utf-8")  # strict: a stray byte from a log fails here
    hit = FORBIDDEN.search(text)
    assert hit is None, f"{what}: {hit.group()!r} reached the terminal: {text[:300]!r}"
    return text


def _run_all(tmp_path: Path) -> dict[tuple[str, str], subprocess.CompletedProcess]:
    jobs = {}
    for name in EXPECTED:
        for command, argv in COMMANDS.items():
            work = tmp_path / f"{name}-{command}"
            work.mkdir()
            shutil.copy(CORPUS / name, work / name)  # repair and friends never see the corpus
            args = [a.format(log=work / name, tmp=work) for a in argv]
            jobs[(name, command)] = (args, work)
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {key: pool.submit(run_bounded, *job) for key, job in jobs.items()}
        return {key: future.result() for key, future in futures.items()}


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
import asyncio, html, json, re, shutil, sys
from pathlib import Path
from stockade.core.cli.output import visible
from stockade.core.book.game import Game
from stockade.core.log.journal import JournalError

async def open_one(path):
    from stockade.tui.app import StockadeApp
    try:
        game = Game.open(path)  # what run_app does
    except (JournalError, OSError) as exc:
        return {"error": visible(f"stockade: cannot open {path.name}: {exc}")}
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("v")
        await pilot.pause()
        texts = re.findall(r"<text[^>]*>(.*?)</text>", app.export_screenshot())
        screen = html.unescape("".join(texts)).replace("\xa0", " ")
        notes = [n.message for n in app._notifications]
    game.close()
    return {"screen": screen, "notes": notes, "read_only": game.read_only}

async def main():
    out = {}
    for name in sys.argv[2:]:
        work = Path(sys.argv[1]) / name
        shutil.copy(Path(sys.argv[1]).parent / name, work)
        out[name] = await open_one(work)
    print(json.dumps(out))

asyncio.run(main())
"""


def test_the_tui_opens_every_file_within_bounds(tmp_path):
    files = tmp_path / "files"
    shutil.copytree(CORPUS, files)
    (files / "opened").mkdir()  # the child opens copies here: torn tails get set aside
    args = [str(files / "opened"), *sorted(EXPECTED)]
    done = run_bounded(args, tmp_path, memory_mb=TUI_MEMORY_MB, child=TUI_CHILD)
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 0, err[-2000:]
    report = json.loads(done.stdout)
    for name, seen in report.items():
        line = EXPECTED[name]["line"]
        said = seen.get("error", "") + " ".join(seen.get("notes", []))
        assert_terminal_safe(name, (said + seen.get("screen", "")).encode())
        if line is not None:
            assert f"line {line}" in said, (name, said)
            assert "error" in seen or seen["read_only"] or "left out" in said, (name, said)
    assert "[link=file:///etc/passwd]click me[/link]" in report["rich_markup.jsonl"]["screen"]
