"""``stockade tally`` folded without the command line proper (core/cli/folded_tally.py):
what it prints is what the command line proper prints, on every log and every line the
strict reader takes; and what a folding tally leaves out, counted in a fresh
interpreter (modules imported, annotations evaluated, dataclasses made), never timed
(bench/cli_startup.py measures that)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from stockade.core.cli import folded_tally
from stockade.sample_games.catalog import HERE as SAMPLE_DIR
from tests.cli.one_shot import CHILD, DEMO, ROOT
from tests.cli.support import cli

SAMPLES = sorted(Path(SAMPLE_DIR).glob("*.jsonl"))
LINES = [[], ["--json"], ["--format", "md"], ["--form=html"], ["--at", "3"], ["--at=2", "--json"]]
LINES += [["--at", "999"], ["--json", "--at", "999"]]


def answered(capsys, *argv) -> tuple[int | None, str, str]:
    code = folded_tally.answer([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def logs(folder: Path) -> list[Path]:
    """The demo as it is, with a torn tail, with a line that is not JSON in it, with an
    entry taken out, empty, and a file that is not there."""
    lines = DEMO.read_bytes().splitlines(keepends=True)
    made = {
        "demo": b"".join(lines),
        "torn": b"".join(lines) + b'{"seq": 99, "t',
        "damaged": b"".join(lines[:5]) + b"garbage\n" + b"".join(lines[5:]),
        "dropped": b"".join(lines[:8] + lines[9:]),
        "empty": b"",
    }
    for name, data in made.items():
        (folder / f"{name}.jsonl").write_bytes(data)
    return [folder / f"{name}.jsonl" for name in made] + [folder / "missing.jsonl"]


@pytest.mark.parametrize("store", ["off", "on"])
def test_it_prints_what_the_command_line_proper_prints(store, tmp_path, capsys, monkeypatch):
    if store == "off":
        monkeypatch.setenv("STOCKADE_CACHE_DIR", "off")
    seen = set()
    for path in logs(tmp_path):
        for line in LINES:
            folded = answered(capsys, "tally", path, *line)
            proper = cli(capsys, "tally", path, *line)
            assert folded == proper, (path.name, line)
            seen.add(proper[0])
    assert seen == {0, 1, 3}  # done, refused (--at, no such file), not a game


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.stem)
def test_every_sample_folds_to_what_the_command_line_proper_prints(sample, capsys, monkeypatch):
    monkeypatch.setenv("STOCKADE_CACHE_DIR", "off")
    for line in ([], ["--json"]):
        assert answered(capsys, "tally", sample, *line) == cli(capsys, "tally", sample, *line)


@pytest.mark.parametrize(
    "line", [["--help"], ["--at", "-1"], ["--format", "rtf"], ["--", "x"], [], ["a", "b"]]
)
def test_a_line_the_strict_reader_does_not_take_is_left_to_argparse(line, capsys):
    assert answered(capsys, "tally", *line) == (None, "", "")


@pytest.fixture(scope="module")
def folding_tally() -> dict:
    env = {"PATH": "/usr/bin:/bin", "STOCKADE_CACHE_DIR": "off"}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, "tally", str(DEMO)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )
    reply = json.loads(done.stdout)
    assert reply["code"] == 0, done.stderr
    return reply


def test_a_folding_tally_imports_neither_argparse_nor_the_command_line_proper(folding_tally):
    modules = set(folding_tally["modules"])
    proper = {
        "argparse",
        "gettext",
        "locale",
        "stockade.core.cli.entry",
        "stockade.core.cli.arguments",
        "stockade.core.cli.parsing",
        "stockade.core.cli.read_commands",
    }
    assert not proper & modules, sorted(proper & modules)
    assert "stockade.core.cli.folded_tally" in modules


def test_a_folding_tally_imports_no_writer(folding_tally):
    """A read opens the log as ``Game.open`` does (core/book/game_parts.py) without the
    writer on top, the amending, the names' replay, a write's observer, what a failed
    write left (on_disk) or the staging of a group (tempfile, with shutil)."""
    modules = set(folding_tally["modules"])
    writes = {
        "stockade.core.book.game",
        "stockade.core.book.writer",
        "stockade.core.book.amending",
        "stockade.core.book.names_replay",
        "stockade.core.book.write_recovery",
        "stockade.core.book.consequences",
        "stockade.core.log.on_disk",
        "stockade.core.log.staging",
        "tempfile",
        "shutil",
    }
    assert not writes & modules, sorted(writes & modules)
    assert "stockade.core.book.projection" in modules  # it did fold


def test_a_folding_tally_of_a_small_game_evaluates_no_annotations(folding_tally):
    """The snapshot's rows are checked against the state's dataclasses when a snapshot
    would be read or written (core/log/snapcache.py ``rows_mirror_state``), not at
    import: a game under ``MIN_EVENTS`` entries never has one."""
    assert folding_tally["hints"] == []


def test_a_folding_tally_evaluates_no_record_annotation(folding_tally):
    """The handles of a record type are found from its annotations as written
    (core/model/record_bounds.py ``field_types``), and only for the types the log
    holds: msgspec's evaluation of every field of every record type is not run."""
    assert folding_tally["fields"] == []


