"""Escape (A20.55), Withdrawal and Infiltration (A11.2, A11.22), rearming (A20.551)
and scrounging (A20.552)."""

from __future__ import annotations

from stockade.core.model.errors import Refusal, RuleRefusal, require, require_input
from stockade.core.model.events import EscapeAttempted, EscapedBy, Rearmed, Scrounged
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import ACTIVE, ELIMINATED, PRISONER, UNARMED, Unit
from stockade.core.model.units import nationality_flags
from stockade.core.rules.casualties import book_casualty
from stockade.core.rules.counters import (
    eliminate_unit,
    free_unit,
    new_counter,
    rearm_counter,
    rearm_unit,
    retire,
)
from stockade.core.rules.guards import named_prisoners, split_origins
from stockade.core.rules.lookup import (
    clock,
    describe,
    guard_of,
    raise_reason,
    require_new_handle,
    unit,
)
from stockade.core.rules.losses import takeover_candidates
from stockade.core.rules.melee import armed_units_of, start_melee
from stockade.core.rules.simultaneous_cc import captured_this_ccph


# ------------------------------------------------------------ who may escape
def will_escape_refusal(state: GameState, p: Unit, own_borders: bool = False) -> Refusal | None:
    """Why prisoner ``p`` will never attempt escape, whatever the phase (A20.55)."""
    if p.status != PRISONER:
        return RuleRefusal("A20.55", f"{describe(p)} is not a prisoner")
    if not p.is_infantry or "cavalry" in p.traits:
        return RuleRefusal("A20.55", f"only Infantry may escape; {describe(p)} is not Infantry")
    nationality = state.sides[p.side].nationality
    flags = nationality_flags(nationality)
    captor = state.units[p.guard].side if p.guard in state.units else ""
    vs_russians = bool(captor) and state.sides[captor].nationality == "Russian"
    if flags.get("no_escape") and not (flags.get("axis_minor") and own_borders and vs_russians):
        extra = (
            " (the own-borders exception holds only against Russians)"
            if flags.get("axis_minor") and own_borders
            else ""
        )
        return RuleRefusal(
            "A20.55", f"{nationality} prisoners will not attempt escape unless abandoned{extra}"
        )
    return None


def escape_refusal(state: GameState, p: Unit, own_borders: bool = False) -> Refusal | None:
    """Why prisoner ``p`` may not attempt escape now, or None (A20.55)."""
    why = will_escape_refusal(state, p, own_borders)
    if why:
        return why
    if state.phase != "CCPh":
        return RuleRefusal(
            "A20.55", f"prisoners attack their Guard only in the CCPh (now {state.phase})"
        )
    if captured_this_ccph(state, p):
        return RuleRefusal(
            "A20.55",
            f"{describe(p)} was captured in this CCPh: its CC of this phase was "
            "simultaneous with its capture (if it took its captor too: capture "
            f"{p.guard} by {p.handle}, A20.221); it may attack its Guard from a later "
            "CCPh (Stockade's ruling)",
        )
    if p.escape_clock == clock(state):
        return RuleRefusal(
            "A20.55",
            f"{describe(p)} already attempted escape in this CCPh (one attack per CCPh); "
            "it may try again, or attempt Withdrawal from a Melee, in a later CCPh",
        )
    guard = guard_of(state, p)
    in_melee = guard.melee or p.melee
    if not in_melee and not guard.broken:
        return RuleRefusal(
            "A20.55",
            f"outside Melee prisoners may attack only a broken Guard; "
            f"{describe(guard)} is not broken",
        )
    return None


def needs_ntc(state: GameState, p: Unit) -> bool:
    """Outside Melee a prisoner must pass a NTC before attacking its Guard (A20.55)."""
    guard = guard_of(state, p)
    return not (guard.melee or p.melee)


