"""The roster speaks the side panels' words for a unit's state, and filters by the
counter and Location as the board shows them."""

from __future__ import annotations

from stockade.core.book.game import Game
from stockade.core.commands import run_script
from stockade.core.model import events as ev
from stockade.core.reads.roster import roster
from stockade.core.reads.views import status_words


def _game() -> Game:
    g = Game.in_memory(
        "t", [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]
    )
    run_script(
        g,
        [
            "add American 6-6-6 at Q4",
            "add German 8-1 4-6-7 at Q5 broken",
            "add German 4-6-7 at P4",
            "phase RtPh",
            "surrender g1 g2 to a1",
            "next",
            "abandon g1 g2",
        ],
    )
    return g


def test_a_freed_leader_is_good_order_like_any_other_unit():
    state = _game().state
    rows = {r.handle: r for r in roster(state)}
    assert state.units["g1"].status == "active"  # an abandoned SMC is armed at once
    assert rows["g1"].status == "Good Order"
    assert rows["a1"].status == "Good Order"


def test_the_roster_uses_the_side_panels_words():
    state = _game().state
    rows = {r.handle: r for r in roster(state)}
    assert rows["g2"].status == ", ".join(status_words(state.units["g2"]))
    assert rows["g2"].status.startswith("unarmed")


def test_the_roster_filters_by_counter_and_location():
    state = _game().state
    assert [r.handle for r in roster(state) if r.matches("4-6-7@p4")] == ["g3"]
    assert [r.handle for r in roster(state) if r.matches("4-6@")] == ["g3"]
    assert [r.handle for r in roster(state) if r.matches("@q")] == ["a1", "g1", "g2"]


def test_a_row_reads_whole_in_one_line():
    """What the roster shows of the highlighted row when its columns cut it."""
    rows = {r.handle: r for r in roster(_game().state)}
    assert (
        rows["g2"].whole == "g2: German squad (1)-0-6 [was 4-6-7 squad] in Q4, unarmed, abandoned"
    )
