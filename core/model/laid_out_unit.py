"""A unit as it is laid out, for a snapshot's row (``core.log.snap_units``).

A unit keeps most of its fields in slots and the rarely set ones in one optional
mapping (``core.model.unit_layout``). Laid out, it is the slots' fields in order
(``LAID_OUT``), then its ``_origins`` (None: the counter it entered as) and its
``_more`` (the rarely set fields not at their default, None when none is): read back,
a unit is its slots set with one unpacking store, never each rare field compared with
its default again. Only a snapshot read or written loads this module: a fold makes
its units through ``core.model.tracked_unit``.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

from stockade.core.model.tracked_unit import RARELY_SET, UNIT_FIELDS, BareUnit, Unit

# A unit as it is laid out (``core.model.unit_layout``): the fields every unit holds in
# a slot, in order, then its ``_origins`` (None: the counter it entered as) and its
# ``_more`` (the rarely set fields not at their default, None when none is). A snapshot
# keeps units so (``core.log.snap_units``): read back, a unit is its slots set, never
# each rare field compared with its default again.
LAID_OUT = tuple(n for n in UNIT_FIELDS if n not in RARELY_SET and n != "origins")
assert UNIT_FIELDS[:6] + UNIT_FIELDS[7:17] + UNIT_FIELDS[35:38] == LAID_OUT, LAID_OUT
_LAID_OUT_GETTER = operator.attrgetter(*LAID_OUT, "_origins", "_more")
_RARE_SET = frozenset(RARELY_SET)


def layout_values(u: Unit) -> tuple[Any, ...]:
    """The fields of ``u`` in ``LAID_OUT``, then its ``_origins`` and ``_more``."""
    values: tuple[Any, ...] = _LAID_OUT_GETTER(u)
    return values


def unit_of_layout(values: Sequence[Any]) -> Unit:
    """An untracked Unit from ``layout_values`` (``_more``'s values of their fields'
    types, none at its default: as ``layout_values`` gives them). ValueError when
    ``_more`` names a field that is not a rare one, or the values are not one a slot."""
    o: Any = object.__new__(BareUnit)  # untracked: no ``Tracked.__new__`` call
    (
        o.handle,
        o.side,
        o.unit_kind,
        o.counter,
        o.created,
        o.cvp,
        o.traits,
        o.status,
        o.armed,
        o.broken,
        o.pinned,
        o.berserk,
        o.melee,
        o.disrupted,
        o.location,
        o.guard,
        o.broken_told,
        o.location_told,
        o.placed_clock,
        o._origins,
        more,
    ) = values
    if more is not None and (not more or not more.keys() <= _RARE_SET):
        raise ValueError(f"not a unit's rare fields: {sorted(more)}")
    o._more = more
    o._tracker = None
    o.__class__ = Unit
    unit: Unit = o
    return unit


__all__ = ["LAID_OUT", "layout_values", "unit_of_layout"]
