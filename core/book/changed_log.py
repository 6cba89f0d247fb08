"""A write whose fold reads a record again from a log another program has changed.

A long log's records are read again from the file when a write folds them (an undo's
tail, a redo's group, a strike's refold: ``core.log.effective_records``), and a block
changed on disk since it was read is refused by name (``core.log.records``), never
decoded as if it were the same. The write's own record may be in the file by then, and
its fold cannot finish: the game stops writing (read-only, saying why and to open it
again), as it does for a log replaced while open, rather than going on with a fold
that no longer follows the file.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Concatenate, ParamSpec, Protocol, TypeVar

from stockade.core.log.journal_errors import JournalError
from stockade.core.log.store import LogStore
from stockade.core.model.errors import LogRefusal


class _HasStore(Protocol):
    store: LogStore


P = ParamSpec("P")
T = TypeVar("T")
W = TypeVar("W", bound=_HasStore)


def stops_on_a_changed_log(
    method: Callable[Concatenate[W, P], T],
) -> Callable[Concatenate[W, P], T]:
    """``method`` (a write of a game), refused and the game read-only from then on
    when a record it reads again is no longer what the file held when it was read."""

    def guarded(self: W, /, *args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return method(self, *args, **kwargs)
        except JournalError as changed:
            if self.store.journal is None:
                raise
            raise LogRefusal(self.store.stop_writing(str(changed))) from None

    guarded.__name__, guarded.__doc__ = method.__name__, method.__doc__
    return guarded


__all__ = ["stops_on_a_changed_log"]
