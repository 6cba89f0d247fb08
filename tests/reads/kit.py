"""Games the reads' tests play, shared with the TUI's tests (a plain module, not a test
module)."""

from __future__ import annotations

from stockade.core.book.game import Game
from stockade.core.commands import execute
from stockade.core.model import events as ev

PLAYTHROUGH_APH = [  # docs/playthrough/game_script.py, up to the CC capture
    "add British 4-5-8 4-5-8 at Q5",
    "add British 4-5-8 at R6",
    "add German 8-1 4-6-7 2-4-7 hs at P4",
    "add German 4-6-7 2-4-7 hs at R5",
    "phase PFPh 1 British",
    "break g1 g2 g3",
    "surrender g1 g2 g3 to b1",
    "transfer g2 to b2",
    "move b3 R5",
]


def escape_kills_a_hs_guard() -> Game:
    """A German squad and HS, captured by a British HS, escape and kill it in CC: the HS
    may rearm from it, the squad may not (A20.551: equal or smaller size)."""
    game = Game.in_memory("R", [ev.SideSpec("b", "British", 3), ev.SideSpec("g", "German", 3)])
    for line in [
        "add b 2-4-8 hs as b1 at R6",
        "add g 4-6-7 as g1 at R5",
        "add g 2-4-7 hs as g2 at R5",
        "phase APh 1 b",
        "move b1 R5",
        "capture g1 g2 by b1",
        "phase PFPh 2 g",
        "break b1",
        "escape g1 g2 guard-dies",
    ]:
        execute(game, line)
    return game
