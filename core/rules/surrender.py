"""Surrender and its refusal: RtPh/Encircled/Disrupted/HOB surrender and Mopping Up
(A20.21, A12.153), a stack surrendering as a stack, and No Quarter by rejecting a
surrender (A20.3).

Separate from CC capture (``core.rules.cc_capture``): a surrender is offered by the
broken side and accepted or rejected whole, with its own phases, captors and refusals;
nothing here is a CC attack.
"""

from __future__ import annotations

from collections.abc import Sequence

from stockade.core.model.errors import InputRefusal, Refusal, RuleRefusal, require, require_input
from stockade.core.model.events import Merge, Surrendered, SurrenderRejected
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import ACTIVE, Unit
from stockade.core.model.units import nationality_flags
from stockade.core.rules.casualties import book_casualty
from stockade.core.rules.counters import (
    apply_merges,
    eliminate_unit,
    free_as_excess,
    make_prisoner,
)
from stockade.core.rules.guarding import capacity, guard_refusal, require_guard, require_room
from stockade.core.rules.lookup import (
    describe,
    raise_reason,
    require_on_board,
    require_same_side,
    side_of,
    unit,
)

_RTPH_REASONS = ("rtph", "encircled", "disrupted", "hob")


# ----------------------------------------------------------------- who surrenders
def never_surrenders(state: GameState, u: Unit, captor_side: str) -> Refusal | None:
    """Why ``u`` never surrenders via the RtPh method to ``captor_side`` (A20.21, A20.3)."""
    nationality = state.sides[u.side].nationality
    captor_nationality = state.sides[captor_side].nationality
    if nationality_flags(nationality).get("no_rtph"):
        return RuleRefusal("A20.21", f"{nationality} units never surrender via the RtPh")
    if "commissar" in u.traits:
        return RuleRefusal("A20.21", "Commissars never surrender via the RtPh")
    if "fanatic" in u.traits:
        return RuleRefusal("A20.21", "Fanatic units never surrender via the RtPh")
    is_ss = nationality == "SS" or "ss" in u.traits
    if is_ss and captor_nationality == "Russian":
        return RuleRefusal("A20.21", "SS troops facing Russians never surrender via the RtPh")
    if state.sides[captor_side].no_quarter:
        return RuleRefusal(
            "A20.3",
            f"{captor_side} has invoked No Quarter; its enemies never surrender "
            "to it via the RtPh (they Low Crawl or risk Interdiction)",
        )
    return None


def may_surrender_to(state: GameState, u: Unit, captor_side: str) -> bool:
    """Whether broken ``u`` could surrender to ``captor_side`` via the RtPh (A20.21,
    A20.3): what the stack check asks of the units an entry leaves out, and what the
    skip key asks of a RtPh."""
    return (
        u.status == ACTIVE
        and u.broken
        and u.is_infantry
        and not u.berserk
        and never_surrenders(state, u, captor_side) is None
    )


def rtph_captor_refusal(guard: Unit) -> Refusal | None:
    """Why ``guard`` cannot take a RtPh surrender (A20.2, A20.21, A20.5), or None."""
    reason = guard_refusal(guard, phase_rtph=True)
    if reason is not None:
        return reason
    if guard.broken:
        return RuleRefusal(
            "A20.21", f"{describe(guard)} is broken; a surrender needs a Good Order captor"
        )
    if not guard.is_infantry:
        return RuleRefusal(
            "A20.21", f"{describe(guard)} is not Infantry/Cavalry and cannot take a surrender"
        )
    return None


def _stack(state: GameState, handles: list[str], rule: str) -> list[Unit]:
    """The surrendering stack; a unit that is no armed unit on the board is refused
    citing ``rule`` (A20.21 for a surrender, A20.3 for a rejection)."""
    require_input(bool(handles), "name the surrendering units")
    require_input(len(set(handles)) == len(handles), "a unit is named twice")
    units = [unit(state, h) for h in handles]
    require_same_side(units)
    for u in units:  # each sentence is made only for its refusal (the fold checks them all)
        if u.status != ACTIVE:
            require_on_board(u)
            raise RuleRefusal(
                rule,
                f"{describe(u)} is {u.status}, not an armed unit on the board: only a "
                "broken armed unit surrenders",
            )
        if u.berserk:
            raise RuleRefusal(
                "A20.2", f"{describe(u)} is berserk; berserk units are never captured"
            )
        if not u.is_infantry:
            raise RuleRefusal("A20.21", f"{describe(u)} is not Infantry; only Infantry surrenders")
    places = {u.location for u in units if u.location}
    require(
        len(places) <= 1,
        "A20.21",
        "a stack surrendering together stands in one Location, not " + ", ".join(sorted(places)),
    )
    return units


def _fits(state: GameState, guard: Unit, incoming: list[Unit], merges: Sequence[Merge]) -> bool:
    load = state.prisoner_load(guard.handle) + sum(u.us for u in incoming) - len(merges)
    return load <= capacity(guard)


def fits_under(state: GameState, guard: Unit, incoming: list[Unit]) -> bool:
    """Whether ``guard`` holds ``incoming`` with its prisoners (A20.51): then no unit
    of a surrendering stack is the excess it may free (A20.21)."""
    return _fits(state, guard, incoming, ())


