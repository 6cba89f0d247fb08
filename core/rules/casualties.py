"""The CVP a loss credits to the enemy, as the tally shows it (A20.5, A26.21)."""

from __future__ import annotations

from stockade.core.model.state import Casualty, GameState
from stockade.core.model.tracked_unit import PRISONER, UNARMED, Unit
from stockade.core.model.units import KIND_NAMES, UNARMED_COUNTER, unarmed_counter_text

# The rule a tally line cites for a unit's normal CVP when it is eliminated (a leader
# 1 + its negative leadership modifier): the seeds name A26.21 for what a unit is worth
# (004 files the crew Q&A under "A20.5, A26.21, & A26.222"; the article cites A26.222
# for the doubling of the next sub-rule). Every "eliminated, x 1" line cites it from here.
NORMAL_CVP_RULE = "A26.21"


def book_casualty(
    state: GameState,
    u: Unit,
    seq: int,
    multiplier: int,
    rule: str,
    why: str,
    base: int | None = None,
) -> None:
    """Credit the enemy of ``u``'s owner with ``base x multiplier`` CVP, explained."""
    state.casualties.append(
        Casualty(
            seq=seq,
            turn=state.turn,
            credited=state.enemy_of(u.side),
            unit=u.handle,
            counter=vp_counter(u),
            unit_kind=vp_kind(u),
            base=u.origin_cvp if base is None else base,
            multiplier=multiplier,
            rule=rule,
            why=why,
        )
    )


def vp_counter(u: Unit) -> str:
    if u.is_smc and u.status == PRISONER:
        # A20.5: an SMC prisoner keeps its counter, set aside with its captor noted.
        return f"{u.counter} (prisoner, counter set aside)"
    if u.status in (PRISONER, UNARMED) or not u.armed or u.counter == UNARMED_COUNTER:
        # the tally's kind column names what each was
        return unarmed_counter_text(u.origins, kinds=False) if u.origins else u.counter
    return u.counter


def vp_kind(u: Unit) -> str:
    kinds = [KIND_NAMES[o.unit_kind] for o in u.origins]
    return " + ".join(kinds) if kinds else KIND_NAMES[u.unit_kind]
