"""The headless CLI: exit codes, one-line errors, untouched files on refusal, damaged
logs, and no Textual anywhere in a headless subcommand."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from stockade.core.cli import main
from tests.cli.support import CLI_CHILD, cli

ROOT = Path(__file__).resolve().parents[2]


def run_cli(*argv, stdin: str = "", env: dict | None = None) -> subprocess.CompletedProcess:
    """``stockade ARGV`` in a fresh interpreter."""
    return subprocess.run(
        [sys.executable, "-c", CLI_CHILD, *map(str, argv)],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        timeout=60,
    )


@pytest.fixture
def log(tmp_path, capsys) -> Path:
    """A game: American 9-2 a1 in Q4, German 4-6-7 g1 and 2-4-7 HS g2 broken, RtPh,
    g1 surrendered to a1 (entries: 1 header, 2 a1, 3-4 g1 g2, 5 phase, 6 surrender)."""
    path = tmp_path / "game.jsonl"
    assert (
        cli(
            capsys,
            "new",
            path,
            "--scenario",
            "Test",
            "--side",
            "American:American:4",
            "--side",
            "German:German",
        )[0]
        == 0
    )
    script = tmp_path / "setup.txt"
    script.write_text(
        "add American 9-2 at Q4\nadd German 4-6-7 2-4-7 hs at Q5 broken\n"
        'phase rtph\nsurrender g1 to a1 because "g2 can rout"\n'
    )
    assert cli(capsys, "run", path, script)[0] == 0
    return path


def test_new_writes_a_header_with_default_elr(log):
    header = json.loads(log.read_text().splitlines()[0])
    assert header["kind"] == "game"
    assert header["sides"][1] == {"name": "German", "nationality": "German", "elr": 3}


@pytest.mark.parametrize(
    "side, words",
    [
        ("German", "NAME:NATIONALITY"),
        ("G:German:x", "ELR"),
        ("G:Martian", "not known (one of German, American, British, Russian"),
        ("G:SS:4", "+ss"),
    ],
)
def test_new_refuses_bad_sides(tmp_path, capsys, side, words):
    code, _, err = cli(
        capsys,
        "new",
        tmp_path / "x.jsonl",
        "--scenario",
        "S",
        "--side",
        side,
        "--side",
        "A:American",
    )
    assert code == 1 and words in err and err.count("\n") == 1
    assert not (tmp_path / "x.jsonl").exists()


def test_new_never_overwrites(log, capsys):
    before = log.read_bytes()
    code, _, err = cli(
        capsys, "new", log, "--scenario", "S", "--side", "A:American", "--side", "G:German"
    )
    assert code == 1 and "already exists" in err
    assert log.read_bytes() == before


def test_do_records_and_prints_the_sentence(log, capsys):
    code, out, _ = cli(capsys, "do", log, "surrender g2 to a1")
    assert code == 0
    assert "German 2-4-7 (g2) surrendered to American 9-2 (a1) in Q4 [A20.21]" in out


def test_refused_do_leaves_the_log_byte_identical(log, capsys):
    assert cli(capsys, "do", log, "add German 4-6-7 x2 at Q5 broken")[0] == 0
    before = log.read_bytes()
    code, out, err = cli(capsys, "do", log, "surrender g3 g4 to a1")
    assert code == 1 and out == ""
    assert err.startswith("stockade: A20.51: ") and err.count("\n") == 1
    assert log.read_bytes() == before


def test_refused_do_with_bad_input_names_it(log, capsys):
    before = log.read_bytes()
    code, _, err = cli(capsys, "do", log, "add German 4-6-x")
    assert code == 1 and "4-6-x" in err
    assert log.read_bytes() == before


def test_refused_run_leaves_the_log_byte_identical_and_names_the_line(log, tmp_path, capsys):
    before = log.read_bytes()
    script = tmp_path / "s.txt"
    script.write_text("next\n# a comment\n\nnext\nescape g1\n")  # CCPh; the Guard is not broken
    code, out, err = cli(capsys, "run", log, script)
    assert code == 1 and out == ""
    assert f"{script} line 5: A20.55: " in err and "nothing was recorded" in err
    assert log.read_bytes() == before


def test_run_from_stdin_in_a_fresh_interpreter(log):
    result = run_cli("run", log, "-", stdin="next\nabandon g1\n")
    assert result.returncode == 0, result.stderr
    assert "abandoned" in result.stdout


def test_tally_json_text_md_and_at(log, capsys):
    code, out, _ = cli(capsys, "tally", log, "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data["sides"]) == {"American", "German"}
    american = data["sides"]["American"]
    assert isinstance(american["cvp"], (int, float)) and isinstance(american["lines"], list)
    assert american["lines"]  # the guarded 4-6-7, counted if the game ended now
    code, early, _ = cli(capsys, "tally", log, "--json", "--at", "5")
    assert code == 0 and not json.loads(early)["sides"]["American"]["lines"]
    assert cli(capsys, "tally", log)[0] == 0
    code, md, _ = cli(capsys, "tally", log, "--format", "md")
    assert code == 0 and "|" in md
    code, _, err = cli(capsys, "tally", log, "--at", "99")
    assert code == 1 and "--at 99" in err


def test_history_one_sentence_per_record(log, capsys):
    code, out, _ = cli(capsys, "history", log)
    lines = out.splitlines()
    assert code == 0 and len(lines) == 6
    assert "T1 RtPh: German 4-6-7 (g1) surrendered to American 9-2 (a1) in Q4 [A20.21]" in lines[-1]


def test_undo_redo_strike_unstrike(log, capsys):
    code, out, _ = cli(capsys, "undo", log)
    assert code == 0 and out.startswith("undone: entry 6")
    assert cli(capsys, "redo", log)[0] == 0
    code, out, _ = cli(capsys, "strike", log, "5", "--reason", "not the RtPh")
    # done, but it leaves a conflict: exit 4 (Exit.CONFLICTS), the entry named
    assert code == 4 and "struck entry 5 (not the RtPh)" in out
    assert out.count("entry 6") == 1 and "no longer holds" in out  # said once, with its sentence
    code, out, err = cli(capsys, "history", log)
    assert "<conflict" in out and "<struck: not the RtPh>" in out
    assert "1 entry no longer holds (6)" in err
    # --json gives the conflict's rule id as a field: nobody splits the message on ": "
    code, out, _ = cli(capsys, "history", log, "--json")
    conflict = next(e for e in json.loads(out)["entries"] if e["status"] == "conflict")
    assert conflict["seq"] == 6 and conflict["rule"] and conflict["rule"] != "input"
    assert conflict["reason"].startswith(conflict["rule"] + ": ")
    cleared = [e["rule"] for e in json.loads(out)["entries"] if e["status"] != "conflict"]
    assert set(cleared) == {""}
    assert cli(capsys, "check", log)[0] == 4  # entry 6 does not hold while 5 is struck
    assert cli(capsys, "unstrike", log, "5")[0] == 0
    assert cli(capsys, "check", log)[0] == 0
    code, _, err = cli(capsys, "strike", log, "1")
    assert code == 1 and "header" in err


def test_an_undone_entry_a_new_one_replaced_reads_superseded_not_abandoned(log, capsys):
    """ "abandoned" is A20's word for prisoners set free: an entry left behind by undo
    and a new entry is worded as the app's history words it (the glossary's)."""
    assert cli(capsys, "undo", log)[0] == 0
    assert cli(capsys, "do", log, "surrender g1 g2 to a1")[0] == 0
    code, out, _ = cli(capsys, "history", log)
    [left] = [line for line in out.splitlines() if line.startswith("    6 ")]
    assert code == 0 and left.startswith("    6 s ") and left.endswith("  <superseded>")
    assert "abandoned" not in out


def test_nothing_to_undo_is_a_one_line_refusal(tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    cli(capsys, "new", path, "--scenario", "S", "--side", "A:American", "--side", "G:German")
    code, _, err = cli(capsys, "undo", path)
    assert code == 1 and err == "stockade: undo: nothing to undo\n"


# ------------------------------------------------------------------ damaged logs
def test_history_on_a_torn_last_line_warns_and_exits_0(log, capsys):
    with log.open("ab") as fh:
        fh.write(b'{"kind":"status","seq":7,"v":1,"grp":7,"hand')
    before = log.read_bytes()
    code, out, err = cli(capsys, "history", log)
    assert code == 0 and len(out.splitlines()) == 6
    assert "warning" in err and "line 7" in err
    assert log.read_bytes() == before  # history only reads


def test_check_on_a_corrupt_middle_line_names_it_and_leaves_the_file(log, capsys):
    lines = log.read_bytes().split(b"\n")
    lines[3] = b'{"kind": "unit", garbage'
    log.write_bytes(b"\n".join(lines))
    before = log.read_bytes()
    mtime = log.stat().st_mtime_ns
    code, out, err = cli(capsys, "check", log)
    assert code == 3 and "line 4" in err and err.count("\n") == 1
    assert log.read_bytes() == before and log.stat().st_mtime_ns == mtime


def test_check_in_a_fresh_interpreter_never_tracebacks(log):
    log.write_bytes(log.read_bytes().replace(b'"seq":3', b'"seq":9', 1))
    result = run_cli("check", log)
    assert result.returncode == 3
    assert "line 3" in result.stderr and "Traceback" not in result.stderr


def test_check_a_sound_log(log, capsys):
    code, out, _ = cli(capsys, "check", log)
    assert code == 0 and "sound" in out


def test_check_a_torn_tail_is_not_sound(log, capsys):
    with log.open("ab") as fh:
        fh.write(b'{"kind":')
    before = log.read_bytes()
    code, _, err = cli(capsys, "check", log)
    assert code == 3 and "line 7" in err
    assert log.read_bytes() == before


def test_do_into_a_damaged_log_is_refused_and_writes_nothing(log, capsys):
    lines = log.read_bytes().split(b"\n")
    lines[2] = b"not json"
    log.write_bytes(b"\n".join(lines))
    before = log.read_bytes()
    code, _, err = cli(capsys, "do", log, "next")
    assert code == 3 and "line 3" in err and "repair" in err
    assert log.read_bytes() == before


def test_repair_keeps_every_sound_line_and_drops_the_bad_one(log, tmp_path, capsys):
    original = log.read_bytes().split(b"\n")
    damaged = original[:]
    damaged[3] = b"{broken"
    log.write_bytes(b"\n".join(damaged))
    before = log.read_bytes()
    out_path = tmp_path / "fixed.jsonl"
    code, out, _ = cli(capsys, "repair", log, "-o", out_path)
    assert code == 0 and "5 sound records kept" in out and "dropped line 4" in out
    repaired = out_path.read_bytes().split(b"\n")
    assert repaired[:3] == original[:3]  # untouched up to the bad line
    assert b'"kind":"strike","target":4' in repaired[3]  # its stand-in keeps the numbers
    assert [json.loads(line)["seq"] for line in repaired if line] == [1, 2, 3, 4, 5, 6]
    assert (tmp_path / "fixed.jsonl.dropped").read_bytes() == b"{broken\n"
    assert log.read_bytes() == before
    assert cli(capsys, "check", out_path)[0] == 0
    code, _, err = cli(capsys, "repair", log, "-o", out_path)
    assert code == 1 and "already exists" in err
    code, _, err = cli(capsys, "repair", log, "-o", log)
    assert code == 1 and log.read_bytes() == before


def test_repair_of_a_sound_log_does_nothing(log, tmp_path, capsys):
    code, out, _ = cli(capsys, "repair", log)
    assert code == 0 and "nothing to repair" in out
    assert not list(tmp_path.glob("*.repaired*"))


@pytest.mark.parametrize("content", [b"", b"hello\n", b"\x00\xff\n"])
def test_a_file_that_is_no_game_gives_one_line(tmp_path, capsys, content):
    path = tmp_path / "x.jsonl"
    path.write_bytes(content)
    for command in ("history", "tally", "check", "do"):
        argv = [command, path] + (["next"] if command == "do" else [])
        code, _, err = cli(capsys, *argv)
        assert code == 3 and err.startswith("stockade: ") and err.count("\n") == 1, (command, err)


def test_missing_file_is_one_line(tmp_path, capsys):
    code, _, err = cli(capsys, "history", tmp_path / "nope.jsonl")
    assert code == 1 and "no such" in err and err.count("\n") == 1


# -------------------------------------------------------------------- usage, ui
def test_usage_errors_exit_2_with_one_line(capsys):
    for argv in (["bogus", "x"], ["do"], ["tally", "f", "--format", "pdf"], ["strike", "f", "x"]):
        code, _, err = cli(capsys, *argv)
        assert code == 2 and err.startswith("stockade: ") and err.count("\n") == 1, argv


def test_help_exits_0(capsys):
    code, out, _ = cli(capsys, "--help")
    assert code == 0 and "tally" in out


class FakeUi:
    def __init__(self):
        self.opened = []

    def open_game(self, path):
        self.opened.append(path)
        return 0

    def open_camp(self, path, options):
        return 0


def test_no_subcommand_or_a_lone_file_opens_the_ui(capsys, tmp_path):
    ui = FakeUi()
    assert cli(capsys, ui=ui)[0] == 0
    assert cli(capsys, tmp_path / "g.jsonl", ui=ui)[0] == 0
    assert ui.opened == [None, tmp_path / "g.jsonl"]


def test_without_a_ui_the_ui_commands_exit_2(capsys, tmp_path):
    code, _, err = cli(capsys)
    assert code == 2 and err.count("\n") == 1
    assert cli(capsys, tmp_path / "g.jsonl")[0] == 2


def test_locate_prints_dirs_and_last_game(tmp_path):
    data = tmp_path / "data"
    (data / "stockade").mkdir(parents=True)
    (data / "stockade" / "last_game").write_text("/games/kampfgruppe.jsonl\n")
    # the platform's dirs: no STOCKADE_* override (empty is none, as the app reads it)
    env = {"XDG_DATA_HOME": str(data), "XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    result = run_cli("locate", env={**env, "STOCKADE_CONFIG_DIR": "", "STOCKADE_DATA_DIR": ""})
    assert result.returncode == 0
    assert str(data / "stockade") in result.stdout
    assert str(tmp_path / "cfg" / "stockade") in result.stdout
    assert "/games/kampfgruppe.jsonl" in result.stdout


def test_locate_names_the_dirs_and_last_game_the_app_uses(stockade_dirs, capsys):
    """STOCKADE_CONFIG_DIR / STOCKADE_DATA_DIR move where the app keeps its config and
    games: locate says those, not the platform's (it named another last game)."""
    stockade_dirs.data.mkdir(parents=True)
    (stockade_dirs.data / "last_game").write_text("/games/tractor-works.jsonl\n")
    assert main(["locate", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["config_dir"] == str(stockade_dirs.config)
    assert found["data_dir"] == str(stockade_dirs.data)
    assert found["last_game"] == "/games/tractor-works.jsonl"


def test_camp_is_registered():
    from stockade.core.cli.arguments import build_parser, subcommand_names

    assert "camp" in subcommand_names(build_parser())


# ------------------------------------------------------------------- no Textual
@pytest.mark.parametrize(
    "argv",
    [
        ["tally", "{log}"],
        ["tally", "{log}", "--json"],
        ["history", "{log}"],
        ["check", "{log}"],
        ["do", "{log}", "next"],
        ["locate"],
        ["--help"],
    ],
)
def test_headless_subcommands_never_import_textual(log, argv):
    code = (
        "import sys; from stockade.core.cli import main; rc = main(sys.argv[1:]); "
        "print('TEXTUAL' if any(m == 'textual' or m.startswith('textual.') for m in sys.modules) "
        "else 'CLEAN'); sys.exit(rc)"
    )
    args = [a.format(log=log) for a in argv]
    result = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("CLEAN")


def test_rulings_are_shown_to_the_player(capsys):
    """Where the rules are silent the program says what it chose (docs/rulings.md)."""
    from stockade.core.reads.rulings import rulings

    assert main(["rulings"]) == 0
    out = capsys.readouterr().out
    assert len(rulings()) >= 10
    for ruling in rulings():
        assert ruling.topic in out
    assert "A20.552" in out
