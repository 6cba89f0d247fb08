"""Amending an entry that was entered with board facts it implied: the amendment's
line is read at the entry's place, the facts it would imply there are said with their
rule, and the way to record them where they stand is given as entries to type."""

from __future__ import annotations

import pytest

from stockade.core.book.game import Game
from stockade.core.commands import execute
from stockade.core.commands.execute import amend
from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal


def surrendered() -> Game:
    game = Game.in_memory(
        "amend", [ev.SideSpec("German", "German", 3), ev.SideSpec("American", "American", 3)]
    )
    for line in [
        "add German 4-6-7 as g1 at D4",
        "add American 6-6-6 as a1 at D5",
        "add American 6-6-6 as a2 at D5",
        "phase RtPh 1 German",
        'surrender a1 to g1 because "a2 has a rout path"',  # implies a1 broken: entry 6
    ]:
        execute(game, line)
    fact = game.records[5]
    assert isinstance(fact, ev.StatusChanged) and fact.implied and fact.handle == "a1"
    return game


def test_an_amendment_says_what_it_implies_and_how_to_record_it() -> None:
    game = surrendered()
    line = 'surrender a2 to g1 because "a1 has a rout path"'
    with pytest.raises(InputRefusal) as refused:
        amend(game, 7, line)
    said = str(refused.value)
    assert "records with it implied: a2 broken (A20.21: " in said, said
    assert "amend 6 break a2" in said and "then amend 7" in said, said
    amend(game, 6, "break a2")
    amend(game, 7, line)  # as the reply said: the fact, then the entry
    assert not game.conflicts
    assert game.state.units["a2"].guard == "g1" and not game.state.units["a1"].guard
