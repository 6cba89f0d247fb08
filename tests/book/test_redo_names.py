"""A redone entry keeps the names and time it was given only while they still hold.

``core.book.writer`` does not make the names and the turn / phase of a redone group's
entries again (``Writer.named``): undo and redo go last in, first out, so a group
redone folds on the very records it folded on before. A strike or unstrike in between
changes those records: then they are made again, as a fresh fold of the log makes them.
"""

from __future__ import annotations

from stockade.core.book.game import Game
from stockade.core.commands import run_script
from stockade.core.model import events as ev


def sides() -> list[ev.SideSpec]:
    return [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]


def fresh_names(game: Game) -> dict[int, object]:
    """The names a fold of the whole log from nothing gives each effective entry."""
    again = Game.load(list(game.records))
    return {r.seq: again.names.by_seq.get(r.seq) for r in again.effective}


def test_a_redo_after_a_strike_names_the_units_as_they_stand_then():
    game = Game.in_memory("Redo", sides())
    run_script(game, ["add American 6-6-7 at Q4", "move a1 R4", "move a1 S4"])
    move, last = game.records[-2].seq, game.records[-1].seq
    assert game.names.by_seq[last][0][2] == "R4"  # a1 stood in R4 before the last move
    game.undo()
    game.strike(move)  # a1 never went to R4: the last move now starts from Q4
    game.redo()
    assert game.names.by_seq[last][0][2] == "Q4"
    assert {r.seq: game.names.by_seq.get(r.seq) for r in game.effective} == fresh_names(game)


def test_an_undo_and_redo_keep_the_names_a_fold_gives():
    game = Game.in_memory("Redo", sides())
    run_script(game, ["add American 6-6-7 at Q4", "move a1 R4", "move a1 S4", "move a1 T4"])
    for _ in range(2):
        game.undo()
    game.redo()
    game.redo()
    assert {r.seq: game.names.by_seq.get(r.seq) for r in game.effective} == fresh_names(game)


def test_a_redo_after_a_strike_takes_the_turn_and_phase_as_they_stand_then():
    game = Game.in_memory("Redo", sides())
    run_script(game, ["add American 6-6-7 at Q4", "phase RtPh 1 American", "move a1 R4"])
    phase, last = game.records[-2].seq, game.records[-1].seq
    assert game.when[last][1] == "RtPh"
    game.undo()
    game.strike(phase)
    game.redo()
    again = Game.load(list(game.records))
    assert game.when[last] == again.when[last] and game.when[last][1] != "RtPh"
