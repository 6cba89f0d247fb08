"""``stockade repair`` keeps every sound line, not only those before the first bad one
(issue 24): a bad line costs that line; later entries keep their numbers; those that
depended on it become conflicts, named in the reply."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from stockade.core.cli import main
from stockade.core.log import chain
from stockade.core.log.game_log import load

SAMPLE = Path(__file__).resolve().parents[2] / "sample_games" / "scenario_tractor_works.jsonl"
ORIGINAL = SAMPLE.read_bytes().split(b"\n")[:-1]
HIT = 29  # line 30 of 68
_PREV = re.compile(rb',"prev":"[0-9a-f]{32}"}$')


def _bare(line: bytes) -> bytes:
    return _PREV.sub(b"}", line)


def _repair(tmp_path: Path, lines: list[bytes], capsys) -> tuple[list[bytes], str]:
    log = tmp_path / "game.jsonl"
    log.write_bytes(b"\n".join(lines) + b"\n")
    out = tmp_path / "fixed.jsonl"
    code = main(["repair", str(log), "-o", str(out), "--force"])
    said = capsys.readouterr().out
    assert code == 0, said
    if "nothing to repair" in said:
        return lines, said
    return out.read_bytes().split(b"\n")[:-1], said


@pytest.mark.parametrize("flip", [0x01, 0x20, 0x80])
def test_a_flipped_byte_anywhere_in_one_line_costs_at_most_that_line(tmp_path, capsys, flip):
    line = ORIGINAL[HIT]
    salvaged = lost_others = 0
    for position in range(len(line)):
        damaged = list(ORIGINAL)
        damaged[HIT] = line[:position] + bytes([line[position] ^ flip]) + line[position + 1 :]
        if load_is_sound(tmp_path, damaged):
            continue  # still a sound record (a letter of a name...): nothing to repair
        repaired, said = _repair(tmp_path, damaged, capsys)
        salvaged += 1
        assert len(repaired) == len(ORIGINAL), said
        for index, original in enumerate(ORIGINAL):
            if index != HIT and _bare(repaired[index]) != _bare(original):
                lost_others += 1
        loaded = load(tmp_path / "fixed.jsonl")
        assert loaded.problem is None and loaded.torn_tail is None
        assert [r.seq for r in loaded.records] == list(range(1, len(ORIGINAL) + 1))
        assert chain.walk(repaired).intact
    assert salvaged > len(line) // 2  # most flips break the line
    assert lost_others == 0


def load_is_sound(tmp_path: Path, lines: list[bytes]) -> bool:
    log = tmp_path / "probe.jsonl"
    log.write_bytes(b"\n".join(lines) + b"\n")
    loaded = load(log)
    return loaded.problem is None and loaded.torn_tail is None


def test_an_entry_that_needed_the_dropped_line_becomes_a_named_conflict(tmp_path, capsys):
    damaged = list(ORIGINAL)
    assert b'"handle":"g4"' in damaged[5]
    damaged[5] = b"\x00 not json"
    repaired, said = _repair(tmp_path, damaged, capsys)
    first = said.splitlines()[0]
    assert "67 sound records kept" in first and "dropped line 6 (not valid JSON" in first
    assert "hash chain re-linked from line 6" in first
    assert "entry 33 no longer holds without the dropped lines: no unit 'g4'" in said
    stand_in = json.loads(repaired[5])
    assert (stand_in["kind"], stand_in["seq"], stand_in["target"]) == ("strike", 6, 6)
    assert main(["check", str(tmp_path / "fixed.jsonl")]) == 4  # conflicts, not damage
    assert (tmp_path / "fixed.jsonl.dropped").read_bytes() == b"\x00 not json\n"


def test_bad_lines_at_the_end_leave_no_stand_ins_and_millions_cost_little(tmp_path, capsys):
    lines = list(ORIGINAL[:10]) + [b"{}"] * 200_000
    repaired, said = _repair(tmp_path, lines, capsys)
    assert repaired == ORIGINAL[:10]
    assert "and 199990 more lines" in said and len(said.splitlines()) == 1


def test_a_damaged_header_keeps_nothing(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    log.write_bytes(b"{nope\n" + b"\n".join(ORIGINAL[1:]) + b"\n")
    assert main(["repair", str(log), "-o", str(tmp_path / "out.jsonl")]) == 3
    assert "line 1" in capsys.readouterr().err


def test_a_line_lost_from_the_file_or_repeated_costs_nothing_else(tmp_path, capsys):
    deleted = ORIGINAL[:HIT] + ORIGINAL[HIT + 1 :]
    repaired, said = _repair(tmp_path, deleted, capsys)
    assert len(repaired) == len(ORIGINAL) and b'"target":30' in repaired[HIT]
    assert [_bare(r) for r in repaired[HIT + 1 :]] == [_bare(r) for r in ORIGINAL[HIT + 1 :]]
    repeated = ORIGINAL[: HIT + 1] + [ORIGINAL[HIT]] + ORIGINAL[HIT + 1 :]
    repaired, said = _repair(tmp_path, repeated, capsys)
    assert repaired == ORIGINAL and "repeats an earlier entry's" in said