def test_a_folding_tally_makes_only_the_dataclasses_of_what_it_reads(folding_tally):
    made = folding_tally["made"]
    assert len(made) == len(set(made))
    left_out = {
        "stockade.core.log.on_disk.OnDisk",  # a failed write's
    }
    assert not left_out & set(made)
    # each dataclass execs the source of its methods when made (~2.6 M instructions for
    # six fields, a msgspec Struct ~0.1 M): the log code's records and the counter are
    # Structs; the state's classes (Origin, Unit, Side, Casualty, GameState) remain
    assert not [m for m in made if m.startswith("stockade.core.log.")], made
    assert len(made) <= 5, made


# The console script as a player runs it (``main()`` reading the process's own command
# line), the store off: the cyclic collections made while it ran, counted by
# ``gc.callbacks``, and at exit (atexit runs before the interpreter's own collections)
# the objects frozen and those the exit collections would still walk.
GC_CHILD = """
import atexit, gc, io, json, sys
runs = []
gc.callbacks.append(lambda phase, info: phase == "stop" and runs.append(info["generation"]))
out = sys.stdout
def report():
    out.write(json.dumps({"runs": runs, "frozen": gc.get_freeze_count(),
                          "walked": len(gc.get_objects())}))
    out.flush()
atexit.register(report)
from stockade.tui.launcher import main
sys.stdout = io.StringIO()
sys.exit(main())
"""


@pytest.mark.parametrize("verb", ["tally", "do"])
def test_a_one_shot_command_leaves_the_cyclic_collector_nothing_to_walk(verb, tmp_path):
    """Everything a tally or a `do` makes lives until the process ends: no collection
    during it (main: 25 young ones during a tally's imports), and the interpreter's full
    collections at exit find it frozen (main: nothing frozen, every object walked)."""
    env = {"PATH": "/usr/bin:/bin", "STOCKADE_CACHE_DIR": "off"}
    game = tmp_path / "game.jsonl"
    game.write_bytes(DEMO.read_bytes())
    args = ["tally", str(game)] if verb == "tally" else ["do", str(game), "next"]
    done = subprocess.run(
        [sys.executable, "-c", GC_CHILD, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    reply = json.loads(done.stdout)
    assert reply["runs"] == []
    assert reply["frozen"] > 10_000
    assert reply["walked"] < 1_000, reply


def test_tally_in_process_puts_the_collector_back(capsys):
    """``main`` given its arguments (a test, a caller) leaves the collector as it found
    it and freezes nothing."""
    import gc

    from stockade.tui import launcher

    frozen = gc.get_freeze_count()
    assert gc.isenabled()
    assert launcher.main(["tally", str(DEMO)]) == 0
    assert gc.isenabled()
    assert gc.get_freeze_count() == frozen
    capsys.readouterr()
