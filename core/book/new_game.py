"""A new game from what a player fills in: the sides' words, the scenario, who moves
first. Shared by ``stockade new`` and the app's new-game form; bad input is refused
with a ``Refusal`` tagged "input" that says what is wrong, and no file is made."""

from __future__ import annotations

from pathlib import Path

from stockade.core.book.game import Game
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal

DEFAULT_ELR = 3


def side_spec(name: str, nationality: str, elr: str = "") -> ev.SideSpec:
    """A side from its name, nationality and ELR as typed (ELR empty: 3)."""
    if not name.strip() or not nationality.strip():
        raise Refusal("input", "a side needs a name and a nationality")
    value = DEFAULT_ELR
    if elr.strip():
        try:
            value = int(elr)
        except ValueError:
            raise Refusal("input", f"the ELR must be a number 1-6, not '{elr.strip()}'") from None
    return ev.SideSpec(name=name.strip(), nationality=nationality.strip(), elr=value)


def create_game(
    path: Path, scenario: str, sides: list[ev.SideSpec], first_attacker: str = ""
) -> Game:
    """Create the game log at ``path``; ``first_attacker`` names a side (any case).

    Raises ``Refusal`` for input it cannot take or a header the rules refuse, and
    ``JournalError`` when the file cannot be made (it exists, no room)."""
    if not scenario.strip():
        raise Refusal("input", "a game needs a scenario name")
    if len(sides) != 2:
        raise Refusal("input", f"a game has two sides; {len(sides)} given")
    attacker = ""
    if first_attacker:
        names = {s.name.lower(): s.name for s in sides}
        attacker = names.get(first_attacker.lower(), "")
        if not attacker:
            raise Refusal("input", f"the first attacker '{first_attacker}' is not one of the sides")
    return Game.create(Path(path), scenario.strip(), sides, first_attacker=attacker)
