"""How a counter changes hands or leaves play: taken prisoner, freed, eliminated,
exchanged, created, rearmed (A20.5, A20.51, A20.551)."""

from __future__ import annotations

from sys import intern
from typing import TYPE_CHECKING

from stockade.core.model.errors import RuleRefusal
from stockade.core.model.events import Merge
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import (
    ACTIVE,
    ELIMINATED,
    GONE,
    PRISONER,
    UNARMED,
    Origin,
    Unit,
)
from stockade.core.model.units import UNARMED_COUNTER, nationality_flags, normal_cvp
from stockade.core.rules.lookup import clock


def make_prisoner(state: GameState, u: Unit, guard: Unit, seq: int, how: str) -> None:
    """A unit becomes an unarmed counter above its Guard (A20.5, A20.51, A20.24).

    A Guard that is itself taken frees its own prisoners: with no friendly unit
    taking them over they are no longer prisoners (A20.5; docs/rulings.md)."""
    for held in state.prisoners_of(u.handle):
        free_unit(state, held, "escaped")
        held.note = f"freed: its Guard {u.handle} was captured"
    if how.startswith("CC capture"):
        # kept so that A20.221 can give it back as it was (void_captures)
        u.captured_clock = clock(state)
        u.captured_traits = u.traits
        u.captured_broken = u.broken
    u.status = PRISONER
    u.armed = False
    u.lost_clock = clock(state)
    u.lost_in_cc = how.startswith("CC capture")
    u.guard = guard.handle
    u.broken = u.pinned = u.berserk = u.disrupted = False
    u.melee = False
    u.captured_at = u.location
    u.location = guard.location or u.location
    u.unarmed_how = ""
    u.abandoned_by = ""
    u.captured_seq = seq
    u.captured_how = how
    if not u.is_smc:
        # A20.51: loses all previous identity; a crew becomes an unarmed HS.
        u.unit_kind = "squad" if u.unit_kind == "squad" else "hs"
        u.counter = UNARMED_COUNTER
        u.traits = frozenset()  # no longer Fanatic, SS, elite, Cavalry... (A20.51)


def free_as_excess(state: GameState, u: Unit, lost_guard: str, note: str) -> None:
    """``u``, taken by a captor that cannot hold it, goes free as Unarmed (A20.21,
    A20.5); prisoners it guarded go free as if its Guard were gone (``lost_guard``: how
    they lost it, as ``make_prisoner`` frees them)."""
    for held in state.prisoners_of(u.handle):
        free_unit(state, held, "escaped")
        held.note = f"freed: its Guard {u.handle} {lost_guard}"
    to_unarmed(u)
    free_unit(state, u, "freed")
    u.note = note


def to_unarmed(u: Unit) -> None:
    """An armed unit exchanged for its unarmed counter without becoming a prisoner: the
    excess its captor cannot hold (A20.21, A20.5)."""
    u.armed = False
    u.broken = u.pinned = u.disrupted = False
    if not u.is_smc:
        u.unit_kind = "squad" if u.unit_kind == "squad" else "hs"
        u.counter = UNARMED_COUNTER
        u.traits = frozenset()  # A20.51


def free_unit(state: GameState, u: Unit, how: str, by_side: str = "") -> None:
    """A prisoner becomes a free unarmed unit of its own side (abandoned/escaped/freed).

    An escaped crew is the unarmed HS it became (A20.51): a published ruling answers
    "No" to "is it still worth 2 CVP" once it escapes, so its VP record turns into a
    HS's (docs/rulings.md)."""
    if how == "escaped" and any(o.unit_kind == "crew" for o in u.origins):
        hs_cvp = normal_cvp("hs", "", state.cvp_overrides)
        u.origins = [
            Origin(o.handle, "hs", f"{o.counter} crew, escaped: now a HS", hs_cvp)
            if o.unit_kind == "crew"
            else o
            for o in u.origins
        ]
        u.cvp = sum(o.cvp for o in u.origins)
    u.status = UNARMED
    u.guard = None
    u.melee = False
    u.unarmed_how = how
    u.abandoned_by = by_side if how == "abandoned" else ""
    if u.is_smc:
        # A20.55 / A20.551: escaped (and abandoned) SMC are always armed.
        u.status = ACTIVE
        u.armed = True
        u.counter = u.origins[0].counter if u.origins else u.counter


def release_prisoners(state: GameState, guard: Unit, how: str) -> list[Unit]:
    freed = state.prisoners_of(guard.handle)
    for p in freed:
        free_unit(state, p, how)
    return freed


def eliminate_unit(state: GameState, u: Unit, seq: int, in_cc: bool = False) -> None:
    """``in_cc``: the log proves it died in CC, so it may rearm by ``cc`` (A20.551)."""
    u.status = ELIMINATED
    u.ended_seq = seq
    u.lost_clock = clock(state)
    u.lost_in_cc = in_cc
    u.guard = None
    u.melee = False


