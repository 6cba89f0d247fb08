"""The campaign log: fold/replay identity, undo/redo, save and resume, bad lines."""

from __future__ import annotations

import json

import pytest

from stockade.core.camp.campaign import Campaign, options_from_mapping
from stockade.core.camp.errors import CampError
from stockade.core.camp.fold import replay
from stockade.core.camp.logfile import load_log


def play_out(campaign: Campaign, max_moves: int = 500) -> None:
    """Gather to 2 kit, then escape; a full campaign driven through the public calls."""
    for _ in range(max_moves):
        if campaign.state.over:
            return
        wanted = campaign.need()
        if wanted.phase == "action":
            campaign.choose_action(wanted.choices[-1] if len(wanted.choices) > 1 else "malinger")
        elif wanted.phase == "escape_choice":
            campaign.choose_escape(campaign.state.kit >= 2)
    raise AssertionError("campaign did not end")


@pytest.fixture
def log_path(tmp_path):
    return tmp_path / "camp.jsonl"


def new(path, **options):
    return Campaign.create(path, options_from_mapping({"seed": "fixed", **options}))


def test_records_are_numbered_and_tagged(log_path):
    c = new(log_path)
    c.choose_action("loiter")
    c.close()
    rows = [json.loads(line) for line in log_path.read_text().splitlines()]
    assert [r["seq"] for r in rows] == list(range(1, len(rows) + 1))
    assert all(r["v"] == 1 for r in rows)
    assert [r["kind"] for r in rows[:4]] == ["camp", "capture", "health", "action"]
    assert rows[0]["table"]["meta"]["label"] == "HOUSE RULE"  # the rules travel with the log


def test_fold_of_the_log_equals_the_live_state(log_path):
    c = new(log_path)
    play_out(c)
    c.close()
    loaded = load_log(log_path)
    assert loaded.state == c.state
    assert replay(loaded.header, loaded.timeline.effective()) == c.state


def test_resume_continues_with_the_same_dice_as_an_unbroken_game(tmp_path):
    unbroken = new(tmp_path / "a.jsonl")
    broken = new(tmp_path / "b.jsonl")
    for campaign in (unbroken, broken):
        for _ in range(3):
            campaign.choose_action("loiter")
    broken.close()
    resumed = Campaign.load(tmp_path / "b.jsonl")
    assert resumed.state == unbroken.state and resumed.state.months_in_captivity == 3
    play_out(unbroken)
    play_out(resumed)
    assert resumed.state == unbroken.state  # same seed, same moves: the same rolls
    resumed.close()
    assert Campaign.load(tmp_path / "b.jsonl").state == unbroken.state


def test_undo_and_redo_are_appended_and_replayed(log_path):
    c = new(log_path)
    before = c.state
    c.choose_action("gather")
    after = c.state
    lines_before_undo = len(log_path.read_text().splitlines())
    c.undo()
    assert c.state == before
    assert len(log_path.read_text().splitlines()) == lines_before_undo + 1  # nothing deleted
    c.redo()
    assert c.state == after
    c.undo()
    c.choose_action("loiter")  # a new move forgets the redo
    assert not c.can_redo()
    with pytest.raises(CampError, match="nothing to redo"):
        c.redo()
    c.close()
    assert Campaign.load(log_path).state == c.state


def test_undo_then_the_same_choice_rolls_the_same_dice(log_path):
    c = new(log_path)
    c.choose_action("gather")
    first = c.state
    c.undo()
    c.choose_action("gather")
    assert c.state == first


def test_cannot_undo_the_setup(log_path):
    c = new(log_path)
    assert not c.can_undo()
    with pytest.raises(CampError, match="nothing to undo"):
        c.undo()


def test_replay_to_any_point(log_path):
    c = new(log_path)
    c.choose_action("loiter")
    c.choose_action("loiter")
    assert c.state_at(2).months_in_captivity == 0  # capture and Health only
    assert c.state_at(len(c.effective_events())) == c.state


def test_physical_dice_are_logged_as_typed(log_path):
    c = new(log_path, dice="physical")
    assert c.need().phase == "capture" and c.need().sides == (6, 12)
    c.enter_dice((3, 7))
    c.enter_dice((2,))
    c.choose_action("gather")
    assert c.need().phase == "action_roll"
    with pytest.raises(CampError, match="d6 shows 1 to 6, not 9"):
        c.enter_dice((9,))
    c.enter_dice((6,))
    assert (c.state.capture_year, c.state.capture_month, c.state.health, c.state.kit) == (
        1941,
        7,
        5,
        2,
    )
    c.undo()  # a typed die is its own input: undo takes back just that one
    assert c.need().phase == "action_roll"
    c.close()
    rows = [json.loads(line) for line in log_path.read_text().splitlines()]
    assert rows[1]["dice"] == [3, 7] and rows[1]["hand"] is True


def test_a_malformed_line_is_named_not_a_traceback(log_path):
    c = new(log_path)
    c.choose_action("loiter")
    c.close()
    lines = log_path.read_text().splitlines()
    lines[3] = lines[3].replace('"action":"loiter"', '"action":7')
    log_path.write_text("\n".join(lines) + "\n")
    with pytest.raises(
        CampError, match=r"^line 4: bad 'action' record: field 'action': expected `str`, got `int`"
    ):
        Campaign.load(log_path)
    lines[3] = "{not json"
    log_path.write_text("\n".join(lines) + "\n")
    with pytest.raises(CampError, match="^line 4: not valid JSON"):
        Campaign.load(log_path)


def test_a_log_that_breaks_the_rules_is_named_by_line(log_path):
    c = new(log_path)
    c.close()
    rows = log_path.read_text().splitlines()
    capture = json.loads(rows[1])
    capture["dice"] = [9, 1]
    rows[1] = json.dumps(capture)
    log_path.write_text("\n".join(rows) + "\n")
    with pytest.raises(CampError, match="^line 2: a d6 shows 1 to 6, not 9"):
        Campaign.load(log_path)


def test_a_gap_in_seq_is_refused(log_path):
    c = new(log_path)
    c.choose_action("loiter")
    c.close()
    rows = log_path.read_text().splitlines()
    del rows[2]
    log_path.write_text("\n".join(rows) + "\n")
    with pytest.raises(CampError, match="^line 3: sequence number 4, expected 3"):
        Campaign.load(log_path)


def test_a_torn_last_line_is_set_aside(log_path):
    c = new(log_path)
    c.choose_action("loiter")
    state = c.state
    c.close()
    with open(log_path, "ab") as f:
        f.write(b'{"kind":"action","act')
    resumed = Campaign.load(log_path)
    assert resumed.state == state
    assert any("set aside" in w for w in resumed.warnings)
    (side,) = log_path.parent.glob("camp.jsonl.torn-*")  # never overwrites an earlier one
    assert side.read_bytes() == b'{"kind":"action","act'
    resumed.choose_action("loiter")  # and the log takes new records cleanly
    resumed.close()
    assert Campaign.load(log_path).state == resumed.state


def test_not_a_camp_log(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text("")
    with pytest.raises(CampError, match="empty"):
        Campaign.load(path)
    with pytest.raises(CampError, match="already exists"):
        Campaign.create(path, options_from_mapping({}))


def test_unknown_option_is_refused():
    with pytest.raises(CampError, match="bad camp option"):
        options_from_mapping({"dice": "loaded"})
