"""A strike takes an entry with the board facts it implied, as one undo does: the
escape and the break it implied (A20.55) stand or fall together, so a strike of either
never leaves the other alone (the escape in conflict, or a break no entry needs)."""

from __future__ import annotations

import pytest

from stockade.core.book.change import consequences
from stockade.core.book.game import Game
from stockade.core.commands import control, execute
from stockade.core.model import events as ev

LINES = [
    "add German 4-6-7 as g1 at D4",
    "add American 6-6-6 as a1 at D5 broken",
    "phase RtPh 1 German",
    "surrender a1 to g1",
    "phase CCPh 1 American",
    "escape a1 melee",  # implies g1 broken: entry 7 (the break), entry 8 (the escape)
]


def escaped() -> Game:
    game = Game.in_memory(
        "strike", [ev.SideSpec("German", "German", 3), ev.SideSpec("American", "American", 3)]
    )
    for line in LINES:
        execute(game, line)
    (fact, escape) = game.records[-2:]
    assert isinstance(fact, ev.StatusChanged) and fact.implied and fact.seq == 7
    assert isinstance(escape, ev.EscapeAttempted) and escape.seq == 8
    return game


@pytest.mark.parametrize("seq", [7, 8])
def test_a_strike_of_the_fact_or_the_entry_takes_both(seq: int) -> None:
    game = escaped()
    preview = game.preview_strike(seq)
    assert preview.struck == [7, 8]
    assert preview.new_conflicts == [] and not preview.later  # nothing left in conflict
    other = 15 - seq
    assert consequences(preview)[0].startswith(f"would also strike entry {other}: ")
    outcome = control(game, "strike", seq)
    assert outcome.change is not None and outcome.change.struck == [7, 8]
    assert "entries 7 and 8" in outcome.message
    assert not game.conflicts
    g1, a1 = game.state.units["g1"], game.state.units["a1"]
    assert not g1.broken and not a1.melee and a1.guard == "g1"
    back = control(game, "unstrike", other)  # either one brings both back
    assert back.change is not None and back.change.restored == [7, 8]
    assert game.state.units["g1"].broken and game.state.units["a1"].melee
    assert not game.conflicts


def test_a_plain_entry_is_struck_alone() -> None:
    game = escaped()
    assert game.preview_strike(4).struck == [4]


def test_the_strikes_are_written_and_read_back(tmp_path) -> None:
    """The two strike records are in the log: the game opened again is the same."""
    path = tmp_path / "strike.jsonl"
    sides = [ev.SideSpec("German", "German", 3), ev.SideSpec("American", "American", 3)]
    game = Game.create(path, "strike", sides)
    for line in LINES:
        execute(game, line)
    control(game, "strike", 7, "the Guard was not broken")
    game.close()
    again = Game.open(path)
    try:
        assert [r.target for r in again.records[-2:] if isinstance(r, ev.Strike)] == [7, 8]
        assert not again.state.units["g1"].broken and not again.conflicts
        assert [e.seq for e in again.effective][-1] == 6
    finally:
        again.close()
