"""A dataclass whose methods are not compiled from source when the class is made.

``dataclasses.dataclass`` writes the ``__init__``, ``__repr__`` and ``__eq__`` of each
class as source text and compiles it (~3 M instructions for a class of ten fields):
the state's three classes cost every fold ~9 M, more than reading a hundred entries.
``plain_dataclass`` makes the same dataclass without them (``dataclass(init=False,
repr=False, eq=False)``: the same fields, defaults, ``__match_args__`` and
``dataclasses.fields``, ``asdict`` and ``replace``) and gives it methods written once
here that read those fields: the same arguments, defaults and factories set in field
order through the class's own ``__setattr__``, the same repr, equality and ``__hash__``
(None, as a dataclass that compares). For classes made a few times a fold (the state,
its sides, its casualty lines), never for one made per unit (``Origin``): each call
reads the fields from a table, slower than compiled code.
"""

from __future__ import annotations

import dataclasses
import operator
import reprlib
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform

_T = TypeVar("_T")


@dataclass_transform()
def plain_dataclass(cls: type[_T]) -> type[_T]:
    """``@dataclass`` (its defaults: init, repr, eq; not frozen), its methods not
    compiled from source."""
    assert not hasattr(cls, "__post_init__"), "a __post_init__: use @dataclass"
    # without a docstring, ``dataclass`` writes one from ``inspect.signature``: ~0.3 M
    # instructions at every import for a text no one reads
    assert cls.__doc__, f"{cls.__name__}: give it a docstring"
    made: Any = dataclasses.dataclass(init=False, repr=False, eq=False)(cls)
    fields = dataclasses.fields(made)
    assert all(f.init and not f.kw_only for f in fields), "init=False or kw_only: use @dataclass"
    made.__init__ = _init(made.__qualname__, fields)
    made.__repr__ = _repr(tuple(f.name for f in fields if f.repr))
    made.__eq__ = _eq(tuple(f.name for f in fields if f.compare))
    if "__hash__" not in cls.__dict__:  # (as dataclass: eq without frozen is unhashable)
        made.__hash__ = None
    for name in ("__init__", "__repr__", "__eq__"):
        method = made.__dict__[name]
        method.__qualname__ = f"{made.__qualname__}.{name}"
    assert tuple(f.name for f in fields) == made.__match_args__
    made_class: type[_T] = made
    return made_class


def _init(qualname: str, fields: tuple[dataclasses.Field[Any], ...]) -> Callable[..., None]:
    names = tuple(f.name for f in fields)
    known = frozenset(names)
    n = len(names)
    default_of = {f.name: f.default for f in fields if f.default is not dataclasses.MISSING}
    factory_of = {
        f.name: f.default_factory for f in fields if f.default_factory is not dataclasses.MISSING
    }
    required = [name for name in names if name not in default_of and name not in factory_of]
    assert names[: len(required)] == tuple(required), "a required field after a default"

    call = f"{qualname}.__init__()"

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if not args and len(kwargs) == n and kwargs.keys() == known:  # each field by name
            for name in names:
                setattr(self, name, kwargs[name])
            return
        given = len(args)
        if given > n:
            raise TypeError(f"{call} takes {n + 1} positional arguments but {given + 1} were given")
        if kwargs:
            for name in kwargs:
                if name not in known:
                    raise TypeError(f"{call} got an unexpected keyword argument {name!r}")
            for name in names[:given]:
                if name in kwargs:
                    raise TypeError(f"{call} got multiple values for argument {name!r}")
        missing = [name for name in required[given:] if name not in kwargs]
        if missing:
            raise TypeError(
                f"{call} missing {len(missing)} required positional"
                f" argument{'s' if len(missing) > 1 else ''}: "
                + ", ".join(repr(name) for name in missing)
            )
        for name, value in zip(names, args, strict=False):
            setattr(self, name, value)
        for name in names[given:]:
            if name in kwargs:
                value = kwargs[name]
            elif name in factory_of:
                value = factory_of[name]()
            else:
                value = default_of[name]
            setattr(self, name, value)

    return __init__


def _repr(names: tuple[str, ...]) -> Callable[[Any], str]:
    @reprlib.recursive_repr()
    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{type(self).__qualname__}({shown})"

    return __repr__


def _eq(names: tuple[str, ...]) -> Callable[[Any, Any], Any]:
    values: Callable[[Any], Any] = (
        operator.attrgetter(*names)
        if len(names) > 1
        else lambda o: tuple(getattr(o, name) for name in names)
    )

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    return __eq__
