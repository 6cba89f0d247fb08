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


def two_prisoners() -> Game:
    """a1 held by g1 (Good Order) in D4, a2 held by g2 (broken) in F4; in the CCPh
    entry 12 ``escape a1 melee`` was entered, implying g1 broken (entry 11, A20.55)."""
    game = Game.in_memory(
        "amend", [ev.SideSpec("German", "German", 3), ev.SideSpec("American", "American", 3)]
    )
    for line in [
        "add German 4-6-7 as g1 at D4",
        "add German 4-6-7 as g2 at F4",
        "add American 6-6-6 as a1 at D5 broken",
        "add American 6-6-6 as a2 at F5 broken",
        "phase RtPh 1 German",
        "surrender a1 to g1",
        "surrender a2 to g2",
        "phase CCPh 1 American",
        "break g2",
        "escape a1 melee",
    ]:
        execute(game, line)
    fact, escape = game.records[-2:]
    assert isinstance(fact, ev.StatusChanged) and fact.implied and fact.handle == "g1"
    assert isinstance(escape, ev.EscapeAttempted) and (fact.seq, escape.seq) == (11, 12)
    return game


def test_an_amendment_that_no_longer_implies_a_recorded_fact_is_refused_saying_so() -> None:
    """The escape was a2's (its Guard g2 already broken): amended so, nothing implies g1
    broken any more, and the board would keep a break no one saw. The amendment is
    refused naming the fact, why it was recorded and what to do; nothing is written."""
    game = two_prisoners()
    before = list(game.records)
    for preview in (True, False):
        with pytest.raises(InputRefusal) as refused:
            amend(game, 12, "escape a2 melee", preview=preview)
        said = str(refused.value)
        assert "entry 11 (g1 broken) was recorded because entry 12 implied it" in said, said
        assert "'escape a2 melee' does not imply it" in said, said
        assert "strike entry 12 (the facts it implied go with it)" in said, said
    assert list(game.records) == before and game.state.units["g1"].broken


def test_an_amendment_implying_the_same_fact_is_written() -> None:
    game = two_prisoners()
    amend(game, 12, "escape a1 guard-dies")
    assert not game.conflicts and game.state.units["g1"].broken
    assert game.state.units["g1"].status == "eliminated"
