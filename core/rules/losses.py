"""Losses: elimination (with the Guard's involuntary transfer), Casualty Reduction of
prisoners and unarmed units, and Massacre (A20.4, A20.5, A20.53, A20.54, A7.302)."""

from __future__ import annotations

from stockade.core.model.errors import InputRefusal, Refusal, RuleRefusal, require, require_input
from stockade.core.model.events import CAUSE_WORDS, CasualtyReduced, Eliminated, Massacred
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import ACTIVE, PRISONER, UNARMED, Origin, Unit
from stockade.core.model.units import nationality_flags, normal_cvp
from stockade.core.rules.casualties import NORMAL_CVP_RULE, book_casualty
from stockade.core.rules.counters import eliminate_unit, free_unit, half_squad_counter
from stockade.core.rules.guarding import accept_refusal, capacity
from stockade.core.rules.lookup import describe, raise_reason, side_of, unit
from stockade.core.rules.melee import armed_units_of
from stockade.core.rules.simultaneous_cc import void_captures

NO_TAKEOVER = "-"


# ------------------------------------------------------------ who may take over
def takeover_refusal(state: GameState, candidate: Unit, guard: Unit) -> Refusal | None:
    """Why ``candidate`` cannot assume Guard duty when ``guard`` dies (A20.5).

    Taking over is a transfer (A20.5): a broken or pinned unit cannot accept one
    (article, Example 15). The same check as a voluntary transfer: ``accept_refusal``."""
    return accept_refusal(candidate, guard)


def takeover_candidates(state: GameState, guard: Unit) -> list[Unit]:
    """Recorded friendly units in the Guard's Location able to take over."""
    if not guard.location:
        return []
    return [
        u
        for u in state.active_at(guard.location)
        if u.handle != guard.handle
        and u.location == guard.location
        and takeover_refusal(state, u, guard) is None
    ]


def sole_takeover(state: GameState, guard: Unit) -> Unit | None:
    """The one unit that must take over ``guard``'s prisoners when it is eliminated,
    when no other could (A20.5): an elimination need not name it. None when ``guard``
    holds no prisoners, or none or several could take them."""
    if not state.prisoners_of(guard.handle):
        return None
    candidates = takeover_candidates(state, guard)
    return candidates[0] if len(candidates) == 1 else None


def fill(prisoners: list[Unit], room: int, keep: list[str]) -> list[Unit]:
    """The prisoners a Guard with ``room`` US# left keeps: those named in ``keep``, else
    as many as fit in order (A20.5: it guards all those units it can handle)."""
    if keep:
        return [p for p in prisoners if p.handle in keep]
    kept, load = [], 0
    for p in prisoners:
        if load + p.us <= room:
            kept.append(p)
            load += p.us
    return kept


def check_keep(prisoners: list[Unit], room: int, keep: list[str], who: Unit) -> None:
    """``keep`` names prisoners of this Guard that fit in ``room``, leaving out none
    that would still fit (A20.5, A20.51)."""
    ids = {p.handle for p in prisoners}
    require_input(set(keep) <= ids, "keep names prisoners of this Guard only")
    load = sum(p.us for p in prisoners if p.handle in keep)
    require(load <= room, "A20.51", f"{describe(who)} can take US# {room} more, not {load}")
    for p in prisoners:
        if p.handle not in keep:
            require(
                load + p.us > room,
                "A20.5",
                f"{describe(who)} must guard all the prisoners it can handle, "
                f"and {p.handle} still fits",
            )


def _kept(state: GameState, ev: Eliminated, guard: Unit, new_guard: Unit) -> list[Unit]:
    room = capacity(new_guard) - state.prisoner_load(new_guard.handle)
    return fill(state.prisoners_of(guard.handle), room, list(ev.keep))


