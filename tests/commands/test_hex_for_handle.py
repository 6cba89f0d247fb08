"""A Location typed where a unit is wanted (``melee Q5 off``) is refused with the way
to name the units there (``@Q5``), not with "add it first"."""

from __future__ import annotations

import pytest

from stockade.core.book.game import Game
from stockade.core.commands import execute
from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal


def test_a_location_where_a_unit_is_wanted_is_told_the_stack_mark() -> None:
    game = Game.in_memory(
        "t", [ev.SideSpec("German", "German", 3), ev.SideSpec("Russian", "Russian", 3)]
    )
    execute(game, "add German 4-6-7 Q5")
    with pytest.raises(InputRefusal) as refused:
        execute(game, "break q5")
    said = str(refused.value)
    assert "no unit 'q5' in this game" in said
    assert "Q5 is a Location: @Q5 names the units there" in said, said
    assert "add it first" not in said


def test_a_word_that_is_no_location_keeps_the_old_hint() -> None:
    game = Game.in_memory(
        "t", [ev.SideSpec("German", "German", 3), ev.SideSpec("Russian", "Russian", 3)]
    )
    execute(game, "add German 4-6-7 Q5")
    with pytest.raises(InputRefusal) as refused:
        execute(game, "break Z9")
    assert "add it first" in str(refused.value)
