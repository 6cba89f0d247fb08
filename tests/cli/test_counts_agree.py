"""Counts printed by the CLI agree with their number: "1 entry no longer holds",
never "1 entries"; a conflict without a rule number reads without an empty one."""

from __future__ import annotations

from tests.cli.support import cli


def _one_conflict(tmp_path, capsys):
    """A game whose entry 3 (g1 broken) no longer holds once entry 2 (g1) is struck."""
    path = tmp_path / "game.jsonl"
    sides = ("--side", "German:German", "--side", "Russian:Russian")
    assert cli(capsys, "new", path, "--scenario", "T", *sides)[0] == 0
    assert cli(capsys, "do", path, "add German 4-6-7 Q4")[0] == 0
    assert cli(capsys, "do", path, "break g1")[0] == 0
    assert cli(capsys, "strike", path, "2")[0] == 4
    return path


def test_check_with_one_conflict_says_one_entry(tmp_path, capsys):
    path = _one_conflict(tmp_path, capsys)
    code, out, err = cli(capsys, "check", path)
    assert code == 4
    assert "1 entry no longer holds; strike or fix it" in err
    assert "entries" not in err
    assert ": :" not in out  # a conflict with no rule number shows none


def test_check_json_reply_agrees_too(tmp_path, capsys):
    path = _one_conflict(tmp_path, capsys)
    code, out, _ = cli(capsys, "do", path, "--json", "strike 3")
    assert code == 0
    code, out, _ = cli(capsys, "do", path, "--json", "unstrike 3")
    assert code == 4 and "1 entry no longer holds; strike or fix it" in out


def test_tally_warning_about_one_conflict_says_it(tmp_path, capsys):
    path = _one_conflict(tmp_path, capsys)
    _, _, err = cli(capsys, "tally", path)
    assert "1 entry no longer holds (3): it is skipped until struck or fixed" in err


def test_check_of_a_one_line_log_says_one_record(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    sides = ("--side", "German:German", "--side", "Russian:Russian")
    assert cli(capsys, "new", path, "--scenario", "T", *sides)[0] == 0
    code, out, _ = cli(capsys, "check", path)
    assert code == 0
    assert "sound: 1 record, 0 units" in out and "intact over 1 line" in out
    assert "1 records" not in out and "1 lines" not in out
