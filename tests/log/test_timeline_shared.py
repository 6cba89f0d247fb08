"""The timeline and the log reader the game and the camp share (core/log/timeline.py,
core/log/reader.py): one behaviour, each format's own rules and errors on top."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from stockade.core.book.game import Game
from stockade.core.camp.campaign import Campaign, options_from_mapping
from stockade.core.camp.errors import CampError
from stockade.core.log import game_timeline as history
from stockade.core.log.timeline import Controls, Timeline, build
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal


# ------------------------------------------------------- the timeline on its own
@dataclass(frozen=True)
class Rec:
    seq: int
    grp: int


@dataclass(frozen=True)
class Back(Rec):
    target: int


@dataclass(frozen=True)
class Forth(Rec):
    target: int


class Oops(Exception):
    def __init__(self, verb: str, text: str):
        super().__init__(f"{verb}: {text}")


LOOSE = Controls(actions={Back: "undo", Forth: "redo"}, error=Oops, refused=Oops)
STRICT = Controls(
    actions={Back: "undo", Forth: "redo"}, error=Oops, refused=Oops, check_groups=True
)


def test_undo_redo_and_an_abandoned_branch():
    records = [Rec(1, 1), Rec(2, 2), Rec(3, 2), Rec(4, 4), Back(5, 5, 4), Back(6, 6, 2)]
    timeline = build(LOOSE, records)
    assert timeline.effective() == [Rec(1, 1)] and timeline.count() == 1
    assert timeline.redoable() == 2 and timeline.undoable() is None  # never the header
    timeline.add(Forth(7, 7, 2))
    assert timeline.effective() == [Rec(1, 1), Rec(2, 2), Rec(3, 2)]
    timeline.add(Rec(8, 8))  # a new entry: group 4 can no longer be redone
    assert timeline.abandoned == {4} and timeline.redoable() is None
    assert timeline.effective_of([*records, Forth(7, 7, 2), Rec(8, 8)]) == timeline.effective()


def test_the_header_group_is_never_undone_and_refusals_are_the_formats_own():
    timeline: Timeline[Rec] = build(LOOSE, [Rec(1, 1)])
    with pytest.raises(Oops, match="undo: undo of group 1, but nothing can be undone"):
        timeline.add(Back(2, 2, 1))
    with pytest.raises(Oops, match="redo: redo of group 1, but nothing is undone"):
        timeline.add(Forth(2, 2, 1))
    # Building a timeline skips a control record that does not apply, not an event.
    assert build(LOOSE, [Rec(1, 1), Back(2, 2, 1), Rec(3, 3)]).effective() == [
        Rec(1, 1),
        Rec(3, 3),
    ]
    with pytest.raises(Oops, match="log: group 2 is not the latest group in effect"):
        build(STRICT, [Rec(1, 1), Rec(2, 2), Rec(3, 3), Rec(4, 2)])
    with pytest.raises(Oops, match="log: a new group must start at its own seq, not 5"):
        build(STRICT, [Rec(1, 1), Rec(2, 2), Rec(3, 3), Rec(4, 5)])
    assert build(LOOSE, [Rec(1, 1), Rec(2, 2), Rec(3, 3), Rec(4, 2)]).groups[2][-1] == Rec(4, 2)


def test_a_copy_is_independent():
    timeline = build(LOOSE, [Rec(1, 1), Rec(2, 2)])
    probe = timeline.copy()
    probe.add(Back(3, 3, 2))
    probe.groups[1].append(Rec(9, 1))
    assert timeline.effective() == [Rec(1, 1), Rec(2, 2)] and probe.undone == {2}


# -------------------------------------------------------------------- the game
def test_a_game_log_that_undoes_its_header_still_opens(tmp_path):
    path = tmp_path / "g.jsonl"
    sides = [ev.SideSpec("American", "American"), ev.SideSpec("German", "German")]
    game = Game.create(path, "t", sides)
    game.close()
    with open(path, "ab") as log:
        log.write(ev.encode(ev.Undo(seq=2, grp=2, target=1)) + b"\n")
    reopened = Game.open(path, read_only=True)
    assert not reopened.can_undo() and reopened.state is not None
    assert list(history.build_timeline(reopened.records).active) == [1]
    reopened.close()
    with pytest.raises(Refusal, match="undo of group 1"):
        history.build_timeline(reopened.records[:1]).add(reopened.records[1])


# -------------------------------------------------------------------- the camp
def _camp(path):
    campaign = Campaign.create(path, options_from_mapping({"seed": "fixed"}))
    campaign.choose_action("loiter")
    campaign.close()
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_camp_log_that_undoes_its_set_up_is_refused_naming_the_line(tmp_path):
    path = tmp_path / "c.jsonl"
    rows = _camp(path)
    for target in (4, 1):  # the loiter, then the set-up
        seq = len(rows) + 1
        rows.append({"kind": "undo", "seq": seq, "v": 1, "grp": seq, "target": target})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(CampError, match=rf"^line {len(rows)}: undo of group 1, but nothing"):
        Campaign.load(path)


def test_a_camp_record_out_of_its_group_is_refused(tmp_path):
    path = tmp_path / "c.jsonl"
    rows = _camp(path)
    rows[-1]["grp"] = 1  # the last roll claims the set-up group, which is not the latest
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(CampError, match=rf"^line {len(rows)}: group 1 is not the latest"):
        Campaign.load(path)


def test_a_camp_log_whose_last_line_is_not_json_is_a_torn_tail(tmp_path):
    """What the game's reader does with a crash mid-write, the camp now does too."""
    path = tmp_path / "c.jsonl"
    _camp(path)
    first = Campaign.load(path)
    state = first.state
    first.close()
    intact = path.read_bytes()
    with open(path, "ab") as log:
        log.write(b"\x00\x00\x00\n")
    resumed = Campaign.load(path)
    assert resumed.state == state
    assert any("set aside" in w for w in resumed.warnings), resumed.warnings
    assert path.read_bytes() == intact
    resumed.close()


def test_an_auto_roll_lost_with_a_torn_tail_is_made_again_with_the_same_dice(tmp_path):
    unbroken = Campaign.create(tmp_path / "a.jsonl", options_from_mapping({"seed": "s"}))
    unbroken.choose_action("gather")  # the input, then the program's roll for it
    path = tmp_path / "b.jsonl"
    lines = (tmp_path / "a.jsonl").read_bytes().splitlines(keepends=True)
    assert json.loads(lines[-1])["kind"] == "action_roll"
    path.write_bytes(b"".join(lines[:-1]) + lines[-1][:20])  # the roll torn mid-write
    resumed = Campaign.load(path)
    assert resumed.state == unbroken.state
    assert path.read_bytes() == b"".join(lines)
    resumed.close()
    unbroken.close()
