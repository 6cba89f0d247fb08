"""A game kept as the side record has it (no phase, next, break, rally or move line) is
accepted through the CLI with the tally and verdict of the same game with every board
line typed; each entry that needs a board fact records it and says so."""

from __future__ import annotations

import json
import re

import pytest

from stockade.sample_games import catalog

SIDE = "side_record"
BOARD = "side_record_board"
BOARD_VERBS = ("phase", "next", "prev", "skip", "break", "rally", "move", "mv", "n", "p")

# Each A20 event the game must hold, and what its reply must say it implied.
IMPLIED = {
    "surrender r1 to g4": "implied: r1 broken (A20.21",
    "capture r3 by g1": "implied: g1 is in L4 (A20.22",
    "transfer r3 to g3": "implied: g3 is in L4 (A20.5",
    "reject g5 by Russian": "implied: g5 broken (A20.3",
    "escape r3 guard-dies": "implied: g3 broken (A20.55",
}
MUST_HOLD = ("massacre ", "rearm ", "eliminate ", "turn")


def _lines(name: str) -> list[str]:
    text = catalog.script_path(name).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and line[0] != "#"]


def _new(tmp_path, name: str):
    path = tmp_path / f"{name}.jsonl"
    code, _out, err = catalog.cli("new", str(path), *catalog.new_args(name))
    assert code == 0, err
    return path


def _run(path, lines: list[str]) -> tuple[int, str, str]:
    script = path.with_suffix(".txt")
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return catalog.cli("run", str(path), str(script))


def _tally(path) -> dict:
    code, out, err = catalog.cli("tally", str(path), "--json")
    assert code == 0, err
    return json.loads(out)


def test_the_side_record_has_no_board_line_and_every_a20_event():
    lines = _lines(SIDE)
    assert not [w for w in lines if w.split()[0].lower() in BOARD_VERBS]
    for event in [*IMPLIED, *MUST_HOLD]:
        assert any(line.startswith(event) for line in lines), event
    assert not catalog.strict(SIDE) and catalog.strict(BOARD)


def test_side_record_and_board_record_agree_on_tally_and_verdict(tmp_path):
    side, board = _new(tmp_path, SIDE), _new(tmp_path, BOARD)
    code, out, err = _run(side, _lines(SIDE))
    assert code == 0, err
    code, board_out, err = _run(board, _lines(BOARD))
    assert code == 0, err
    assert "implied" not in board_out  # a strict game implies nothing
    got, want = _tally(side), _tally(board)
    assert got["verdict"] == want["verdict"]
    assert got["verdict"]["result"] == "Russian win"
    for name in ("German", "Russian"):
        mine, theirs = got["sides"][name], want["sides"][name]
        assert _lines_of(mine) == _lines_of(theirs)
        for key in ("cvp", "cvp_if_ended", "by_turn"):
            assert mine[key] == theirs[key], key


def _lines_of(side: dict) -> list[tuple]:
    """A side's tally lines without the entry numbers (the board record has more)."""
    return [
        (t["unit"], t["counter"], t["turn"], t["rule"], t["points"], t["why"])
        for t in side["lines"]
    ]


@pytest.mark.parametrize("entry", sorted(IMPLIED))
def test_each_reply_names_what_the_entry_implied(tmp_path, entry):
    lines = _lines(SIDE)
    upto = next(i for i, line in enumerate(lines) if line.startswith(entry))
    path = _new(tmp_path, SIDE)
    code, _out, err = _run(path, lines[:upto])
    assert code == 0, err
    code, out, err = catalog.cli("do", str(path), lines[upto])
    assert code == 0, err
    said = [line for line in out.splitlines() if line.startswith("implied:")]
    assert said and said[0].startswith(IMPLIED[entry]), out
    assert re.match(r"implied: \w+ (broken|is in \w+) \(A20\.\d+: .+\)$", said[0])


@pytest.mark.parametrize("entry", sorted(IMPLIED))
def test_strict_refuses_each_entry_as_before(tmp_path, entry):
    """The same side record on a --strict game: each entry that implied a fact is
    refused, citing its rule, and nothing is written."""
    lines = _lines(SIDE)
    upto = next(i for i, line in enumerate(lines) if line.startswith(entry))
    path = tmp_path / "strict.jsonl"
    code, _out, err = catalog.cli("new", str(path), *catalog.new_args(SIDE), "--strict")
    assert code == 0, err
    # what comes before, with the board facts it implied typed (so that only this entry
    # is in question): the side record's own replay, from the non-strict game
    full = _new(tmp_path, SIDE)
    code, out, err = _run(full, lines[:upto])
    assert code == 0, err
    facts = _typed_facts(out)
    code, _out, err = _run(path, _with_facts(lines[:upto], facts))
    assert code == 0, err
    before = path.read_bytes()
    code, _out, err = catalog.cli("do", str(path), lines[upto])
    assert code != 0
    rule = IMPLIED[entry].split("(")[1]
    assert f"stockade: {rule}:" in err, err
    assert path.read_bytes() == before


def _typed_facts(out: str) -> list[tuple[str, str]]:
    """(entry line's verb phrase, the board line that types what it implied)."""
    facts = []
    for line in out.splitlines():
        found = re.match(r"implied: (\w+) (broken|is in (\w+))", line)
        if found:
            handle, what, where = found.groups()
            facts.append((handle, f"move {handle} {where}" if where else f"break {handle}"))
    return facts


def _with_facts(lines: list[str], facts: list[tuple[str, str]]) -> list[str]:
    """The lines with the board lines typed before the entries that implied them, and
    each entry's phase set first (a strict game's clock still follows the entries, but
    a board line typed earlier must be in the entry's phase to be the same board)."""
    out, left = [], list(facts)
    for line in lines:
        while left and left[0][0] in line.split():
            out.append(left.pop(0)[1])
        out.append(line)
    return out
