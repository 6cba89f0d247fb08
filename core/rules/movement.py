"""Moving on the board, as far as A20 limits it: unarmed units never enter a Known
enemy-occupied Location (A20.5, A20.54), and a unit in Melee moves only by Withdrawal
in the CCPh (A20.54 "may move no farther"; A11.2)."""

from __future__ import annotations

from stockade.core.model.errors import Refusal, RuleRefusal
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import ACTIVE, PRISONER, UNARMED, Unit
from stockade.core.rules.lookup import describe


def known_enemy_at(state: GameState, u: Unit, location: str) -> Unit | None:
    """An enemy unit recorded in ``location`` that makes it enemy-occupied for ``u``:
    armed, or a free unarmed one. Prisoners of ``u``'s side stand under a friendly
    Guard and do not occupy it. Every recorded unit counts as Known (concealment is on
    the board: the player vouches by making the entry; docs/rulings.md)."""
    for o in state.on_board_at(location):
        if o.side != u.side and o.location == location and o.status in (ACTIVE, UNARMED):
            return o
    return None


def move_refusal(state: GameState, u: Unit, to: str) -> Refusal | None:
    """Why ``u`` may not move from its Location to ``to``, or None."""
    if u.melee and u.status != PRISONER:
        if state.phase != "CCPh":
            return RuleRefusal(
                "A20.54",
                f"{describe(u)} is in Melee in {u.location} and may move no farther: only "
                "Withdrawal (A11.2), in the CCPh, leaves a Melee",
                f"if the Melee has ended on the board, record it first: melee {u.handle} off",
            )
        if any(p.melee for p in state.prisoners_of(u.handle)):
            return RuleRefusal(
                "A20.55",
                f"{describe(u)} is in Melee with its own prisoners; it leaves them only by "
                "Infiltration (A11.22)",
            )
    if u.status == UNARMED and to:
        enemy = known_enemy_at(state, u, to)
        if enemy is not None:
            return RuleRefusal(
                "A20.54",
                f"{describe(u)} is unarmed and may not enter {to}: {describe(enemy)} is "
                "there, and an unarmed unit never enters a Known enemy-occupied Location "
                "(A20.5, A20.54)",
            )
    return None
