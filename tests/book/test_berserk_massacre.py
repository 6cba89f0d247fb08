"""A20.4: "Any berserk unit in the same Location with prisoners, whether guarding them or
not, will at the start of that fire phase eliminate those prisoners (thereby losing
their berserk status)". The clock move that enters that fire phase records the
Massacre in the same entry; the reply says it; one undo takes all back."""

from __future__ import annotations

import pytest

from stockade.core.book.game import Game
from stockade.core.commands import execute, run_script
from stockade.core.model import events as ev
from stockade.core.reads.may import phase_hints
from stockade.core.reads.views import side_panel

SETUP = [
    "add German 4-6-7 K6 4-6-7 K6",
    "add Russian 4-4-7 K6 4-4-7 K6 4-4-7 K7",
    "capture g1 g2 by r1",  # in the German CCPh: the Russian r1 guards g1 g2
    "berserk r2",
    "turn",  # Russian RPh
]


@pytest.fixture
def game():
    g = Game.in_memory(
        "berserk", [ev.SideSpec("German", "German", 3), ev.SideSpec("Russian", "Russian", 3)]
    )
    run_script(g, SETUP)
    assert (g.state.attacker, g.state.phase) == ("Russian", "RPh")
    yield g
    g.close()


def _massacred(game: Game) -> bool:
    units = game.state.units
    return (
        units["g1"].status == "eliminated"
        and units["g2"].status == "eliminated"
        and not units["r2"].berserk
    )


@pytest.mark.parametrize("line", ["next", "skip", "phase PFPh"])
def test_the_clock_entering_the_fire_phase_records_the_berserk_massacre(game, line):
    """A20.4: the berserk r2 with r1's prisoners in K6 eliminates them at the start of
    the Russian PFPh: the clock move is the entry that records it, with its rule."""
    before = len(game.records)
    out = execute(game, line)
    assert game.state.phase == "PFPh"
    assert _massacred(game)
    assert game.state.sides["Russian"].no_quarter and game.state.sides["German"].elr == 4
    assert "implied: r2 massacres g1 g2 at the start of the Russian PFPh (A20.4: " in out.message
    assert "massacred German 4-6-7 (g1) and German 4-6-7 (g2)" in out.message
    kinds = [type(r) for r in game.records[before:]]
    assert kinds == [ev.PhaseSet, ev.Massacred]
    assert {r.grp for r in game.records[before:]} == {before + 1}  # one entry
    execute(game, "undo")
    assert game.state.phase == "RPh" and game.state.units["r2"].berserk
    assert game.state.units["g1"].status == "prisoner"
    assert not game.state.sides["Russian"].no_quarter


def test_a_clock_move_past_the_fire_phase_stops_there_for_the_massacre(game):
    """Passing the PFPh (``phase CCPh``, or an entry that moves the clock to the CCPh)
    records the Massacre in the PFPh, then goes on: one entry, one undo."""
    before = len(game.records)
    out = execute(game, "eliminate r3 by cc")
    phases = [r.phase for r in game.records[before:] if isinstance(r, ev.PhaseSet)]
    assert phases == ["PFPh", "CCPh"]
    assert _massacred(game) and game.state.units["r3"].status == "eliminated"
    assert "RPh -> CCPh" in out.message
    assert "implied: r2 massacres g1 g2 at the start of the Russian PFPh" in out.message
    # the massacred prisoners are not said to go free (their Guard did not fail them)
    assert "goes free" not in out.message
    execute(game, "undo")
    assert game.state.phase == "RPh" and game.state.units["g1"].status == "prisoner"


def test_the_massacre_typed_by_the_player_is_not_recorded_twice(game):
    out = execute(game, "massacre g1 g2 by r2")
    assert _massacred(game)
    assert "implied" not in out.message
    assert "goes free" not in out.message  # massacred, not freed by their Guard's fate
    assert sum(isinstance(r, ev.Massacred) for r in game.records) == 1


