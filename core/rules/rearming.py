"""Rearming an unarmed unit (A20.551): in CC, alone with an eliminated enemy, or by
an enemy's surrender, immediately and by size."""

from __future__ import annotations

from stockade.core.model.errors import Refusal, RuleRefusal, require, require_input
from stockade.core.model.events import Rearmed
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import ACTIVE, ELIMINATED, PRISONER, UNARMED, Unit
from stockade.core.model.units import UNARMED_COUNTER
from stockade.core.rules.counters import (
    new_counter,
    rearm_counter,
    rearm_unit,
    retire,
)
from stockade.core.rules.guards import split_origins
from stockade.core.rules.lookup import (
    clock,
    describe,
    guard_of,
    raise_reason,
    unit,
)

# --------------------------------------------------------------------- rearming
# A20.551 "rearmed immediately": each way in is open only in the phase (Game Turn,
# ATTACKER, phase) in which the armed enemy was eliminated, captured or surrendered.
IMMEDIATE = frozenset({"cc", "alone", "surrender"})


def rearm_source_now(enemy: Unit, now: str) -> bool:
    """Whether ``enemy`` may still rearm some unarmed unit in the phase ``now`` (its
    ``clock``) by a way in IMMEDIATE: it has rearmed none yet, and it was lost in this
    phase (or its loss has no recorded phase). These are the two tests of
    ``rearm_refusal`` that ask nothing of the unarmed unit or of the way: when either
    fails, ``rearm_refusal`` refuses every unarmed unit every way in IMMEDIATE, so a
    reader asking about many units may leave such an enemy out (A20.551)."""
    return not enemy.rearm_spent and not (enemy.lost_clock and enemy.lost_clock != now)


def _lost_words(enemy: Unit) -> str:
    return "eliminated" if enemy.status == ELIMINATED else "captured"


def rearm_refusal(
    state: GameState,
    u: Unit,
    how: str,
    enemy: Unit | None,
    active_at: dict[str, list[Unit]] | None = None,
) -> Refusal | None:
    """Why ``u`` may not rearm from ``enemy`` by ``how`` (A20.551), or None.

    ``active_at`` (Location -> armed units on the board) lets a caller asking about many
    units build the map once instead of scanning every unit per question."""
    if u.is_smc:
        return RuleRefusal("A20.551", "escaped SMC are always armed; nothing to rearm")
    if u.status != UNARMED:
        return RuleRefusal("A20.551", f"{describe(u)} is not a free unarmed unit ({u.status})")
    if enemy is None:
        return RuleRefusal("A20.551", "name the armed enemy unit (enemy HANDLE)")
    if enemy.side == u.side:
        return RuleRefusal("A20.551", f"{describe(enemy)} is not an enemy unit")
    if enemy.rearm_spent:
        return RuleRefusal("A20.551", f"{describe(enemy)} has already rearmed an unarmed unit")
    where = enemy.captured_at if enemy.status == PRISONER and enemy.captured_at else enemy.location
    if u.location and where and u.location != where:
        return RuleRefusal("A20.551", f"{describe(enemy)} was not in {u.location}")
    attack = cc_attack_refusal(u, how, enemy)
    if attack is not None:
        return attack
    if how in ("cc", "alone"):
        taken = enemy.status == ELIMINATED or (
            enemy.status == PRISONER and guard_of(state, enemy).side == u.side
        )
        if not taken:
            return RuleRefusal("A20.551", f"{describe(enemy)} was not eliminated or captured")
    if how == "cc" and not enemy.lost_in_cc:
        # "it eliminated/captured in CC": only what the log proves was a CC loss
        # (docs/rulings.md); a loss to fire rearms "by any other means" (alone)
        alone = rearm_refusal(state, u, "alone", enemy, active_at) is None
        return RuleRefusal(
            "A20.551",
            f"{describe(enemy)} was not {_lost_words(enemy)} in CC (the log shows no CC: "
            "an elimination 'by cc' or in a CCPh, an escape, or a CC capture)",
            f"rearm {u.handle} alone {enemy.handle}" if alone else "",
        )
    elif how == "surrender" and not (enemy.surrendered_to == u.side and enemy.status == PRISONER):
        return RuleRefusal("A20.551", f"{describe(enemy)} did not surrender to a friendly unit")
    if how in IMMEDIATE and enemy.lost_clock and enemy.lost_clock != clock(state):
        return RuleRefusal(
            "A20.551",
            f"{describe(enemy)} was {_lost_words(enemy)} in an earlier phase "
            f"({enemy.lost_clock.replace('/', ' ')}); an unarmed unit is rearmed "
            "immediately, in the phase of that loss",
        )
    if how == "alone" and u.location:
        # "by any other means" only when no other enemy unit is in the Location
        present = (
            active_at.get(u.location, []) if active_at is not None else state.active_at(u.location)
        )
        other = next(
            (
                o
                for o in present
                if o.location == u.location
                and o.side != u.side
                and o.status == ACTIVE
                and o.handle != enemy.handle
            ),
            None,
        )
        if other is not None:
            return RuleRefusal(
                "A20.551",
                f"{describe(other)} is still in {u.location}; without CC "
                "an unarmed unit rearms only when no other enemy unit is there",
            )
    if enemy.us < u.us:
        return RuleRefusal("A20.551", size_words(u, enemy))
    return None


