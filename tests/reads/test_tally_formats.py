"""BBCode and CSV exports of the tally (issue 9), each against a golden file in
tests/golden/: one from a shipped sample game, one from a tally whose names try to
break out of the format (BBCode tags, CSV quotes and commas, spreadsheet formulas).

To accept a deliberate change of layout: STOCKADE_UPDATE_GOLDEN=1 pytest
tests/reads/test_tally_formats.py, then read the diff before committing it."""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import pytest

from stockade.core.book.game import Game
from stockade.core.book.tally import SideTally, Tally, TallyLine, tally
from stockade.core.reads.tally_formats import CSV_HEAD, bbcode_escape, csv_cell, to_bbcode, to_csv

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def _sample() -> Tally:
    game = Game.open(ROOT / "sample_games" / "ex05_rtph_surrender.jsonl", read_only=True)
    return tally(game.state)


def _verdict_sample() -> Tally:
    """A game with Victory Conditions: the verdict follows the tally's lines."""
    path = ROOT / "sample_games" / "scenario_vc_bridgehead.jsonl"
    game = Game.open(path, read_only=True)
    return tally(game.state)


def _hostile() -> Tally:
    """Names a player (or an opponent's log) could type, aimed at each format."""
    line = TallyLine(
        unit='=HYPERLINK("http://x")',
        counter="4-6-7 [was 4-6-8]",
        unit_kind="squad",
        seq=7,
        turn=2,
        rule="A20.1",
        base=2,
        multiplier=2,
        why='guarded, "by" a1, [url=http://evil]click[/url]',
        banked=False,
    )
    banked = TallyLine("@SUM(A1)", "+1-2-3", "HS", 9, 2, "A20.5", 1, 1, "-2+3\ttab", True)
    side = SideTally('[b]Reds[/b], "the" side', "Russian", [line, banked], {1: 0, 2: 1})
    other = SideTally("Germans", "German", [], {1: 0, 2: 0})
    return Tally('Hill 621 [i]rev[/i], "2"', 2, False, {side.name: side, "Germans": other})


CASES = {
    "ex05.bbcode": lambda: to_bbcode(_sample()),
    "ex05.csv": lambda: to_csv(_sample()),
    "bridgehead.bbcode": lambda: to_bbcode(_verdict_sample()),
    "bridgehead.csv": lambda: to_csv(_verdict_sample()),
    "hostile.bbcode": lambda: to_bbcode(_hostile()),
    "hostile.csv": lambda: to_csv(_hostile()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_the_golden_file(name):
    got = CASES[name]()
    path = GOLDEN / name
    if os.environ.get("STOCKADE_UPDATE_GOLDEN"):
        path.write_text(got, encoding="utf-8", newline="")
    with path.open(encoding="utf-8", newline="") as fh:  # the bytes' own line ends
        assert fh.read() == got


def test_bbcode_leaves_no_tag_from_a_name():
    out = to_bbcode(_hostile())
    for tag in ("[b]Reds", "[/b],", "[i]rev", "[url=", "[/url]", "[was"):
        assert tag not in out.replace("[[b][/b]", "\x00"), tag
    # What a reader sees after a forum strips the empty bold tags: the names as typed.
    seen = out.replace("[[b][/b]", "[")
    assert '[b]Reds[/b], "the" side' in seen and "[url=http://evil]click[/url]" in seen


def test_bbcode_escape_is_only_about_opening_brackets():
    assert bbcode_escape("a]b") == "a]b"
    assert bbcode_escape("[x") == "[[b][/b]x"


def test_csv_reads_back_cell_for_cell_and_defuses_formulas():
    rows = list(csv.reader(io.StringIO(to_csv(_hostile()))))
    assert tuple(rows[0]) == CSV_HEAD
    first, second = (dict(zip(CSV_HEAD, r, strict=True)) for r in rows[1:])
    assert first["side"] == '[b]Reds[/b], "the" side'  # comma and quotes survive
    assert first["unit"] == '\'=HYPERLINK("http://x")'
    assert first["why"] == 'guarded, "by" a1, [url=http://evil]click[/url]'
    assert first["banked"] == "no" and first["points"] == "4"
    assert second["unit"] == "'@SUM(A1)" and second["counter"] == "'+1-2-3"
    assert second["why"] == "'-2+3\ttab"
    assert len(rows) == 3  # a side with no lines adds no row


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_every_formula_start_is_defused(start):
    assert csv_cell(start + "1") == "'" + start + "1"


def test_numbers_stay_numbers():
    assert csv_cell(-3) == -3 and csv_cell("(1)-0-6") == "(1)-0-6"


@pytest.mark.parametrize("fmt", ["bbcode", "csv"])
def test_the_cli_prints_the_same_export(fmt, capsys):
    from stockade.core.cli import main

    sample = ROOT / "sample_games" / "ex05_rtph_surrender.jsonl"
    assert main(["tally", str(sample), "--format", fmt]) == 0
    with (GOLDEN / f"ex05.{fmt}").open(encoding="utf-8", newline="") as fh:
        assert capsys.readouterr().out == fh.read()