def test_nothing_is_forced_without_prisoners_in_the_berserk_units_location(game):
    """Prisoners elsewhere, a berserk unit of the side not firing, or a move back:
    no Massacre."""
    execute(game, "move r2 K7")
    execute(game, "next")
    assert game.state.units["g1"].status == "prisoner" and game.state.units["r2"].berserk


def test_a_defenders_berserk_unit_massacres_at_the_start_of_the_dfph():
    """The DEFENDER's fire phase is the DFPh: r2 goes berserk in the German Player
    Turn, so the German PFPh passes, and the DFPh is where it massacres. A clock move
    that jumps over Player Turns stops at the first such phase."""
    game = Game.in_memory(
        "berserk", [ev.SideSpec("German", "German", 3), ev.SideSpec("Russian", "Russian", 3)]
    )
    run_script(game, [*SETUP[:3], "turn", "phase CCPh", "turn", "berserk r2"])
    assert (game.state.turn, game.state.attacker, game.state.phase) == (2, "German", "RPh")
    execute(game, "next")
    assert game.state.phase == "PFPh" and game.state.units["g1"].status == "prisoner"
    out = execute(game, "turn")  # to the Russian RPh, over the German DFPh
    assert game.state.units["g1"].status == "eliminated"
    assert "at the start of the German DFPh" in out.message
    massacre = next(r for r in game.records if isinstance(r, ev.Massacred))
    stop = game.records[massacre.seq - 2]
    assert isinstance(stop, ev.PhaseSet) and (stop.attacker, stop.phase) == ("German", "DFPh")
    game.close()


def test_two_berserk_units_with_the_same_prisoners_both_calm_down(game):
    """Both "will ... eliminate those prisoners (thereby losing their berserk status)":
    one Massacre, recorded by the first; the other loses berserk status with it."""
    execute(game, "berserk r1")  # the Guard itself, "whether guarding them or not"
    out = execute(game, "next")
    massacres = [r for r in game.records if isinstance(r, ev.Massacred)]
    assert [m.by for m in massacres] == ["r1"]
    assert _massacred(game) and not game.state.units["r1"].berserk
    assert "implied: r2 no longer berserk" in out.message


def _hints(game: Game) -> str:
    return "\n".join(phase_hints(game.state))


def test_a_unit_gone_berserk_in_its_fire_phase_is_told_the_phase_the_clock_records_it():
    """r2 goes berserk during the Russian PFPh, whose start is past: the status line and
    the side panel name the Russian AFPh, and that is where the clock records it."""
    game = Game.in_memory(
        "berserk", [ev.SideSpec("German", "German", 3), ev.SideSpec("Russian", "Russian", 3)]
    )
    run_script(game, [*SETUP[:3], "turn", "phase PFPh", "berserk r1"])
    assert (game.state.attacker, game.state.phase) == ("Russian", "PFPh")
    told = "must Massacre them at the start of the Russian AFPh (A20.4)"
    assert "r1 is berserk with prisoners (g1, g2): it " + told in _hints(game)
    [guard] = [g for g in side_panel(game.state, "Russian").guards if g.unit.handle == "r1"]
    assert told in guard.limits
    out = execute(game, "phase DFPh")
    assert game.state.units["g1"].status == "prisoner"  # the AFPh is not yet entered
    assert "implied" not in out.message
    out = execute(game, "next")
    assert "implied: r1 massacres g1 g2 at the start of the Russian AFPh" in out.message
    game.close()


def test_a_berserk_unit_with_free_unarmed_units_may_but_need_not_massacre_them():
    """A20.4 binds a berserk unit to eliminate "prisoners": free unarmed units in its
    Location it may Massacre (it is berserk), and the clock records nothing."""
    game = Game.in_memory(
        "berserk", [ev.SideSpec("German", "German", 3), ev.SideSpec("Russian", "Russian", 3)]
    )
    run_script(game, [*SETUP[:3], "turn", "abandon g1 g2", "berserk r2", "next"])
    assert game.state.phase == "PFPh"
    assert {game.state.units[h].status for h in ("g1", "g2")} == {"unarmed"}
    hints = _hints(game)
    assert "must Massacre" not in hints
    assert "may Massacre g1, g2" in hints
    game.close()
