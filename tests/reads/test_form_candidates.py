"""The forms' fields a game settles, asked of the core: who may Massacre (judged by the
massacre's check, A20.4), which side may reject a surrender (A20.3), and whether the
Axis Minor own-borders question (A20.55 EXC) applies to the game at all."""

from __future__ import annotations

from stockade.core.book.game import Game
from stockade.core.commands import execute, verb_named
from stockade.core.model import events as ev
from stockade.core.reads import queries
from stockade.core.rules.escape import own_borders_asked


def game_with(sides: tuple[str, str], *lines: str) -> Game:
    game = Game.in_memory("test", [ev.SideSpec(n, n, 3) for n in sides])
    for line in lines:
        execute(game, line)
    return game


MASSACRE = (
    "add Russian 4-4-7 at D4",  # r1, the Guard
    "add Russian 4-4-7 at H8",  # r2, elsewhere
    "add German 4-6-7 at D5 broken",  # g1, surrenders to r1
    "add German 4-6-7 at K5",  # g2, armed, the prisoners' own side
    "phase RtPh 1 German",
    "surrender g1 to r1",
    "phase PFPh 2 Russian",
)


def test_only_the_guard_beside_its_prisoners_may_massacre_them() -> None:
    """A20.4: by the Guard in the victims' Location; not an enemy of the Guard's side,
    and the massacre picker asks the massacre's check, not 'any active unit'."""
    game = game_with(("Russian", "German"), *MASSACRE)
    legal = [c.handle for c in queries.massacre_units(game.state, ["g1"]) if c.legal]
    assert legal == ["r1"]
    spec = verb_named("massacre")
    assert spec is not None
    (by,) = [s for s in spec.slots if s.name == "by"]
    offered = by.offers()(game.state, {"units": ["g1"]})
    assert [c.handle for c in offered if c.legal] == ["r1"]


def test_the_one_side_that_may_reject_a_surrender() -> None:
    """A20.3: the rejection is a side's, the side other than the stack's."""
    game = game_with(
        ("Russian", "German"),
        "add Russian 4-4-7 at D4",
        "add Russian 4-4-7 at H8",
        "add German 4-6-7 at D5 broken",
        "phase RtPh 1 German",
    )
    assert queries.rejecting_side(game.state, ["g1"]) == "Russian"
    assert queries.rejecting_side(game.state, []) == ""


def test_the_own_borders_question_applies_only_with_axis_minor_and_russians() -> None:
    """A20.55 EXC: Axis Minor prisoners within their own borders, of a Russian captor."""
    assert not own_borders_asked(game_with(("German", "American")).state)
    assert not own_borders_asked(game_with(("Romanian", "American")).state)
    assert not own_borders_asked(game_with(("German", "Russian")).state)
    assert own_borders_asked(game_with(("Romanian", "Russian")).state)
