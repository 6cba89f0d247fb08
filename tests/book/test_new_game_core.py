"""A new game from the words a player fills in (core.book.new_game): shared by
``stockade new`` and the app's form; bad input refused, tagged "input", no file made."""

from __future__ import annotations

import pytest

from stockade.core.book.new_game import create_game, side_spec
from stockade.core.model.errors import InputRefusal, Refusal


def test_a_game_from_the_words(tmp_path):
    sides = [side_spec("Americans", "American", "4"), side_spec("Germans", "German")]
    game = create_game(tmp_path / "g.jsonl", " Orchard ", sides, "germans")
    try:
        assert game.state.scenario == "Orchard"
        assert [s.elr for s in sides] == [4, 3]
        assert game.records[0].first_attacker == "Germans"
    finally:
        game.close()


@pytest.mark.parametrize(
    "words, scenario, attacker, says",
    [
        ((("A", "American", "x"),), "S", "", "ELR must be a number"),
        ((("", "American", ""),), "S", "", "needs a name and a nationality"),
        ((("A", "American", ""), ("G", "German", "")), "", "", "scenario name"),
        ((("A", "American", ""), ("G", "German", "")), "S", "Russians", "not one of the sides"),
        ((("A", "American", ""),), "S", "", "two sides; 1 given"),
    ],
)
def test_bad_input_is_refused_and_makes_no_file(tmp_path, words, scenario, attacker, says):
    path = tmp_path / "g.jsonl"
    with pytest.raises(Refusal, match=says) as refused:
        create_game(path, scenario, [side_spec(*w) for w in words], attacker)
    assert isinstance(refused.value, InputRefusal)
    assert not path.exists()