def _check_surrendering_stack(
    state: GameState, units: list[Unit], guard: Unit, reason: str
) -> None:
    if guard.side == units[0].side:
        raise InputRefusal(f"{describe(guard)} is on the same side")
    if reason in ("rtph", "encircled"):
        require(
            state.phase == "RtPh",
            "A20.21",
            f"a broken unit surrenders this way only in the RtPh (now {state.phase})",
        )
    if reason == "mopup":
        require(
            not state.sides[guard.side].no_quarter,
            "A20.3",
            f"{guard.side} has invoked No Quarter and can no longer Mop Up for prisoners "
            "(article, Conclusion)",
        )
        require(state.phase == "PFPh", "A12.153", "Mopping Up happens in the ATTACKER's PFPh")
        require(
            guard.side == state.attacker,
            "A12.153",
            "broken units in a Mopped-Up building surrender to an ATTACKER unit",
        )
    for u in units:
        if reason == "disrupted":
            # Disrupted is recorded on the board state: the claim is checked, not trusted
            # (Encircled and HOB are not tracked: the entry records them as a claim).
            require(
                u.disrupted,
                "A20.21",
                f"{describe(u)} is not recorded as Disrupted",
                f"if it is, record it first: disrupt {u.handle}",
            )
        elif reason != "hob" and not u.broken:  # (the sentence only for the refusal)
            raise RuleRefusal("A20.21", f"{describe(u)} is not broken; only broken units surrender")
        if reason == "mopup":
            continue  # A12.153: even units that never surrender via the RtPh
        why = never_surrenders(state, u, guard.side)
        if why is not None:
            if reason == "hob":
                raise RuleRefusal(
                    "A15.5", f"{why.text}; on a HOB surrender result it goes berserk instead"
                )
            raise why
    if reason == "mopup":
        require_guard(guard)
    else:
        raise_reason(rtph_captor_refusal(guard))


def left_out_of_stack(
    state: GameState, units: list[Unit], captor_side: str, reason: str
) -> list[Unit]:
    """Broken units of the stack's Location that the entry leaves out, though they
    would surrender to ``captor_side`` with it (A20.21: "A stack of broken units in a
    Location surrenders simultaneously and must be accepted or rejected as a stack")."""
    location = units[0].location if units else ""
    if state.phase != "RtPh" or reason not in ("rtph", "encircled", "disrupted") or not location:
        return []
    named = {u.handle for u in units}
    return [
        o
        for o in state.active_at(location)
        if o.location == location
        and o.side == units[0].side
        and o.handle not in named
        and may_surrender_to(state, o, captor_side)
    ]


def require_whole_stack(
    state: GameState, units: list[Unit], captor_side: str, reason: str, others_why: str
) -> None:
    left = left_out_of_stack(state, units, captor_side, reason)
    if left and not others_why.strip():
        names = " ".join(o.handle for o in left)
        raise RuleRefusal(
            "A20.21",
            f"{names} {'is' if len(left) == 1 else 'are'} broken in {units[0].location} too: "
            "a stack surrenders, and is accepted or rejected, as a stack",
            f"name them too, or say why they are not surrendering: "
            f'because "{left[0].handle} has a legal rout path"',
        )


def check_surrender(state: GameState, ev: Surrendered) -> None:
    units = _stack(state, ev.units, "A20.21")
    guard = unit(state, ev.guard)
    _check_surrendering_stack(state, units, guard, ev.reason)
    require_input(set(ev.freed) <= set(ev.units), "only surrendering units can be freed")
    taken = [u for u in units if u.handle not in ev.freed]
    require_room(
        state,
        guard,
        taken,
        ev.merges,
        excess_hint="free the excess as Unarmed (free HANDLE), or give some to another Guard",
    )
    for handle in ev.freed:
        # A20.21: only the excess the Guard cannot hold is freed; the stack is otherwise
        # accepted (or rejected) whole.
        back = state.units[handle]
        require(
            not _fits(state, guard, taken + [back], ev.merges),
            "A20.21",
            f"{describe(back)} fits under {describe(guard)}; only the excess over the "
            "Guard's capacity is freed",
        )
    require_whole_stack(state, units, guard.side, ev.reason, ev.others_why)


def apply_surrender(state: GameState, ev: Surrendered) -> None:
    guard = state.units[ev.guard]
    for handle in ev.units:
        u = state.units[handle]
        u.surrendered_to = guard.side
        if handle in ev.freed:
            why = f"freed as excess when its stack surrendered to {guard.handle}"
            free_as_excess(state, u, "surrendered", why)
        else:
            make_prisoner(state, u, guard, ev.seq, f"surrender ({ev.reason})")
    apply_merges(state, ev.merges, guard, ev.seq)


# ------------------------------------------------------------------- No Quarter
def check_reject(state: GameState, ev: SurrenderRejected) -> None:
    units = _stack(state, ev.units, "A20.3")
    by_side = side_of(state, ev.by_side)
    require_input(by_side != units[0].side, "a side cannot reject its own units")
    require(
        state.phase == "RtPh" or all(u.disrupted for u in units),
        "A20.3",
        "only a RtPh or Disrupted surrender can be rejected",
    )
    for u in units:
        require(u.broken or u.disrupted, "A20.3", f"{describe(u)} is not surrendering (not broken)")
        # A unit that never surrenders to this side offers no surrender to reject.
        raise_reason(never_surrenders(state, u, by_side))
    require_whole_stack(state, units, by_side, "rtph", ev.others_why)


def apply_reject(state: GameState, ev: SurrenderRejected) -> None:
    by_side = side_of(state, ev.by_side)
    side = state.sides[by_side]
    if not side.no_quarter:
        side.no_quarter, side.no_quarter_seq = True, ev.seq
    for handle in ev.units:
        u = state.units[handle]
        eliminate_unit(state, u, ev.seq)
        book_casualty(
            state,
            u,
            ev.seq,
            1,
            "A20.3",
            "surrender rejected: No Quarter (not counted for Battlefield Integrity)",
        )
