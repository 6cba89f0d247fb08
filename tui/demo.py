"""The built-in demo game, made from a short command script when the package ships no
``sample_games/demo.jsonl``. Written only where it is asked (the user's data dir)."""

from __future__ import annotations

from pathlib import Path

from stockade.core.book.game import Game
from stockade.core.commands import run_script
from stockade.core.model.events import SideSpec

SCENARIO = "Demo: a hero's prisoners"
SIDES = [SideSpec("American", "American", 4), SideSpec("German", "German", 3)]
SCRIPT = [
    "add American 1-4-9 hero as h1 at F4",
    "add American 9-2 as a1 at H5",
    "add American 3-4-7 hs as a2 at H5",
    "add German 2-4-7 hs as g1 at F3 broken",
    "add German 2-4-7 hs as g2 at F3 broken",
    "add German 2-2-8 crew as g3 at F3 broken",
    "add German 4-6-7 as g4 at H6 broken",
    "phase RtPh 1 American",
    "surrender g1 g2 g3 to h1 merge g1+g2",
    "surrender g4 to a1",
    "next",
]


def build_demo(target: Path) -> Path:
    game = Game.create(Path(target), SCENARIO, SIDES, first_attacker="American")
    try:
        run_script(game, SCRIPT)
    finally:
        game.close()
    return Path(target)
