"""What a command's unit slot may name: the core's ranked ``Choice`` lists.

The legality-aware lists are the core's queries (``core.reads.queries``), adapted here
to one signature: ``(state, values)``, ``values`` being what a form holds so far by
slot name. A slot with no query of its own offers the units its filter keeps
(``which``). The same filters rank the completer's handles, so the bar and the forms
offer alike. The queries are imported when a list is first asked for: reading a line
(``stockade do``) never needs them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from msgspec.structs import replace

from stockade.core.model import events as ev
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import ACTIVE, PRISONER, UNARMED, Unit
from stockade.core.rules.simultaneous_cc import captured_this_ccph

if TYPE_CHECKING:
    from stockade.core.reads.queries import Choice

# What a form has filled in so far, by slot name: handles, words, numbers, flags.
Values = Mapping[str, object]
Picks = Callable[[GameState, Values], "list[Choice]"]

UNIT_FILTERS: dict[str, Callable[[GameState, Unit], bool]] = {
    "any": lambda s, u: u.on_board,
    "active": lambda s, u: u.status == ACTIVE,
    "broken": lambda s, u: u.status == ACTIVE and (u.broken or u.disrupted),
    "prisoner": lambda s, u: u.status == PRISONER,
    "unarmed": lambda s, u: u.status == UNARMED,
    "captive": lambda s, u: u.status in (PRISONER, UNARMED),
    # a Melee's units: armed ones, and unarmed ones an entering unit failed to
    # recapture in the MPh, "considered in Melee thereafter" (A20.54)
    "melee": lambda s, u: u.on_board and u.status in (ACTIVE, UNARMED),
    "captor": lambda s, u: (
        (u.status == ACTIVE and u.armed and not u.berserk and u.unit_kind != "vehicle")
        or captured_this_ccph(s, u)  # its own attack of that simultaneous CC (A20.221)
    ),
    "guard": lambda s, u: bool(s.prisoners_of(u.handle)),
    "squad": lambda s, u: u.status == ACTIVE and u.unit_kind == "squad",
}


def handles_in(values: Values, name: str) -> list[str]:
    """The handles a form holds in slot ``name`` (one or several), as a list."""
    value = values.get(name)
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value]
    return []


def word_in(values: Values, name: str) -> str:
    value = values.get(name)
    return value if isinstance(value, str) else ""


# ------------------------------------------------------------------ plain filters
def plain(which: str, first: str = "") -> Picks:
    """Units matching ``which`` (those also matching ``first`` listed first)."""
    keep = UNIT_FILTERS[which]

    def pick(state: GameState, values: Values) -> list[Choice]:
        from stockade.core.reads.queries import Choice, ranked
        from stockade.core.reads.views import unit_label

        found = [
            Choice(
                u.handle,
                unit_label(u),
                True,
                "",
                "",
                same_location=bool(first) and UNIT_FILTERS[first](state, u),
            )
            for u in state.units.values()
            if keep(state, u)
        ]
        return ranked(found)

    return pick


def among(name: str, which: str = "prisoner") -> Picks:
    """The units already picked in slot ``name`` (who of those failed, who died)."""
    keep = plain(which)

    def pick(state: GameState, values: Values) -> list[Choice]:
        ticked = handles_in(values, name)
        return [c for c in keep(state, values) if c.handle in ticked]

    return pick


# ------------------------------------------------------------------ the core's queries
def surrendering_units(state: GameState, values: Values) -> list[Choice]:
    from stockade.core.reads import queries

    return queries.surrendering_units(state, word_in(values, "to"))


def surrendering_among(state: GameState, values: Values) -> list[Choice]:
    """Of the surrendering units picked, those the captor may free: only the excess
    over its capacity (A20.21), so none when the whole stack fits under it."""
    among = surrendering_units(state, values)
    why = "the stack fits under {}: only the excess over its capacity is freed"
    return _excess_among(state, values, among, "to", "A20.21", why)


def captured_among(state: GameState, values: Values) -> list[Choice]:
    """Of the defenders picked, those the captor may free: only the excess over its
    capacity (A20.5), so none when all of them fit under it."""
    among = capture_defenders(state, values)
    why = "all fit under {}: only the excess over its capacity goes free"
    return _excess_among(state, values, among, "by", "A20.5", why)


def _excess_among(
    state: GameState, values: Values, among: list[Choice], captor_slot: str, rule: str, why: str
) -> list[Choice]:
    """Of ``among``, the units picked, each refused (``rule``, ``why`` naming the captor)
    when all the picked units fit under the captor named in ``captor_slot``."""
    from stockade.core.rules.surrender import fits_under

    picked = handles_in(values, "units")
    among = [c for c in among if c.handle in picked]
    captor = state.units.get(word_in(values, captor_slot))
    taken = [state.units[h] for h in picked if h in state.units]
    if captor is None or not taken or not fits_under(state, captor, taken):
        return among
    said = why.format(captor.handle)
    return [replace(c, legal=False, rule=rule, reason=said, note="", implies="") for c in among]


def surrender_captors(state: GameState, values: Values) -> list[Choice]:
    from stockade.core.reads import queries

    word = word_in(values, "reason")
    reason: ev.SurrenderReason = next(
        (r for r in ("disrupted", "encircled", "hob", "mopup") if r == word), "rtph"
    )
    return queries.surrender_captors(state, handles_in(values, "units"), reason)


def capture_attackers(state: GameState, values: Values) -> list[Choice]:
    from stockade.core.reads import queries

    return queries.capture_attackers(state)


def capture_defenders(state: GameState, values: Values) -> list[Choice]:
    from stockade.core.reads import queries

    return queries.capture_defenders(state, word_in(values, "by"))


def recapture_guards(state: GameState, values: Values) -> list[Choice]:
    from stockade.core.reads import queries

    return queries.recapture_guards(state, handles_in(values, "units"))


def transfer_guards(state: GameState, values: Values) -> list[Choice]:
    from stockade.core.reads import queries

    return queries.transfer_guards(state, handles_in(values, "units"))


def massacre_units(state: GameState, values: Values) -> list[Choice]:
    from stockade.core.reads import queries

    return queries.massacre_units(state, handles_in(values, "units"))


def takeover_guards(state: GameState, values: Values) -> list[Choice]:
    from stockade.core.reads import queries

    return queries.takeover_guards(state, word_in(values, "unit"))


def prisoners_of_guard(state: GameState, values: Values) -> list[Choice]:
    from stockade.core.reads import queries

    return queries.prisoners_of_guard(state, word_in(values, "unit"))


def escapers(state: GameState, values: Values) -> list[Choice]:
    from stockade.core.reads import queries

    return queries.escapers(state, bool(values.get("own_borders")))


def rearmable_units(state: GameState, values: Values) -> list[Choice]:
    from stockade.core.reads import queries

    return queries.rearmable_units(state)


def rearm_enemies(state: GameState, values: Values) -> list[Choice]:
    from stockade.core.reads import queries

    return queries.rearm_enemies(state, word_in(values, "unit"), word_in(values, "how") or "cc")