def check_escape(state: GameState, ev: EscapeAttempted) -> None:
    prisoners, guard = named_prisoners(state, ev.units, "A20.55")
    for p in prisoners:
        raise_reason(escape_refusal(state, p, ev.own_borders))
    require_input(set(ev.ntc_failed) <= set(ev.units), "ntc_failed names units not escaping")
    if ev.ntc_failed:
        require(needs_ntc(state, prisoners[0]), "A20.55", "in Melee prisoners take no NTC")
    attackers = set(ev.units) - set(ev.ntc_failed)
    require_input(
        set(ev.killed) <= attackers, "only prisoners that attacked can be killed escaping"
    )
    if ev.outcome == "escaped":
        require(
            ev.guard_eliminated,
            "A20.55",
            "escape succeeds only when no enemy but prisoners remains in the Location",
            "say the Guard was eliminated, or use withdraw / infiltrate",
        )
    survivors = attackers - set(ev.killed)
    if ev.outcome == "escaped":
        require_location_clear(state, guard)
    if ev.guard_eliminated:
        require(bool(attackers), "A20.55", "no prisoner attacked the Guard")
        require(
            ev.outcome == "escaped",
            "A20.5",
            "if another enemy unit remains, record the Guard's elimination with "
            "eliminate ... takeover",
        )
        require(
            not ev.killed,
            "A20.55",
            "prisoners attack first: once they eliminate the Guard and no enemy "
            "remains, none is left to kill them",
        )
    elif survivors:
        # How the attack ended is a fact of the board only the players know: an escape
        # that does not say is asked, naming every outcome, never read as one of them.
        names = ", ".join(sorted(survivors))
        require(
            ev.outcome == "melee",
            "A20.55",
            f"say how {names}'s attack on its Guard ended: guard-dies (the Guard was "
            "eliminated), melee (it survived: a Melee, A20.55 EX), ntcfail H (failed the "
            "NTC: no attack) or killed H (eliminated attacking)",
            f"escape {' '.join(ev.units)} melee",
        )
    else:
        require(
            ev.outcome == "no-effect",
            "A20.55",
            "no prisoner attacked and survived, so nothing changes",
            "outcome no-effect",
        )


def require_location_clear(state: GameState, guard: Unit) -> None:
    """A20.55: "Escape is successful only if there are no enemy units in the same
    Location (other than prisoners)". Another unit of the captor's side there means the
    prisoners stay prisoners and pass to it (A20.5), or go free if none can take them."""
    others = [o for o in armed_units_of(state, guard.side, guard.location) if o is not guard]
    if not guard.location or not others:
        return
    takers = takeover_candidates(state, guard)
    names = ", ".join(o.handle for o in others)
    hint = f"record the Guard's elimination: eliminate {guard.handle} by cc takeover " + (
        takers[0].handle if takers else "-"
    )
    raise RuleRefusal(
        "A20.55",
        f"{names} of {guard.side} {'is' if len(others) == 1 else 'are'} still in "
        f"{guard.location}: escape succeeds only with no enemy unit there but prisoners",
        hint,
    )


def apply_escape(state: GameState, ev: EscapeAttempted) -> None:
    guard = guard_of(state, state.units[ev.units[0]])
    now = clock(state)
    for handle in ev.units:  # each one's attempt for this CCPh is made (A20.55)
        state.units[handle].escape_clock = now
    for handle in ev.killed:
        p = state.units[handle]
        book_casualty(state, p, ev.seq, 1, "A20.55", "prisoner eliminated while escaping")
        eliminate_unit(state, p, ev.seq)
    attackers = [h for h in ev.units if h not in ev.ntc_failed and h not in ev.killed]
    if ev.guard_eliminated:
        for p in state.prisoners_of(guard.handle):
            free_unit(state, p, "escaped")
            p.note = f"escaped: eliminated its Guard {guard.handle} in CC"
        book_casualty(
            state,
            guard,
            ev.seq,
            1,
            "A26",
            "Guard eliminated in CC by its escaping prisoners",
            base=guard.cvp,
        )
        eliminate_unit(state, guard, ev.seq, in_cc=True)
        guard.note = "eliminated by its prisoners"
        guard.cc_attackers = frozenset(attackers)
    elif ev.outcome == "melee" and attackers:
        start_melee(state, guard)
        for p in state.prisoners_of(guard.handle):
            start_melee(state, p)


def check_escaped_by(state: GameState, ev: EscapedBy) -> None:
    require(
        state.phase == "CCPh",
        "A11.2",
        f"Withdrawal and Infiltration happen in the CCPh (now {state.phase})",
    )
    if ev.route == "guard-infiltrated":
        require_input(len(ev.units) == 1, "name the one Guard that infiltrated away")
        guard = unit(state, ev.units[0])
        require_input(
            bool(state.prisoners_of(guard.handle)),
            f"{describe(guard)} guards no prisoners",
        )
        require(guard.melee, "A11.22", f"{describe(guard)} is not in Melee")
        return
    prisoners, guard = named_prisoners(state, ev.units, "A20.55")
    for p in prisoners:
        raise_reason(will_escape_refusal(state, p, ev.own_borders))
    require(
        guard.melee or all(p.melee for p in prisoners),
        "A20.55",
        "prisoners withdraw or infiltrate only from a Melee with their Guard",
    )
    if ev.route == "withdrawal":
        raise_reason(withdrawal_refusal(state, guard, prisoners))