# -------------------------------------------------------------------- eliminate
def check_eliminate(state: GameState, ev: Eliminated) -> None:
    u = unit(state, ev.handle)
    if not u.on_board:  # each sentence is made only for its refusal
        raise InputRefusal(f"{describe(u)} is already {u.status}")
    if ev.by_side:
        side_of(state, ev.by_side)
    if ev.cause == "escape" and u.status != PRISONER:
        raise RuleRefusal("A20.55", f"{describe(u)} is not a prisoner escaping")
    prisoners = state.prisoners_of(u.handle)
    if not prisoners:
        if ev.takeover is not None or ev.keep:
            raise InputRefusal(f"{describe(u)} guards no prisoners")
        return
    if ev.takeover is None:
        candidates = takeover_candidates(state, u)
        if candidates:
            names = ", ".join(c.handle for c in candidates)
            raise RuleRefusal(
                "A20.5",
                f"{describe(u)} guards prisoners and {names} in {u.location} must "
                "take over at once (not voluntary)",
                f"add takeover {candidates[0].handle}, or takeover - if none can",
            )
        return
    if ev.takeover == NO_TAKEOVER:
        candidates = takeover_candidates(state, u)
        require(
            not candidates,
            "A20.5",
            f"{candidates[0].handle if candidates else ''} in {u.location} can accept "
            f"{describe(u)}'s prisoners, so it must take over (not optional; article, "
            "Example 15)",
            f"takeover {candidates[0].handle if candidates else ''}; takeover - is for when "
            "none can",
        )
        return
    new_guard = unit(state, ev.takeover)
    raise_reason(
        takeover_refusal(state, new_guard, u),
        "takeover - frees the prisoners (they count as escaped)",
    )
    if ev.keep:
        room = capacity(new_guard) - state.prisoner_load(new_guard.handle)
        check_keep(prisoners, room, list(ev.keep), new_guard)


def apply_eliminate(state: GameState, ev: Eliminated) -> None:
    u = state.units[ev.handle]
    if ev.cause == "cc" and u.status == ACTIVE and u.location:
        # A20.221: the last of its side in the Location dies in simultaneous CC: the
        # captures its side made there this phase are void (before its prisoners pass on)
        others = [o for o in armed_units_of(state, u.side, u.location) if o is not u]
        if not others:
            why = f"{u.side} was wholly eliminated/captured in {u.location}"
            void_captures(state, u.side, u.location, ev.seq, why)
    prisoners = state.prisoners_of(u.handle)
    if prisoners:
        new_guard = None
        if ev.takeover not in (None, NO_TAKEOVER):
            new_guard = state.units[ev.takeover]
        kept = _kept(state, ev, u, new_guard) if new_guard else []
        for p in prisoners:
            if new_guard is not None and p in kept:  # kept is empty without a new Guard
                p.guard = new_guard.handle
            else:
                free_unit(state, p, "escaped")  # freed with no Guard: counts as escaped (A20.5)
                p.note = f"freed when its Guard {u.handle} was eliminated"
    _book_elimination(state, u, ev)
    was_abandoned_by = u.abandoned_by if u.status == UNARMED else ""
    # a loss in CC (A20.551 rearm by cc): said "by cc", or with no cause in a CCPh
    in_cc = ev.cause == "cc" or (ev.cause == "other" and state.phase == "CCPh")
    eliminate_unit(state, u, ev.seq, in_cc=in_cc)
    if was_abandoned_by and ev.by_side and side_of(state, ev.by_side) == was_abandoned_by:
        commit_massacre(state, was_abandoned_by, u.side, ev.seq)


def _book_elimination(state: GameState, u: Unit, ev: Eliminated) -> None:
    if u.status == PRISONER and ev.cause == "fire-own":
        book_casualty(
            state,
            u,
            ev.seq,
            2,
            "A20.54",
            "prisoner eliminated by fire from its own side: double at once",
        )
    elif u.status == PRISONER and ev.cause == "escape":
        book_casualty(state, u, ev.seq, 1, "A20.55", "prisoner eliminated while escaping")
    elif u.status == PRISONER:
        book_casualty(state, u, ev.seq, 1, "A20.1", _eliminated("prisoner eliminated", ev.cause))
    elif u.status == UNARMED and ev.cause == "fire-own":
        was = UNARMED_HOW.get(u.unarmed_how, "")
        what = f"unarmed unit{f' ({was})' if was else ''} eliminated by fire from its own side"
        book_casualty(state, u, ev.seq, 2, "A20.54", what + ": double at once")
    elif u.status == UNARMED:
        was = UNARMED_HOW.get(u.unarmed_how, "")
        what = f"unarmed unit{f' ({was})' if was else ''} eliminated"
        book_casualty(state, u, ev.seq, 1, "A20.55", _eliminated(what, ev.cause))
    else:
        book_casualty(
            state, u, ev.seq, 1, NORMAL_CVP_RULE, _eliminated("eliminated", ev.cause), base=u.cvp
        )


