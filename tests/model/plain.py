"""A state's parts as plain data, held apart from the live state (a plain module, not a
test module): what the history and state-machine tests compare a game against."""

from __future__ import annotations

import dataclasses
import functools
import operator

from stockade.core.model.tracked_unit import Origin, Unit

_LEAF = (str, int, float, bool, type(None), frozenset)


@functools.cache
def _fields_of(cls: type) -> operator.attrgetter:
    return operator.attrgetter(*(f.name for f in dataclasses.fields(cls)))


def plain(value):
    """A copy of ``value`` made of tuples, lists and immutable leaves, equal where
    ``dataclasses.asdict`` would be equal and held apart from the live state as its
    deep copy is, at a fraction of its cost (the history tests dump 1,500-entry states
    hundreds of times): a dataclass becomes its type and field values, in field order."""
    if isinstance(value, _LEAF):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        values = _fields_of(type(value))(value)
        if not isinstance(values, tuple):  # attrgetter of one name
            values = (values,)
        return (type(value).__name__, *(v if isinstance(v, _LEAF) else plain(v) for v in values))
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, set):
        return frozenset(value)
    raise TypeError(f"dump cannot copy a {type(value).__name__}")


# A unit's fields but its origins are immutable values (str, int, bool, None, frozenset):
# read at once into a tuple, they are a copy held apart from the live unit; the origins
# are a list of mutable Origins, copied one by one. Equal exactly where ``plain`` is, at a
# fraction of its cost (a unit is 39 fields, and a history test dumps hundreds of states).
_UNIT_VALUES = operator.attrgetter(
    *(f.name for f in dataclasses.fields(Unit) if f.name != "origins")
)
_ORIGIN_VALUES = operator.attrgetter(*(f.name for f in dataclasses.fields(Origin)))
_IMMUTABLE = {"bool", "int", "str", "str | None", "frozenset[str]"}
assert {str(f.type) for f in dataclasses.fields(Unit) if f.name != "origins"} <= _IMMUTABLE


def unit_values(u: Unit) -> tuple:
    """Every field of ``u``, as plain values held apart from it."""
    return _UNIT_VALUES(u), [_ORIGIN_VALUES(o) for o in u.origins]