def melee_began(guard: Unit, prisoners: list[Unit]) -> str:
    """The phase the Melee with ``guard`` began in: the Guard's, else its prisoners'."""
    if guard.melee:
        return guard.melee_clock
    return min((p.melee_clock for p in prisoners if p.melee), default="")


def withdrawal_refusal(state: GameState, guard: Unit, prisoners: list[Unit]) -> Refusal | None:
    """A20.55: "Once Melee exists with a Guard, prisoners may attempt Withdrawal from
    Melee (11.2) in a subsequent CCPh": not in the CCPh the Melee began in (the phase
    kept when it began, from the log: docs/rulings.md)."""
    began = melee_began(guard, prisoners)
    if began and began == clock(state):
        return RuleRefusal(
            "A20.55",
            f"the Melee with {describe(guard)} began in this CCPh; its prisoners may attempt "
            "Withdrawal (A11.2) only in a subsequent CCPh",
        )
    return None


def apply_escaped_by(state: GameState, ev: EscapedBy) -> None:
    if ev.route == "guard-infiltrated":
        guard = state.units[ev.units[0]]
        for p in state.prisoners_of(guard.handle):
            free_unit(state, p, "escaped")  # left behind: escaped, not abandoned (Example 16)
            p.note = f"escaped: its Guard {guard.handle} infiltrated away"
        guard.melee = False
        return
    for handle in ev.units:
        p = state.units[handle]
        free_unit(state, p, "escaped")
        p.note = f"escaped by {ev.route}"


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
        "(1)-0-6",
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
        "(1)-0-6",
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


# -------------------------------------------------------------------- scrounging
def scrounge_success(roll: int, wreck: bool) -> bool:
    return roll <= 3 if wreck else roll == 2


def check_scrounge(state: GameState, ev: Scrounged) -> None:
    u = unit(state, ev.handle)
    require(not u.is_smc, "A20.552", "escaped SMC are always armed; nothing to scrounge")
    require(u.status == UNARMED, "A20.552", f"{describe(u)} is not a free unarmed unit")
    require(
        state.phase == "MPh" and state.attacker == u.side,
        "A20.552",
        "Scrounging is rolled at the end of the unit's own MPh",
    )
    require(
        bool(u.location),
        "A20.552",
        "one Scrounging DR per hex per MPh: give the unit's Location first (move HANDLE HEX)",
    )
    key = (state.turn, state.attacker, u.location)
    require(
        key not in state.scrounged,
        "A20.552",
        f"{u.location} has already had its Scrounging DR this MPh",
    )
    low, high = (1, 6) if ev.wreck else (2, 12)
    require_input(
        low <= ev.roll <= high,
        f"a Scrounging {'dr' if ev.wreck else 'DR'} is {low}-{high}, not {ev.roll}",
    )
    halves = scrounge_splits(u, ev)
    if not halves:
        require_input(not ev.split_into, "only a squad scrounging a wreck is split")
    if scrounge_success(ev.roll, ev.wreck):
        if halves:
            require(
                len(ev.split_into) == 2 and ev.split_into[0] != ev.split_into[1],
                "D10.5",
                f"scrounging a wreck arms only up to a HS: {u.handle} becomes a "
                "Green/Conscript HS and an unarmed HS",
                "name the two new HS handles: split NEW1 NEW2",
            )
            for handle in ev.split_into:
                require_new_handle(state, handle)
            rearm_counter(state, Unit(**{**u.__dict__, "unit_kind": "hs"}), ev.counter)
        else:
            rearm_counter(state, u, ev.counter)


def scrounge_splits(u: Unit, ev: Scrounged) -> bool:
    return ev.wreck and u.unit_kind == "squad" and scrounge_success(ev.roll, ev.wreck)


def apply_scrounge(state: GameState, ev: Scrounged) -> None:
    u = state.units[ev.handle]
    state.scrounged.add((state.turn, state.attacker, u.location))
    if not scrounge_success(ev.roll, ev.wreck):
        return
    if scrounge_splits(u, ev):
        split_rearm(state, u, ev.split_into, ev.counter, ev.seq, "split on scrounging ")
        return
    rearm_unit(state, u, rearm_counter(state, u, ev.counter), ev.seq)
