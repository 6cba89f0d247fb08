"""A snapshot's units (``core.log.snapcache``): a row each, as the unit is laid out.

A unit keeps most of its fields in slots and the rarely set ones in one optional
mapping (``core.model.unit_layout``). Its row is that layout: the slots' fields in
order, its origins as the unit keeps them (None: the counter it entered as), and the
mapping of its rare fields not at their default (None when none is). Read back, a
unit is made from its row with one unpacking store, its rare fields taken as the
mapping msgspec decoded (in C), never each compared with its default again: a row
of every field cost a comparison per rare field per unit, most of a warm open's
units.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from stockade.core.model.laid_out_unit import LAID_OUT, layout_values, unit_of_layout
from stockade.core.model.tracked_unit import RARELY_SET, Origin, Unit, unit_values

Rare = str | int | bool | frozenset[str]  # the types of a unit's rare fields


# An array-like Struct (decoded in C) with the fields ``LAID_OUT`` names, in the same
# order and of the same types as ``Unit``'s (``covers_unit`` checks: a field added and
# not here switches snapshots off, and fails the tests), then the unit's origins and
# its rare fields as the unit keeps them.
class UnitRow(msgspec.Struct, array_like=True):
    handle: str
    side: str
    unit_kind: str
    counter: str
    created: int
    cvp: int
    traits: frozenset[str]
    status: str
    armed: bool
    broken: bool
    pinned: bool
    berserk: bool
    melee: bool
    disrupted: bool
    location: str
    guard: str | None
    broken_told: str
    location_told: str
    placed_clock: str
    origins: list[Origin] | None  # None: the one counter it entered as
    more: dict[str, Rare] | None  # its rare fields not at their default; None: all are


RARE_TYPES = frozenset(("str", "int", "bool", "frozenset[str]"))  # as ``Rare`` holds them


def covers_unit(written: list[tuple[str, object]], row: list[tuple[str, object]]) -> bool:
    """Do a row's fields (``row``: names and annotations as written) hold every field
    of ``Unit`` (``written``, the same)? ``LAID_OUT`` of the same types, in order,
    then the origins, then a mapping of the rare fields, each of a type it holds."""
    types = dict(written)
    laid = [(name, types[name]) for name in LAID_OUT]
    return (
        [name for name, _ in written] == list(types)
        and set(types) == {*LAID_OUT, "origins", *RARELY_SET}
        and row[: len(laid)] == laid
        and row[len(laid) :]
        == [("origins", f"{types['origins']} | None"), ("more", "dict[str, Rare] | None")]
        and all(types[name] in RARE_TYPES for name in RARELY_SET)
    )


def unit_row(u: Unit) -> UnitRow:
    return UnitRow(*layout_values(u))


def units_of(rows: Iterable[UnitRow]) -> dict[str, Unit]:
    """The units ``rows`` keep, by handle (ValueError when a row's rare fields are not
    a unit's)."""
    astuple = msgspec.structs.astuple
    units: dict[str, Unit] = {}
    for unit in map(unit_of_layout, map(astuple, rows)):
        units[unit.handle] = unit
    return units


def row_values(row: UnitRow) -> tuple[object, ...]:
    """Every field of the unit ``row`` keeps, in ``Unit``'s order."""
    return unit_values(unit_of_layout(msgspec.structs.astuple(row)))
