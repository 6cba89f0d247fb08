"""Undo, redo, strike/unstrike, abandoned branches, replay and a fresh fold."""

from __future__ import annotations

import dataclasses

import pytest

from stockade.core.book.game import Game
from stockade.core.model import events as ev
from stockade.core.model.errors import HistoryRefusal, Refusal
from tests.rules.kit import DE, US, add, new_game, ok, phase, with_prisoners


def dump(state) -> dict:
    """A canonical view of what the game holds (units, sides, casualties, clock)."""
    return {
        "units": {h: dataclasses.asdict(u) for h, u in sorted(state.units.items())},
        "sides": {n: dataclasses.asdict(s) for n, s in sorted(state.sides.items())},
        "casualties": [dataclasses.asdict(c) for c in state.casualties],
        "clock": (state.turn, state.attacker, state.phase, state.ended),
        "scrounged": sorted(state.scrounged),
    }


def _game_with_transfer():
    game = with_prisoners()  # capture of g1 by a1 is the last entry of this set-up
    capture_seq = game.records[-1].seq
    add(game, "a2", US, "squad", "6-6-7")
    phase(game, "APh")
    ok(game, ev.Transferred(units=["g1"], to_guard="a2"))
    return game, capture_seq, game.records[-1].seq


def test_undo_then_redo_is_the_identity():
    game, _, _ = _game_with_transfer()
    before = dump(game.state)
    game.undo()
    assert game.state.units["g1"].guard == "a1"
    game.undo()
    assert game.state.phase == "RtPh"
    game.redo()
    game.redo()
    assert dump(game.state) == before
    assert dump(Game.load(game.records).state) == before


def test_undo_acts_on_a_whole_command_group():
    game = new_game()
    game.submit(
        [
            ev.UnitEntered(handle="a1", side=US, unit_kind="squad", counter="6-6-7"),
            ev.UnitEntered(handle="g1", side=DE, unit_kind="squad", counter="4-6-7", broken=True),
        ]
    )
    assert set(game.state.units) == {"a1", "g1"}
    game.undo()
    assert game.state.units == {}
    with pytest.raises(Refusal):
        game.undo()  # the header is never undone


def test_strike_an_early_capture_flags_the_later_transfer_and_unstrike_restores():
    game, capture_seq, transfer_seq = _game_with_transfer()
    before = dump(game.state)
    preview = game.preview_strike(capture_seq)
    assert preview.new_conflicts == [transfer_seq] and preview.preview
    assert [later.seq for later in preview.later] == [transfer_seq]
    assert preview.later[0].conflict  # named with the reason it no longer holds
    assert dump(game.state) == before  # a preview writes and changes nothing
    newly = game.strike(capture_seq, reason="never surrendered")
    assert newly.new_conflicts == [transfer_seq] and newly.struck == [capture_seq]
    assert game.conflicts[transfer_seq].text  # kept with its reason
    history = {h.seq: h for h in game.history()}
    assert history[capture_seq].status == "struck"
    assert history[capture_seq].reason == "never surrendered"
    assert history[transfer_seq].status == "conflict" and history[transfer_seq].reason
    assert game.state.units["g1"].status == "active"  # the fold skipped both
    assert any(r.seq == transfer_seq for r in game.effective)  # but nothing is dropped
    assert dump(Game.load(game.records).state) == dump(game.state)
    game.unstrike(capture_seq)
    assert not game.conflicts
    assert dump(game.state) == before
    assert dump(Game.load(game.records).state) == before


def test_new_entry_after_undo_leaves_an_abandoned_branch_and_redo_is_refused():
    game, _, transfer_seq = _game_with_transfer()
    game.undo()
    phase(game, "CCPh")
    history = {h.seq: h for h in game.history()}
    assert history[transfer_seq].status == "abandoned"
    assert game.records[transfer_seq - 1].seq == transfer_seq  # still in the file
    with pytest.raises(Refusal) as info:
        game.redo()
    assert isinstance(info.value, HistoryRefusal) and info.value.action == "redo"
    assert dump(Game.load(game.records).state) == dump(game.state)


def test_state_at_replays_to_any_entry():
    game, capture_seq, transfer_seq = _game_with_transfer()
    at_capture = game.state_at(capture_seq)
    assert at_capture.units["g1"].guard == "a1" and "a2" not in at_capture.units
    assert game.state_at(capture_seq - 1).units["g1"].status == "active"
    assert dump(game.state_at(transfer_seq)) == dump(game.state)


def test_fresh_fold_of_the_records_equals_the_live_state():
    game, capture_seq, _ = _game_with_transfer()
    game.undo()
    game.redo()
    game.strike(capture_seq)
    game.unstrike(capture_seq)
    phase(game, "CCPh")
    assert dump(Game.load(game.records).state) == dump(game.state)


def test_refused_submission_writes_nothing():
    game = with_prisoners()
    count = len(game.records)
    with pytest.raises(Refusal):
        game.submit([ev.Transferred(units=["g1"], to_guard="a1")])
    assert len(game.records) == count


def test_multi_event_submission_is_checked_as_a_whole():
    game = new_game()
    with pytest.raises(Refusal):
        game.submit(
            [
                ev.UnitEntered(handle="a1", side=US, unit_kind="squad", counter="6-6-7"),
                ev.StatusChanged(handle="zz", broken=True),
            ]
        )
    assert game.state.units == {} and len(game.records) == 1


def test_undo_to_here_is_one_write_and_each_group_can_be_redone(tmp_path):
    from stockade.core.book.game import Game
    from stockade.core.model import events as ev

    path = tmp_path / "g.jsonl"
    game = Game.create(
        path,
        "undo-to",
        [ev.SideSpec("German", "German", 3), ev.SideSpec("American", "American", 4)],
    )
    for i in range(1, 5):
        game.submit(
            [ev.UnitEntered(handle=f"g{i}", side="German", unit_kind="squad", counter="4-6-7")]
        )
    anchor = game.records[2].seq  # after g2 entered
    before = Game.load(game.records[:3]).state
    writes = []
    real = game.journal.append_many
    game.journal.append_many = lambda lines: (writes.append(len(lines)), real(lines))[1]
    undone = game.undo_to(anchor)
    assert writes == [2] and len(undone.appended) == 2 and len(undone.undone) == 2
    assert set(game.state.units) == set(before.units) == {"g1", "g2"}
    assert Game.open(path, read_only=True).state.units.keys() == {"g1", "g2"}
    game.redo()
    game.redo()
    assert set(game.state.units) == {"g1", "g2", "g3", "g4"}
