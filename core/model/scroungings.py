"""The hexes that have had their Scrounging DR this game: A20.552 allows one DR per hex
per MPh, so the book keeps each (turn, attacker, Location) rolled in.

A set (membership is all the rules ask), that also keeps the order the keys were
added in. An event's undo entry then names the keys it added (the last ones: usually
one), and taking it back removes just those: O(1) an entry. A copy of the whole set
in every Scrounged entry's undo entry made N entries cost N^2.

Keys are only ever added by the rules (``add``); ``take_back`` is the undo's.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

Key = tuple[int, str, str]  # turn, attacker, Location


class Scroungings(set[Key]):
    """A set of ``Key`` whose ``order`` lists its keys in the order added."""

    __slots__ = ("order",)
    order: list[Key]

    def __init__(self, keys: Iterable[Key] = ()) -> None:
        super().__init__()
        self.order = []
        for key in keys:
            self.add(key)

    def add(self, key: Key) -> None:
        if key not in self:
            super().add(key)
            self.order.append(key)

    def added_since(self, count: int) -> tuple[Key, ...]:
        """The keys added after the first ``count`` (what an event added: undo)."""
        return tuple(self.order[count:])

    def take_back(self, keys: tuple[Key, ...]) -> None:
        """Remove ``keys``, the last ones added (an undo, newest first)."""
        order = self.order
        for key in reversed(keys):
            if order and order[-1] == key:
                order.pop()
            else:  # pragma: no cover - only the last keys are ever taken back
                order.remove(key)
            self.discard(key)

    def first(self, count: int) -> Scroungings:
        """A copy of the first ``count`` keys added (a replay view; in C: no ``add``
        per key)."""
        keys = self.order[:count]
        new = Scroungings.__new__(Scroungings)
        set.update(new, keys)
        new.order = keys
        return new

    def copy(self) -> Scroungings:
        return self.first(len(self.order))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Scroungings, (list(self.order),))
