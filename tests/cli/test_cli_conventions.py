"""The CLI's conventions (issue 9): --version, --json replies with a schema version,
described subcommands with examples, the exit-code table, shell completion."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from stockade.core.book.game import Game
from stockade.core.cli.arguments import build_parser
from stockade.core.cli.errors import Exit
from stockade.core.cli.jsonout import SCHEMA
from tests.cli.support import CLI_CHILD, cli

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "sample_games" / "demo.jsonl"


def reply(capsys, *argv, code: int = 0) -> dict:
    got, out, err = cli(capsys, *argv)
    assert got == code, err
    data = json.loads(out)
    assert data["schema"] == SCHEMA and data["ok"] is (code == 0)
    return data


@pytest.fixture
def game(tmp_path, capsys) -> Path:
    path = tmp_path / "g.jsonl"
    argv = ["new", path, "--scenario", "T", "--side", "American:American:4"]
    assert cli(capsys, *argv, "--side", "German:German")[0] == 0
    script = tmp_path / "s.txt"
    script.write_text("add American 9-2 at Q4\nadd German 4-6-7 2-4-7 hs at Q5 broken\n")
    assert cli(capsys, "run", path, script)[0] == 0
    return path


def _subparsers():
    import argparse

    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices
    raise AssertionError("no subcommands")


def test_version(capsys):
    code, out, _ = cli(capsys, "--version")
    assert code == 0 and re.fullmatch(r"stockade (\d+\.\d+\.\d+\S*|unknown)\n", out)


def test_every_subcommand_has_a_description_and_an_example():
    for name, sub in _subparsers().items():
        assert sub.description and sub.description.strip(), name
        assert "\n" not in sub.description.strip(), f"{name}: description is one line"
        assert sub.epilog and "example" in sub.epilog.lower(), f"{name}: no example"
        assert f"stockade {name}" in sub.epilog, f"{name}: the example runs something else"


def test_help_of_a_subcommand_shows_description_and_example(capsys):
    code, out, _ = cli(capsys, "history", "--help")
    assert code == 0
    assert "Every entry, one sentence each." in out
    assert "example" in out and "stockade history game.jsonl --json" in out


# ----------------------------------------------------------------------- --json
def test_read_commands_reply_in_json(game, capsys):
    tally = reply(capsys, "tally", DEMO, "--json")
    assert tally["command"] == "tally" and tally["sides"]["German"]["cvp"] == 2
    history = reply(capsys, "history", game, "--json")
    assert [e["seq"] for e in history["entries"]] == [1, 2, 3, 4]
    assert history["entries"][1]["record"]["kind"] == "unit"
    assert all(e["sentence"] and e["status"] == "ok" for e in history["entries"])
    check = reply(capsys, "check", game, "--json")
    assert check["sound"] and check["records"] == 4 and check["conflicts"] == []
    located = reply(capsys, "locate", "--json")
    assert set(located) >= {"config_dir", "data_dir", "cache_dir", "last_game"}
    rulings = reply(capsys, "rulings", "--json")
    assert rulings["rulings"] and set(rulings["rulings"][0]) == {
        "topic",
        "rule",
        "ruling",
        "source",
    }


def test_do_run_and_undo_reply_in_json_with_the_records_written(game, tmp_path, capsys):
    done = reply(capsys, "do", game, "next", "--json")
    assert done["command"] == "do" and done["message"]
    assert [r["seq"] for r in done["records"]] == [5] and done["records"][0]["kind"] == "phase"
    script = tmp_path / "more.txt"
    script.write_text("# a comment does nothing\nnext\nnext\n")
    ran = reply(capsys, "run", game, script, "--json")
    assert [o["line"] for o in ran["outcomes"]] == [2, 3]
    assert [r["seq"] for o in ran["outcomes"] for r in o["records"]] == [6, 7]
    undone = reply(capsys, "undo", game, "--json")
    assert undone["command"] == "undo" and undone["records"][0]["kind"] == "undo"


def test_a_refusal_in_json_names_its_rule_and_exit_code(game, capsys):
    before = game.read_bytes()
    code, out, err = cli(capsys, "do", game, "surrender g1 to a1", "--json")
    assert code == Exit.REFUSED
    data = json.loads(out)
    assert data["ok"] is False and data["command"] == "do"
    assert data["error"]["exit"] == 1 and data["error"]["rule"].startswith("A20")
    assert data["error"]["kind"] == "rule"
    assert err.startswith("stockade: ") and err.count("\n") == 1
    assert game.read_bytes() == before


def test_an_input_mistake_in_json_has_no_rule_and_says_input(game, tmp_path, capsys):
    code, out, _ = cli(capsys, "do", game, "rally zz", "--json")
    assert code == Exit.REFUSED
    error = json.loads(out)["error"]
    assert error["rule"] is None and error["kind"] == "input", error
    script = tmp_path / "bad.txt"
    script.write_text("rally zz\n")
    code, out, _ = cli(capsys, "run", game, script, "--json")
    error = json.loads(out)["error"]
    assert error["rule"] is None and error["kind"] == "input", error
    code, out, _ = cli(capsys, "do", tmp_path / "none.jsonl", "next", "--json")
    error = json.loads(out)["error"]
    assert error["rule"] is None and error["kind"] == "error", error


def test_check_json_on_a_damaged_log_says_where(game, capsys):
    lines = game.read_bytes().split(b"\n")
    lines[2] = b"{broken"
    game.write_bytes(b"\n".join(lines))
    data = reply(capsys, "check", game, "--json", code=Exit.DAMAGED)
    assert data["sound"] is False and data["problem"]["line"] == 3
    assert data["error"]["exit"] == 3 and "line 3" in data["error"]["message"]


# ------------------------------------------------------------------ exit codes
def test_exit_codes_are_the_documented_table():
    doc = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    table = dict(re.findall(r"^\| (\d+) \| `([A-Z]+)` \|", doc, re.MULTILINE))
    assert {int(k): v for k, v in table.items()} == {e.value: e.name for e in Exit}


def test_exit_2_usage_3_damaged_5_locked(game, tmp_path, capsys):
    assert cli(capsys, "tally")[0] == Exit.USAGE
    not_a_game = tmp_path / "notes.txt"
    not_a_game.write_text("hello\n")
    assert cli(capsys, "history", not_a_game)[0] == Exit.DAMAGED
    holder = Game.open(game)  # another window has it
    try:
        before = game.read_bytes()
        code, _, err = cli(capsys, "do", game, "next")
        assert code == Exit.LOCKED and "another Stockade window" in err
        assert game.read_bytes() == before
    finally:
        holder.close()
    assert cli(capsys, "do", game, "next")[0] == Exit.OK


def test_missing_file_is_refused_not_damaged(tmp_path, capsys):
    assert cli(capsys, "history", tmp_path / "nope.jsonl")[0] == Exit.REFUSED


# ------------------------------------------------------------------ completion
@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts(shell, capsys):
    code, out, _ = cli(capsys, "completion", shell)
    assert code == 0 and "stockade" in out and "_ARGCOMPLETE" in out


def test_completion_hook_completes_subcommands(tmp_path):
    answer = tmp_path / "answer"
    env = {
        **os.environ,
        "_ARGCOMPLETE": "1",
        "COMP_LINE": "stockade ta",
        "COMP_POINT": "11",
        "_ARGCOMPLETE_STDOUT_FILENAME": str(answer),
    }
    subprocess.run([sys.executable, "-c", CLI_CHILD], env=env, cwd=ROOT, timeout=60, check=False)
    assert answer.read_text().split() == ["tally"]


@pytest.mark.parametrize("typed", [("strike", "2"), ("do", "strike 2")])
def test_a_strike_that_leaves_conflicts_exits_4_however_it_is_typed(game, capsys, typed):
    assert cli(capsys, "do", game, "phase rtph")[0] == 0
    assert cli(capsys, "do", game, 'surrender g1 to a1 because "g2 can rout"')[0] == 0
    code, out, err = cli(capsys, typed[0], game, typed[1])
    assert code == Exit.CONFLICTS, err
    assert "no longer holds" in out
    unstrike = ["do", game, "unstrike 2"] if typed[0] == "do" else ["unstrike", game, "2"]
    assert reply(capsys, *unstrike, "--json")["ok"] is True  # nothing left in conflict
    strike = [typed[0], game, typed[1], "--json"]
    error = reply(capsys, *strike, code=Exit.CONFLICTS)["error"]
    assert error["kind"] == "conflicts" and error["exit"] == 4


def test_history_help_says_what_each_mark_after_a_number_means(capsys):
    from stockade.core.cli.read_commands import MARKS

    code, out, _ = cli(capsys, "history", "--help")
    assert code == 0
    legend = " ".join(
        out.split("the mark after an entry's number:")[1].split("examples:")[0].split()
    )
    for status, mark in MARKS.items():
        if status != "ok":
            assert f"{mark} " in legend, (mark, legend)
    assert "s superseded" in legend and "x struck" in legend
    assert all(len(line) <= 79 for line in out.splitlines()), out
