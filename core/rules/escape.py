"""Escape (A20.55): who may attack its Guard, and the attack's outcome (the Guard
eliminated: escaped; it survived: a Melee; none survived: no effect). Withdrawal and
Infiltration are in ``withdrawal``, rearming in ``rearming``, scrounging in
``scrounging``."""

from __future__ import annotations

from stockade.core.model.errors import Refusal, RuleRefusal, require, require_input
from stockade.core.model.events import EscapeAttempted
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import PRISONER, Unit
from stockade.core.model.units import nationality_flags
from stockade.core.rules.casualties import NORMAL_CVP_RULE, book_casualty
from stockade.core.rules.counters import (
    eliminate_unit,
    free_unit,
)
from stockade.core.rules.guards import named_prisoners
from stockade.core.rules.lookup import (
    clock,
    describe,
    guard_of,
    raise_reason,
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


def own_borders_asked(state: GameState) -> bool:
    """Whether the Axis Minor own-borders exception (A20.55 EXC, A25.82) can matter in
    this game: only Axis Minor prisoners of a Russian captor may claim it, so it is
    asked only in a game with an Axis Minor side and a Russian side."""
    nationalities = [side.nationality for side in state.sides.values()]
    return "Russian" in nationalities and any(
        nationality_flags(n).get("axis_minor") for n in nationalities
    )


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
            NORMAL_CVP_RULE,
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