# Player-facing words for the tally's "why" column (plain words, not the log's codes).
UNARMED_HOW = {
    "abandoned": "abandoned prisoner",
    "escaped": "escaped prisoner",
    "freed": "freed prisoner",
}


def _eliminated(what: str, cause: str) -> str:
    words = CAUSE_WORDS.get(cause, cause)
    return f"{what} {words}".strip()


# ------------------------------------------------------------ Casualty Reduction
def check_reduce(state: GameState, ev: CasualtyReduced) -> None:
    u = unit(state, ev.handle)
    if not u.on_board:  # each sentence is made only for its refusal
        raise InputRefusal(f"{describe(u)} is {u.status}")
    if u.is_smc:
        raise RuleRefusal(
            "A7.302",
            f"{describe(u)} is a SMC: Casualty Reduction wounds it; record its elimination "
            "if the wound kills it",
        )
    if u.status == ACTIVE and u.unit_kind in ("hs", "crew") and state.prisoners_of(u.handle):
        raise RuleRefusal(
            "A20.5",
            f"{describe(u)} is a Guard: reducing a HS eliminates it; record it with "
            "eliminate and say who takes over",
        )
    if ev.lost:
        require_input(
            ev.lost in {o.handle for o in u.origins},
            f"{ev.lost} is not one of the units {u.handle} stands for",
        )
    elif u.status != ACTIVE and u.unit_kind == "squad" and len(u.origins) == 2:
        a, b = u.origins
        require(
            (a.unit_kind, a.cvp) == (b.unit_kind, b.cvp),
            "A20.54",
            f"{u.handle} stands for {a.counter} ({a.handle}) and {b.counter} "
            f"({b.handle}); say which one the Casualty Reduction takes",
            f"lost {a.handle} or lost {b.handle}",
        )
    prisoners = state.prisoners_of(u.handle)
    if u.status == ACTIVE and u.unit_kind == "squad" and prisoners:
        room = 5 * 2  # the HS it becomes (A20.51)
        if ev.keep:
            check_keep(prisoners, room, list(ev.keep), u)
    else:
        require_input(not ev.keep, f"{describe(u)} guards no prisoners")


def apply_reduce(state: GameState, ev: CasualtyReduced) -> None:
    u = state.units[ev.handle]
    abandoner = u.abandoned_by if u.status == UNARMED else ""
    if abandoner and ev.by_side and side_of(state, ev.by_side) == abandoner:
        # A20.53: eliminating (or Casualty Reducing, article) a unit one's own side
        # abandoned triggers the Massacre penalties.
        commit_massacre(state, abandoner, u.side, ev.seq)
    _reduce(state, u, ev)


def _reduce(state: GameState, u: Unit, ev: CasualtyReduced) -> None:
    # A20.54: "Prisoners/Unarmed units eliminated by fire from their own side still
    # count double", and so does the part a Casualty Reduction takes (docs/cvp.md)
    double = u.status in (PRISONER, UNARMED) and ev.cause == "fire-own"
    multiplier, rule = (2, "A20.54") if double else (1, "A7.302")
    why = "Casualty Reduction" + (" by its own side's fire: double at once" if double else "")
    if u.unit_kind in ("hs", "crew"):
        book_casualty(
            state,
            u,
            ev.seq,
            multiplier,
            rule,
            why + " (HS eliminated)",
            base=u.origin_cvp if u.status != ACTIVE else u.cvp,
        )
        eliminate_unit(state, u, ev.seq)
        return
    hs_cvp = normal_cvp("hs", "", state.cvp_overrides)
    if u.status == ACTIVE:
        book_casualty(
            state,
            u,
            ev.seq,
            1,
            "A7.302",
            "Casualty Reduction: squad to HS (a HS lost)",
            base=hs_cvp,
        )
        u.unit_kind, u.cvp = "hs", hs_cvp
        u.counter = half_squad_counter(state, u.side, u.counter, ev.counter)
        u.origins = [Origin(u.handle, "hs", u.counter, hs_cvp)]
        prisoners = state.prisoners_of(u.handle)
        kept = fill(prisoners, capacity(u), list(ev.keep))
        for p in prisoners:
            if p not in kept:  # A20.5: a Guard too small guards what it can
                free_unit(state, p, "escaped")
                p.note = f"freed: its Guard {u.handle} was reduced to a HS"
        return
    if len(u.origins) == 2:  # a squad made of two parts loses one of them
        lost = next(o for o in u.origins if o.handle == (ev.lost or u.origins[1].handle))
        parts = [o for o in u.origins if o is not lost]
    else:
        source = u.origins[0]
        lost = Origin(source.handle, "hs", f"HS of {source.counter}", hs_cvp)
        parts = [Origin(source.handle, "hs", f"HS of {source.counter}", hs_cvp)]
    book_casualty(
        state, u, ev.seq, multiplier, rule, why + f" (lost {lost.counter})", base=lost.cvp
    )
    u.unit_kind, u.origins = "hs", parts
    u.cvp = sum(o.cvp for o in parts)


