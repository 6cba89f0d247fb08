"""What wording an entry and telling a change read of a game: one typed seam.

``core.book.describe`` words entries and ``core.book.consequences`` says what a change
did; both read the game as it is now through this protocol, which the front door
(``core.book.game.Game``) and the write protocol (``core.book.writer.Writer``) both
satisfy, so neither module imports them (they import these two).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal
from stockade.core.model.names import Name, NameBook

When = tuple[int, str, str]  # an entry's turn, phase and attacker


class Replayed(Protocol):
    """The names and time of entries that never folded here (``core.book.names_replay``'s
    ``NamesThen``; named here so that wording an entry imports no replay, which folds)."""

    @property
    def when(self) -> Mapping[int, When]: ...

    def of(self, seq: int) -> dict[str, Name]: ...


class GameView(Protocol):
    @property
    def records(self) -> Sequence[ev.Record]: ...

    @property
    def conflicts(self) -> dict[int, Refusal]: ...

    @property
    def when(self) -> Mapping[int, When]: ...

    @property
    def names(self) -> NameBook: ...

    def names_then(self) -> Replayed: ...


__all__ = ["GameView", "Replayed", "When"]