def retire(u: Unit, seq: int, note: str) -> None:
    """The counter leaves play by exchange (merged, split, deployed): not a loss."""
    u.status, u.ended_seq, u.note = GONE, seq, note
    u.guard = None
    u.melee = False


def apply_merges(state: GameState, merges: list[Merge], guard: Unit, seq: int) -> None:
    for merge in merges:
        exchange_into_squad(state, merge.parts, merge.into, seq)


def exchange_into_squad(state: GameState, parts: list[str], into: str, seq: int) -> Unit:
    a, b = (state.units[h] for h in parts)
    squad = Unit(
        handle=into,
        side=a.side,
        unit_kind="squad",
        counter=UNARMED_COUNTER,
        created=seq,
        cvp=normal_cvp("squad", "", state.cvp_overrides),
        origins=a.origins + b.origins,
        status=a.status,
        armed=False,
        location=a.location,
        guard=a.guard,
        captured_seq=max(a.captured_seq, b.captured_seq),
        captured_how=a.captured_how,
        note=f"from {a.handle}+{b.handle}",
    )
    for part in (a, b):
        retire(part, seq, f"exchanged into {into}")
    state.add_unit(squad)
    return squad


if TYPE_CHECKING:  # read by the type checker only: a TypedDict made at import is ~0.5 M
    # instructions of every fold, for a class nothing reads at run time
    from typing import TypedDict, Unpack

    class UnitFields(TypedDict, total=False):
        """The Unit fields a new counter may start with besides who and what it is."""

        traits: frozenset[str]
        status: str
        armed: bool
        broken: bool
        pinned: bool
        melee: bool
        location: str
        guard: str | None
        unarmed_how: str
        abandoned_by: str
        captured_seq: int
        captured_how: str
        note: str
        placed_clock: str


def new_counter(
    state: GameState,
    handle: str,
    side: str,
    unit_kind: str,
    counter: str,
    seq: int,
    origins: list[Origin] | None = None,
    **fields: Unpack[UnitFields],
) -> Unit:
    # the strings many counters share (a side's kinds, counters and hexes) are held
    # once, not once per counter: each came decoded from its own record
    side, unit_kind, counter = intern(side), intern(unit_kind), intern(counter)
    location = fields.get("location")
    if location:
        fields["location"] = intern(location)
    cvp = normal_cvp(unit_kind, counter, state.cvp_overrides)
    created = Unit(
        handle=handle,
        side=side,
        unit_kind=unit_kind,
        counter=counter,
        created=seq,
        cvp=cvp,
        origins=origins if origins is not None else [Origin(handle, unit_kind, counter, cvp)],
        **fields,
    )
    state.add_unit(created)
    return created


def half_squad_counter(state: GameState, side: str, squad_counter: str, given: str = "") -> str:
    """The HS counter a squad of ``side`` printed ``squad_counter`` splits or is
    Casualty Reduced into (A20.22, A7.302): as the player gave it, else from the
    nationality table (core/data/nationalities.toml, ``half_squad``). A squad the
    table does not list names its HS by itself ("HS of 4-6-8"): never a guessed print."""
    if given:
        return given
    nationality = state.sides[side].nationality if side in state.sides else ""
    table: dict[str, str] = nationality_flags(nationality).get("half_squad", {})
    return table.get(squad_counter, "") or f"HS of {squad_counter}"


def rearm_counter(state: GameState, u: Unit, given: str = "") -> str:
    """The Green/Conscript counter ``u`` becomes on rearming (A20.551).

    Taken from the nationality table; when the table has no value the player is asked
    (the refusal says how to give it), and the answer is kept in the event.
    """
    if given:
        return given
    if u.is_smc:
        return u.origins[0].counter if u.origins else u.counter
    nationality = state.sides[u.side].nationality
    key = "rearm_squad" if u.unit_kind == "squad" else "rearm_hs"
    value: str = nationality_flags(nationality).get(key, "")
    if not value:
        size = "squad" if u.unit_kind == "squad" else "HS"
        # No example print: one side's counter offered for another's (or a squad's
        # for a HS) was taken as the answer; the player's own counter mix has it.
        raise RuleRefusal(
            "A20.551",
            f"the {nationality} Green/Conscript {size} counter is not in the rearm table",
            f"say which {nationality} Green/Conscript {size} counter {u.handle} becomes, "
            f"from your counter mix: as COUNTER, or {u.handle}=COUNTER in mutual",
        )
    return value


def rearm_unit(state: GameState, u: Unit, counter: str, seq: int) -> None:
    """Replace an unarmed unit with a Green/Conscript unit of its size (A20.551)."""
    u.status = ACTIVE
    u.armed = True
    u.guard = None
    u.unarmed_how = ""
    u.abandoned_by = ""
    if not u.is_smc:
        u.counter = counter
        u.traits = frozenset()  # a plain Green/Conscript unit of its nationality
        u.cvp = normal_cvp(u.unit_kind, counter, state.cvp_overrides)
        u.origins = [Origin(u.handle, u.unit_kind, counter, u.cvp)]
    u.created = seq