# ---------------------------------------------------------------------- Massacre
def may_massacre(state: GameState, u: Unit) -> bool:
    nationality = state.sides[u.side].nationality
    return bool(nationality_flags(nationality).get("massacre")) or "ss" in u.traits or u.berserk


def fit_to_massacre(state: GameState, u: Unit) -> bool:
    """Whether ``u`` may Massacre as it stands (A20.4): of a side or kind that may, not in
    Melee, and not broken (a Massacre is made as if using a SW)."""
    return may_massacre(state, u) and not u.melee and not u.broken


def check_massacre(state: GameState, ev: Massacred) -> None:
    by = unit(state, ev.by)
    require(
        by.status == ACTIVE and by.armed,
        "A20.4",
        f"{describe(by)} is not an armed unit on the board",
    )
    require(by.is_infantry, "A20.4", f"{describe(by)} is not Infantry/Cavalry")
    require(
        may_massacre(state, by),
        "A20.4",
        "only SS, Japanese, Partisan, Russian (and KPA) or berserk Infantry/Cavalry "
        f"may Massacre; {describe(by)} is {state.sides[by.side].nationality}",
    )
    require(
        not by.melee,
        "A20.4",
        f"{describe(by)} is in Melee and may not Massacre",
        f"if the Melee has ended on the board, record it first: melee {by.handle} off",
    )
    require(
        not by.broken,
        "A20.4",
        f"{describe(by)} is broken: a Massacre is made as if using a SW, and a broken unit "
        "cannot fire (rally it first)",
    )
    own_fire = ("PFPh", "AFPh") if state.attacker == by.side else ("DFPh",)
    require(
        state.phase in own_fire,
        "A20.4",
        f"a Massacre is made in the unit's own fire phase ({' or '.join(own_fire)}), "
        f"now {state.phase}",
    )
    require_input(bool(ev.units), "name the unarmed units")
    for victim in (unit(state, h) for h in ev.units):
        require_input(victim.side != by.side, f"{describe(victim)} is on the same side")
        require(victim.status in (PRISONER, UNARMED), "A20.4", f"{describe(victim)} is not unarmed")
        require(
            not victim.melee,
            "A20.4",
            f"{describe(victim)} is in Melee, in the act of escape, and cannot be Massacred",
        )
        if victim.location and by.location:
            require(
                victim.location == by.location,
                "A20.4",
                f"{describe(victim)} is not in {by.location}, the Massacring unit's Location",
            )


def apply_massacre(state: GameState, ev: Massacred) -> None:
    by = state.units[ev.by]
    victims_side = ""
    for handle in ev.units:
        victim = state.units[handle]
        victims_side = victim.side
        book_casualty(state, victim, ev.seq, 1, "A20.4", f"massacred by {by.handle}")
        eliminate_unit(state, victim, ev.seq)
    by.berserk = False  # A20.4: it loses berserk status
    commit_massacre(state, by.side, victims_side, ev.seq)


def commit_massacre(state: GameState, perpetrator: str, victims: str, seq: int) -> None:
    """A20.4: enemy ELR +1 once only (max 6), and all the penalties of No Quarter."""
    side = state.sides[perpetrator]
    if not side.massacred:
        side.massacred, side.massacre_seq = True, seq
    if not side.no_quarter:
        side.no_quarter, side.no_quarter_seq = True, seq
    hurt = state.sides[victims]
    if not hurt.elr_raised:
        hurt.elr_raised = True
        hurt.elr = min(6, hurt.elr + 1)
