"""Bounds on every value a log or a command carries (issue 13, core/model/bounds.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from stockade.core.book.game import Game
from stockade.core.commands import execute
from stockade.core.log.game_log import load
from stockade.core.model import bounds
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal

DEMO = Path(__file__).resolve().parents[2] / "sample_games" / "demo.jsonl"


def _log_with(tmp_path: Path, record: dict, at: int = 6) -> Path:
    """The demo's first ``at - 1`` lines, then ``record`` as line ``at``."""
    lines = DEMO.read_bytes().splitlines()[: at - 1]
    record = {"seq": at, "v": 1, "grp": at, "at": "", **record}
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"\n".join(lines + [json.dumps(record).encode()]) + b"\n")
    return path


PHASE = {"kind": "phase", "turn": 2, "attacker": "American", "phase": "RPh"}
UNIT = {"kind": "unit", "handle": "z1", "side": "German", "unit_kind": "squad", "counter": "4-6-7"}


@pytest.mark.parametrize(
    "record, field, words",
    [
        ({**PHASE, "turn": 10**30}, "turn", "out of range"),
        ({**PHASE, "turn": 1000}, "turn", "at most 999"),
        ({**PHASE, "turn": -1}, "turn", "at least 0"),
        ({**PHASE, "seq": 10**12}, "seq", "out of range"),
        ({**PHASE, "grp": -5}, "grp", "at least 0"),
        ({**PHASE, "attacker": "Amer\x1b]0;pwned\x07ican"}, "attacker", "control character"),
        ({**PHASE, "attacker": "x" * 201}, "attacker", "at most 200 characters"),
        ({**UNIT, "location": "O4\x1b[2J"}, "location", "control character"),
        ({**UNIT, "counter": "4-6-7\u009b"}, "counter", "control character"),
        ({**UNIT, "handle": "z\x7f"}, "handle", "one word"),
        ({**UNIT, "handle": "[link=file:///etc/passwd]x"}, "handle", "one word"),
        ({**UNIT, "cvp": 10**6}, "cvp", "at most 99"),
        ({**UNIT, "traits": ["x"] * 17}, "traits", "at most 16 items"),
        ({"kind": "abandon", "units": [f"u{i}" for i in range(5000)]}, "units", "at most 200"),
        ({"kind": "scrounge", "handle": "a1", "roll": 10**9}, "roll", "at most 99"),
        ({"kind": "strike", "target": 3, "reason": "a\nb"}, "reason", "control character"),
        # a last newline too (a ``$`` in the pattern once let it through)
        ({"kind": "strike", "target": 3, "reason": "oops\n"}, "reason", "control character"),
        ({**UNIT, "counter": "4-6-7\n"}, "counter", "control character"),
        ({**UNIT, "handle": "z1\n"}, "handle", "one word"),
        ({"kind": "undo", "target": 10**15}, "target", "out of range"),
    ],
)
def test_an_out_of_bounds_line_is_refused_naming_line_and_field(tmp_path, record, field, words):
    loaded = load(_log_with(tmp_path, record))
    assert loaded.problem is not None and loaded.problem.line == 6
    assert f"field '{field}'" in loaded.problem.message
    assert words in loaded.problem.message
    assert len(loaded.records) == 5  # everything before it is kept


def test_a_bad_header_field_is_named_with_its_path(tmp_path):
    lines = DEMO.read_bytes().splitlines()
    header = json.loads(lines[0])
    header["sides"][1]["elr"] = 10**40
    path = tmp_path / "g.jsonl"
    path.write_bytes(json.dumps(header).encode() + b"\n")
    loaded = load(path)
    assert loaded.problem is not None and loaded.problem.line == 1
    assert "field 'sides[1].elr'" in loaded.problem.message


def test_the_limits_let_every_sample_game_through():
    for path in sorted(DEMO.parent.glob("*.jsonl")):
        loaded = load(path)
        assert loaded.problem is None, (path.name, loaded.problem)


def _game() -> Game:
    return Game.in_memory(
        "Test", [ev.SideSpec("American", "American"), ev.SideSpec("German", "German")]
    )


@pytest.mark.parametrize(
    "command, field",
    [
        ("add American 6-6-6 as a1 at 'O4\x1b[2J'", "location"),
        ("phase RPh 5000", "turn"),
        ("phase RPh 99999999999999999999999999", "turn"),
    ],
)
def test_a_command_is_held_to_the_same_bounds(command, field):
    game = _game()
    with pytest.raises(Refusal, match=f"field '{field}'"):
        execute(game, command)
    assert len(game.records) == 1


