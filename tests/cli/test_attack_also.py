"""Smaller holes found by the same attack as the derived store's: a line separator in a
Location, ``new`` on a full disk, and what ``serve`` counts as loopback."""

from __future__ import annotations

import errno
import json

import pytest

from stockade.core.log import journal as journal_module
from stockade.core.log.game_log import load
from tests.cli.support import cli

DEMO_HEADER = (
    '{"kind":"game","scenario":"S","sides":[{"name":"American","nationality":"American",'
    '"elr":4},{"name":"German","nationality":"German","elr":3}],"program":"stockade 0.1.0",'
    '"cvp":{},"first_attacker":"","seq":1,"v":1,"grp":1,"at":"2024-01-01T00:00:00+00:00"}'
)


def _unit_line(location: str) -> str:
    return json.dumps(
        {
            "kind": "unit",
            "handle": "a1",
            "side": "American",
            "unit_kind": "squad",
            "counter": "7-4-7",
            "location": location,
            "traits": [],
            "cvp": None,
            "broken": False,
            "seq": 2,
            "v": 1,
            "grp": 2,
            "at": "2024-01-01T00:00:00+00:00",
        },
        ensure_ascii=False,
    )


@pytest.mark.parametrize("separator", ["\u2028", "\u2029"])
@pytest.mark.parametrize("escaped", [False, True])
def test_a_line_or_paragraph_separator_in_a_location_is_refused_at_its_line(
    tmp_path, separator, escaped
):
    line = _unit_line(f"Q5{separator}M6")
    if escaped:  # the same character written as a JSON escape
        line = line.replace(separator, f"\\u{ord(separator):04x}")
    log = tmp_path / "game.jsonl"
    log.write_text(DEMO_HEADER + "\n" + line + "\n", encoding="utf-8")
    loaded = load(log)
    assert loaded.problem is not None and loaded.problem.line == 2
    assert len(loaded.records) == 1


@pytest.mark.parametrize("separator", ["\u2028", "\u2029"])
def test_a_command_cannot_put_a_separator_in_a_location(tmp_path, capsys, separator):
    log = tmp_path / "g.jsonl"
    made = cli(capsys, "new", log, "--scenario", "S", "--side", "A:American", "--side", "G:German")
    assert made[0] == 0
    before = log.read_bytes()
    code, _, err = cli(capsys, "do", log, f"add A 7-4-7 at Q5{separator}M6")
    assert code != 0 and "field 'location'" in err and "control character" in err
    assert log.read_bytes() == before
    assert cli(capsys, "do", log, "add A 7-4-7 at Q5")[0] == 0  # the same, without it


def test_new_on_a_full_disk_never_says_the_log_was_left_as_it_was(tmp_path, capsys, monkeypatch):
    def no_room(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(journal_module, "_full_fsync", no_room)
    target = tmp_path / "new.jsonl"
    code, _, err = cli(
        capsys, "new", target, "--scenario", "S", "--side", "A:American", "--side", "G:German"
    )
    assert code != 0
    assert "left as it was" not in err  # there was no log before: nothing was left
    assert "no game was made" in err and "disk is full" in err
    assert not target.exists()
