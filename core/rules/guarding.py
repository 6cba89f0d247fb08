"""Who may guard prisoners and how many (A20.2, A20.5, A20.51): the checks every
verb that hands prisoners to a Guard makes."""

from __future__ import annotations

from collections.abc import Sequence

from stockade.core.model.errors import Refusal, RuleRefusal, require, require_input
from stockade.core.model.events import Merge
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import ACTIVE, Unit
from stockade.core.model.units import is_hs_size
from stockade.core.rules.lookup import describe, raise_reason, require_new_handle, unit


def guard_refusal(guard: Unit, *, phase_rtph: bool = False) -> Refusal | None:
    """Why ``guard`` cannot take prisoners, or None (A20.2, A20.21, A20.5)."""
    if not guard.on_board or guard.status != ACTIVE:
        return RuleRefusal("A20.5", f"{describe(guard)} is {guard.status} and cannot guard")
    if guard.unit_kind == "vehicle":
        return RuleRefusal(
            "A20.2", f"{describe(guard)} is vehicular; vehicles never take prisoners"
        )
    if not guard.armed:
        return RuleRefusal(
            "A20.5", f"{describe(guard)} is unarmed; only armed Personnel guard prisoners"
        )
    if guard.berserk:
        return RuleRefusal(
            "A20.2", f"{describe(guard)} is berserk; berserk units take no prisoners"
        )
    if phase_rtph and guard.melee:
        return RuleRefusal(
            "A20.21",
            f"{describe(guard)} is in Melee; a unit in Melee cannot accept a RtPh surrender",
        )
    return None


def require_guard(guard: Unit, *, phase_rtph: bool = False) -> None:
    raise_reason(guard_refusal(guard, phase_rtph=phase_rtph))


def accept_refusal(candidate: Unit, guard: Unit) -> Refusal | None:
    """Why ``candidate`` cannot accept the transfer of ``guard``'s prisoners (A20.5).

    Used for a voluntary transfer and for the involuntary take-over when the Guard is
    eliminated: prisoners pass "in the same manner as a SW" (A4.431), within one
    Location, to a friendly armed Personnel unit that is neither broken nor pinned
    (article, Example 15)."""
    if candidate.handle == guard.handle:
        return RuleRefusal("A20.5", f"{describe(candidate)} already guards them")
    if candidate.side != guard.side:
        return RuleRefusal(
            "A20.5", f"{describe(candidate)} is not friendly to the Guard {describe(guard)}"
        )
    reason = guard_refusal(candidate)
    if reason:
        return reason
    if candidate.broken:
        return RuleRefusal("A20.5", f"{describe(candidate)} is broken and cannot accept prisoners")
    if candidate.pinned:
        return RuleRefusal("A20.5", f"{describe(candidate)} is pinned and cannot accept prisoners")
    if guard.location and candidate.location and guard.location != candidate.location:
        return RuleRefusal(
            "A20.5",
            f"{describe(candidate)} is in {candidate.location}, not in "
            f"{guard.location} with the prisoners",
        )
    return None


def capacity(guard: Unit) -> int:
    """A Guard holds prisoners up to 5 x its own US# (A20.51)."""
    return 5 * guard.us


def holds(state: GameState, guard: Unit, incoming: list[Unit], exchanges: int = 0) -> bool:
    """Whether ``guard`` holds ``incoming`` with its prisoners, ``exchanges`` HS pairs
    exchanged for squads (A20.51: each makes 2 + 2 into 3)."""
    load = state.prisoner_load(guard.handle) + sum(u.us for u in incoming) - exchanges
    return load <= capacity(guard)


def require_capacity(
    state: GameState,
    guard: Unit,
    incoming: list[Unit],
    merges: Sequence[Merge] = (),
    *,
    excess_hint: str,
) -> None:
    """Refuse when the Guard would hold more than 5 x US#, suggesting a fix (A20.51):
    an HS exchange when one makes it fit, else ``excess_hint``, what the entry being checked
    can do with the excess (each verb takes its own words: only a surrender frees)."""
    load = state.prisoner_load(guard.handle) + sum(u.us for u in incoming)
    load -= len(merges)  # each HS pair exchanged for a squad: 2 + 2 -> 3
    cap = capacity(guard)
    if load <= cap:
        return
    held = [p for p in state.prisoners_of(guard.handle)] + list(incoming)
    merged = {h for m in merges for h in m.parts}
    halves = [p for p in held if is_hs_size(p.unit_kind) and p.handle not in merged]
    excess = load - cap
    if len(halves) >= 2 and excess <= len(halves) // 2:
        pairs = [f"{halves[2 * i].handle}+{halves[2 * i + 1].handle}" for i in range(excess)]
        hint = "exchange two HS for a squad: merge " + ", ".join(pairs)
    else:
        hint = excess_hint
    raise RuleRefusal(
        "A20.51",
        f"{describe(guard)} can guard US# {cap}; with these it would hold US# {load}",
        hint,
    )


def check_merges(
    state: GameState, merges: list[Merge], candidates: set[str], new_hs: tuple[str, ...] = ()
) -> None:
    """Each merge exchanges two distinct prisoner HS/crew for one squad (A20.51).

    ``new_hs`` names HS counters the same event creates (a one-HS CC capture)."""
    used: set[str] = set()
    intos: set[str] = set()
    for merge in merges:
        require(
            len(merge.parts) == 2 and merge.parts[0] != merge.parts[1],
            "A20.51",
            "an exchange takes exactly two different HS",
        )
        for handle in merge.parts:
            require_input(handle in candidates, f"'{handle}' is not among these prisoners")
            require_input(handle not in used, f"'{handle}' is exchanged twice")
            used.add(handle)
            if handle in new_hs:
                continue
            require(
                is_hs_size(unit(state, handle).unit_kind),
                "A20.51",
                f"only HS/crew pairs are exchanged for a squad ('{handle}' is not)",
            )
        require_new_handle(state, merge.into)
        require_input(
            merge.into not in intos and merge.into not in new_hs,
            f"handle '{merge.into}' is already in use",
        )
        intos.add(merge.into)


def require_room(
    state: GameState,
    guard: Unit,
    incoming: list[Unit],
    merges: list[Merge],
    new_hs: tuple[str, ...] = (),
    *,
    excess_hint: str,
) -> None:
    """The incoming prisoners, with the entry's HS exchanges, fit above ``guard``
    (A20.51): the exchanges are legal and the total stays within 5 x US#. ``excess_hint``
    is the hint when they do not: what the entry being checked can do instead."""
    held = {p.handle for p in state.prisoners_of(guard.handle)} | {u.handle for u in incoming}
    check_merges(state, merges, held, new_hs)
    require_capacity(state, guard, incoming, merges, excess_hint=excess_hint)
