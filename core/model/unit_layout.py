"""How a ``Unit``'s fields are laid out in memory: most in slots, the rarely set ones in
one optional mapping.

A campaign holds a ``Unit`` for every counter that ever entered play, and most of
its fields are set only when that counter is captured, freed, lost or in Melee: a
plain counter left them at their defaults, yet paid a slot (8 bytes) each. Here those
fields (``rare``) are properties over one slot, ``_more``: None while every one of
them is at its default, else a mapping of those that are not (never changed in place,
so a copy of the unit may share it). The class still reads as the dataclass it is
declared as (``dataclasses.fields``, ``asdict``, its ``__init__`` to type checkers),
and a field set to its default goes back out of the mapping (a capture undone leaves
the unit plain again).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform

_T = TypeVar("_T")
_set_field = object.__setattr__


def rare_property(name: str, default: Any) -> property:
    """Field ``name`` read from the unit's ``_more`` mapping (``default`` when absent)."""
    kind = type(default)

    def get(self: Any) -> Any:
        more = self._more
        if more is None:
            return default
        return more.get(name, default)

    def put(self: Any, value: Any) -> None:
        more = self._more
        if type(value) is kind and value == default:
            if more is None or name not in more:
                return
            more = {k: v for k, v in more.items() if k != name} or None
        elif more is None:
            more = {name: value}
        else:
            more = {**more, name: value}  # a new mapping: copies may share the old one
        _set_field(self, "_more", more)

    return property(get, put, doc=f"{name}, kept in ``_more`` when not {default!r}")


def more_of(rare: tuple[str, ...], defaults: tuple[Any, ...], values: tuple[Any, ...]) -> Any:
    """The ``_more`` mapping of a unit whose rare fields hold ``values``: None when
    each is its default (the usual case, one tuple comparison)."""
    if values == defaults:
        return None
    more = {
        name: value
        for name, value, default in zip(rare, values, defaults, strict=True)
        # most are the default object itself ('', 0, False, None): no type or ==
        if value is not default and not (type(value) is type(default) and value == default)
    }
    return more or None


@dataclass_transform()
def split_layout(
    *, rare: tuple[str, ...], own: tuple[str, ...] = ()
) -> Callable[[type[_T]], type[_T]]:
    """Make the class declared (as a dataclass would read it: its annotated fields and
    their defaults) a slotted class whose ``rare`` fields are ``_more`` properties.
    ``own``: fields the class's module gives a property of its own, each kept in the
    slot ``_<name>``. The class gets ``__dataclass_fields__`` (no method is generated: it
    writes its own ``__init__``, ``__eq__`` and ``__repr__``) and ``_field_names``, every
    field in order."""

    def build(cls: type[_T]) -> type[_T]:
        # without a docstring, ``dataclass`` writes one from ``inspect.signature``: ~0.3 M
        # instructions at every import for a text no one reads
        assert cls.__doc__, f"{cls.__name__}: give it a docstring"
        spec = dataclasses.dataclass(init=False, repr=False, eq=False, match_args=False)(cls)
        fields = dataclasses.fields(spec)  # type: ignore[arg-type]
        names = tuple(f.name for f in fields)
        missing = set(rare) - set(names)
        assert not missing, f"not fields: {missing}"
        ns = {
            key: value
            for key, value in vars(cls).items()
            if key not in names and key not in ("__dict__", "__weakref__")
        }
        ns["__slots__"] = tuple(("_" + n if n in own else n) for n in names if n not in rare) + (
            "_more",
        )
        ns["_field_names"] = names
        made: Any = type(cls)
        new: type[_T] = made(cls.__name__, cls.__bases__, ns)
        for f in fields:
            if f.name in rare:
                setattr(new, f.name, rare_property(f.name, f.default))
        return new

    return build