def size_words(u: Unit, enemy: Unit) -> str:
    """A20.551 "One attacking Unarmed friendly unit of equal or smaller size": an enemy
    smaller than ``u`` rearms nobody of ``u``'s size, and nothing splits ``u`` to fit."""
    return (
        f"{describe(enemy)} (US# {enemy.us}) rearms only an unarmed unit of equal or "
        f"smaller size; {describe(u)} is US# {u.us}, and an unarmed unit is never split "
        "to be rearmed"
    )


def cc_attack_refusal(u: Unit, how: str, enemy: Unit) -> Refusal | None:
    """A20.551 rearms "one attacking Unarmed friendly unit ... for each armed enemy unit
    it eliminated/captured in CC": when the log names the units whose CC attack
    eliminated ``enemy`` (an escape), only one of them rearms from it, and only by
    ``cc`` (it was not eliminated "by any other means"). A prisoner that failed its NTC
    or did not take part did not attack (docs/rulings.md)."""
    if not enemy.cc_attackers or enemy.status != ELIMINATED:
        return None
    attackers = ", ".join(sorted(enemy.cc_attackers))
    if u.handle not in enemy.cc_attackers:
        return RuleRefusal(
            "A20.551",
            f"{u.handle} did not attack {describe(enemy)} in the CC that eliminated it "
            f"(attacking: {attackers}); only an attacking unit is rearmed from it",
        )
    if how != "cc":
        return RuleRefusal(
            "A20.551",
            f"{describe(enemy)} was eliminated in CC by {attackers}, not by other means",
            f"rearm {u.handle} cc {enemy.handle}",
        )
    return None


def rearmed_as(state: GameState, u: Unit, enemy: Unit, given: str = "") -> str:
    """The Green/Conscript counter ``u`` becomes rearming from ``enemy`` (A20.551): of
    its own size; ``given`` when the player named it. Refused (saying how to name it)
    when the nationality table has none."""
    return rearm_counter(state, u, given)


def check_rearm(state: GameState, ev: Rearmed) -> None:
    u = unit(state, ev.handle)
    enemy = state.units.get(ev.enemy) if ev.enemy else None
    require_input(not ev.enemy or enemy is not None, f"no unit '{ev.enemy}' in this game")
    raise_reason(rearm_refusal(state, u, ev.how, enemy))
    assert enemy is not None  # rearm_refusal refuses a missing enemy
    require(
        not ev.split_into,
        "A20.551",
        f"{describe(u)} is replaced whole with a Green/Conscript unit of its size; "
        "a rearm splits nothing",
    )
    rearmed_as(state, u, enemy, ev.counter)


def apply_rearm(state: GameState, ev: Rearmed) -> None:
    u = state.units[ev.handle]
    enemy = state.units[ev.enemy]
    enemy.rearm_spent = True
    rearm_unit(state, u, rearm_counter(state, u, ev.counter), ev.seq)


def split_rearm(
    state: GameState, u: Unit, into: list[str], counter: str, seq: int, note: str
) -> None:
    """An unarmed squad becomes a Green/Conscript HS and an unarmed HS: what a wreck
    scrounged arms, up to HS size (D10.5)."""
    halves = split_origins(state, u)
    armed = new_counter(
        state,
        into[0],
        u.side,
        "hs",
        UNARMED_COUNTER,
        seq,
        origins=halves[0],
        status=UNARMED,
        armed=False,
        unarmed_how=u.unarmed_how,
        location=u.location,
    )
    rearm_unit(state, armed, rearm_counter(state, armed, counter), seq)
    rest = new_counter(
        state,
        into[1],
        u.side,
        "hs",
        UNARMED_COUNTER,
        seq,
        origins=halves[1],
        status=UNARMED,
        armed=False,
        unarmed_how=u.unarmed_how,
        abandoned_by=u.abandoned_by,
        location=u.location,
        note=u.note,
    )
    rest.cvp = sum(o.cvp for o in rest.origins)
    retire(u, seq, note + "+".join(into))
