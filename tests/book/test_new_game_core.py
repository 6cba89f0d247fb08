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


def test_a_nationality_must_be_a_known_one_and_the_list_is_given():
    with pytest.raises(InputRefusal, match="'Heer' is not known") as refused:
        side_spec("Germans", "Heer")
    assert "German" in refused.value.hint and "Russian" in refused.value.hint
    assert "SS" not in refused.value.hint.split(", ")  # SS is a trait, not a nationality


def test_ss_is_pointed_at_the_trait_not_taken_as_a_nationality():
    # A side made "SS" made every unit of it SS: no Heer unit could then surrender to
    # Russians (A20.21). SS units are German units with the +ss trait.
    with pytest.raises(InputRefusal, match="SS") as refused:
        side_spec("Germans", "ss", "4")
    assert "German" in str(refused.value) and "+ss" in str(refused.value)


def test_a_nationality_is_kept_as_the_table_spells_it():
    assert side_spec("Germans", " german ").nationality == "German"
