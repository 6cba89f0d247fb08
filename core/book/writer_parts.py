"""What each of the writer's roles (undoing, striking, absorbing) reads of the others:
the parts ``core.book.writer.Writer`` holds, and the methods of its other roles,
declared here for the type checker only. Nothing here runs: ``Writer`` and the role
modules define each, so no declaration can stand in front of a definition."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from stockade.core.book.change import Change
from stockade.core.book.game_view import Replayed, When
from stockade.core.book.projection import Projection
from stockade.core.log.game_timeline import Timeline
from stockade.core.log.store import LogStore
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal
from stockade.core.model.names import NameBook


class WriterParts:
    store: LogStore
    timeline: Timeline
    projection: Projection
    named: set[int]

    if TYPE_CHECKING:
        # what a write's Change reads (``core.book.game_view.GameView``): the Writer's
        @property
        def records(self) -> Sequence[ev.Record]: ...
        @property
        def conflicts(self) -> dict[int, Refusal]: ...
        @property
        def when(self) -> Mapping[int, When]: ...
        @property
        def names(self) -> NameBook: ...
        def names_then(self) -> Replayed: ...

        # writing records: the Writer's
        def _control(
            self,
            kind: type[ev.Undo | ev.Redo | ev.Strike | ev.Unstrike],
            target: int,
            reason: str = "",
        ) -> int: ...
        def _stamp_controls(self, controls: list[ev.Record]) -> list[ev.Record]: ...
        def _append_records(self, stamped: list[ev.Record]) -> None: ...

        # folding again: core.book.amending's and core.book.striking's
        def amended_place(self, grp: int) -> int: ...
        def refold_from(
            self,
            seq: int,
            timeline: Timeline,
            action: str,
            target: int,
            written: list[int],
            preview: bool = False,
            at: int | None = None,
            amended: list[int] | None = None,
        ) -> Change: ...
        def _refold(
            self, seq: int, action: str, written: list[int], preview: bool = False
        ) -> Change: ...
        def _preview(
            self,
            position: int,
            tail: list[ev.Record],
            new_tail: list[ev.Record],
            action: str,
            seq: int,
            **lists: Any,
        ) -> Change: ...