def test_a_counter_with_an_escape_is_refused():
    game = _game()
    with pytest.raises(Refusal):
        execute(game, "add American '6-6-6\x1b]52;c;AAAA\x07' as a1")
    assert len(game.records) == 1


def test_a_new_game_with_an_escape_in_its_name_is_refused(tmp_path):
    sides = [ev.SideSpec("American", "American"), ev.SideSpec("German", "German")]
    with pytest.raises(Refusal, match="field 'scenario'.*control character"):
        Game.create(tmp_path / "g.jsonl", "X\x1b]0;pwned\x07", sides)
    assert not (tmp_path / "g.jsonl").exists()


def test_a_strike_reason_with_an_escape_is_refused():
    game = _game()
    execute(game, "add American 6-6-6 as a1")
    with pytest.raises(Refusal, match="field 'reason'"):
        game.strike(2, reason="oops\x1b[2J")


def test_a_strike_reason_is_held_to_its_bound_in_full():
    """The writer checks a reason without the encode / decode round trip (core.book.writer's
    ``_reason_fits``): it must refuse what the round trip refuses, in its words."""
    game = _game()
    execute(game, "add American 6-6-6 as a1")
    for reason, said in (
        ("x" * (bounds.MAX_TEXT + 1), "at most 500 characters"),
        ("right\u202eto left", "control character"),
        ("a\x9bb", "control character"),
        ("oops\n", "control character"),
    ):
        with pytest.raises(Refusal, match=f"field 'reason'.*{said}"):
            game.strike(2, reason=reason)
    assert not game.timeline.struck
    game.strike(2, reason="Ölmühle – Łódź " + "x" * (bounds.MAX_TEXT - 15))
    assert 2 in game.timeline.struck


def test_explain_names_the_field_in_plain_words():
    assert (
        bounds.explain("Expected `int` <= 999 - at `$.turn`")
        == "field 'turn': out of range: at most 999"
    )
    assert "control character" in bounds.explain(
        f"Expected `str` matching regex '{bounds.NO_CONTROL}' - at `$.units[2]`"
    )
    assert bounds.has_control("a\x9bb") and not bounds.has_control("Ölmühle – Łódź")
    assert bounds.has_control("x\u202ey") and not bounds.has_control("שלום")


@pytest.mark.parametrize(
    "line, field",
    [
        (b'{"kind":"capture","dice":[1,100000000000000000000],"seq":2,"v":1,"grp":2}', "dice[1]"),
        (b'{"kind":"capture","dice":[' + b"1," * 100 + b'1],"seq":2,"v":1,"grp":2}', "dice"),
        (b'{"kind":"action","action":"loiter\\u001b[2J","seq":2,"v":1,"grp":2}', "action"),
        (b'{"kind":"outcome","health":-1000,"kit":0,"seq":2,"v":1,"grp":2}', "health"),
    ],
)
def test_a_camp_line_is_held_to_the_bounds_too(line, field):
    from stockade.core.camp.errors import CampError
    from stockade.core.camp.logfile import decode_line

    with pytest.raises(CampError, match=rf"^line 2: .*field '{re.escape(field)}'"):
        decode_line(line, 2)


def test_an_over_long_camp_line_is_refused_before_parsing():
    from stockade.core.camp.errors import CampError
    from stockade.core.camp.logfile import decode_line
    from stockade.core.log.log_lines import MAX_LINE_BYTES

    with pytest.raises(CampError, match="limit"):
        decode_line(b"[" * (MAX_LINE_BYTES + 1), 7)
    with pytest.raises(CampError, match="nested too deeply|not valid JSON|not a camp record"):
        decode_line(b"[" * 60_000, 7)


def test_the_text_and_html_bars_do_not_grow_with_the_points():
    from stockade.core.book.tally import MAX_BAR, tally, to_html, to_text

    game = _game()
    for n in range(1, 41):  # 40 leaders worth 99 CVP each: 3,960 points in one turn
        execute(game, f"add German 9-2 leader as l{n} cvp=99")
        execute(game, f"eliminate l{n}")
    t = tally(game.state)
    assert t.sides["American"].cvp == 40 * 99
    longest = max(len(line) for line in to_text(t).splitlines())
    assert longest < MAX_BAR + 40
    assert f"width:{MAX_BAR}em" in to_html(t)
