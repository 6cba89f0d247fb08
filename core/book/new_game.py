"""A new game from what a player fills in: the sides' words, the scenario, who moves
first, the Victory Conditions if any. Shared by ``stockade new`` and the app's new-game
form; bad input is refused with an ``InputRefusal`` that says what is wrong, and no
file is made."""

from __future__ import annotations

from pathlib import Path

from stockade.core.book.game import Game
from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal
from stockade.core.model.units import new_side_nationality
from stockade.core.model.victory import VictoryConditions

DEFAULT_ELR = 3
# the sides a new game has when the player names none: (name, nationality)
DEFAULT_SIDES = (("American", "American"), ("German", "German"))


def side_spec(name: str, nationality: str, elr: str = "") -> ev.SideSpec:
    """A side from its name, nationality and ELR as typed (ELR empty: 3)."""
    if not name.strip() or not nationality.strip():
        raise InputRefusal("a side needs a name and a nationality")
    value = DEFAULT_ELR
    if elr.strip():
        try:
            value = int(elr)
        except ValueError:
            raise InputRefusal(f"the ELR must be a number 1-6, not '{elr.strip()}'") from None
    return ev.SideSpec(name=name.strip(), nationality=new_side_nationality(nationality), elr=value)


def create_game(
    path: Path,
    scenario: str,
    sides: list[ev.SideSpec],
    first_attacker: str = "",
    conditions: VictoryConditions | None = None,
    strict: bool = False,
) -> Game:
    """Create the game log at ``path``; ``first_attacker`` names a side (any case);
    ``conditions``, the scenario's Victory Conditions, are its first entry; ``strict``:
    the players record every board fact, no entry implies one (kept in the header).

    Raises ``Refusal`` for input it cannot take or a header (or conditions) the rules
    refuse, before any file is made, and ``JournalError`` when the file cannot be made
    (it exists, no room)."""
    if not scenario.strip():
        raise InputRefusal("a game needs a scenario name")
    if len(sides) != 2:
        raise InputRefusal(f"a game has two sides; {len(sides)} given")
    attacker = ""
    if first_attacker:
        names = {s.name.lower(): s.name for s in sides}
        attacker = names.get(first_attacker.lower(), "")
        if not attacker:
            raise InputRefusal(f"the first attacker '{first_attacker}' is not one of the sides")
    if conditions is not None:  # refused, if at all, before any file is made
        trial = Game.in_memory(scenario.strip(), sides, first_attacker=attacker)
        trial.submit([ev.VictorySet(conditions=conditions)])
    game = Game.create(Path(path), scenario.strip(), sides, first_attacker=attacker, strict=strict)
    if conditions is not None:
        game.submit([ev.VictorySet(conditions=conditions)])
    return game
