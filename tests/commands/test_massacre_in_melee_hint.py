"""A Massacre refused because the unit is in Melee (A20.4) says how to record that
the Melee has ended, when the board shows it has."""

from __future__ import annotations

import pytest

from stockade.core.book.game import Game
from stockade.core.commands import execute
from stockade.core.model import events as ev
from stockade.core.model.errors import RuleRefusal


def test_a_massacre_refused_in_melee_names_the_entry_that_ends_it() -> None:
    game = Game.in_memory(
        "t", [ev.SideSpec("Russian", "Russian", 3), ev.SideSpec("German", "German", 3)]
    )
    for line in [
        "add Russian 4-4-7 as r1 at D4",
        "add German 4-6-7 as g1 at D5 broken",
        "add German 4-6-7 as g2 at D4",
        "phase RtPh 1 Russian",
        "surrender g1 to r1",
        "melee r1 g2",
        "phase PFPh 2 Russian",
    ]:
        execute(game, line)
    with pytest.raises(RuleRefusal) as refused:
        execute(game, "massacre g1 by r1")
    said = str(refused.value)
    assert said.startswith("A20.4: ") and "is in Melee and may not Massacre" in said
    assert "if the Melee has ended on the board, record it first: melee r1 off" in said, said
