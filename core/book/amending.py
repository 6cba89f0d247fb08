"""Mending an entry where it stands: the amendment's write, its preview, and the fold
moving when an amendment joins or leaves the effective history.

An amendment (``core.model.events.Amend``) is one appended record, written and fsynced
like any other: its event takes the place of entry N in the effective history (the
timeline, ``core.log.timeline``, says which event stands there). From N's place the
fold is taken back and folded again, the Observer (``core.book.consequences``) watching
every later entry, as a strike does: the later entries that still hold stay, the ones
that do differently (or no longer hold) are the ``Change``'s ``later``. The amendment is
a command group of its own, so an undo (or an undo-to reaching it) takes it back, and a
redo puts it back, each folding again from N's place. ``Writer`` takes these methods.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from stockade.core import rules
from stockade.core.book.change import Change
from stockade.core.book.changed_log import stops_on_a_changed_log
from stockade.core.book.projection import Projection
from stockade.core.book.stamping import encoded_within_bounds, now, stamp
from stockade.core.log import game_timeline as _history
from stockade.core.log.game_timeline import Timeline
from stockade.core.log.store import LogStore
from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal, LogRefusal
from stockade.core.model.state import GameState


class Amending:
    """The writer's amendments, on the parts ``core.book.writer.Writer`` holds."""

    store: LogStore
    timeline: Timeline
    projection: Projection
    named: set[int]

    @property
    def records(self) -> Sequence[ev.Record]:  # pragma: no cover - the Writer's
        raise NotImplementedError

    def _after_write_error(self) -> str:  # pragma: no cover - WriteRecovery's
        raise NotImplementedError

    # ------------------------------------------------------------------ writing
    @stops_on_a_changed_log
    def amend(
        self, seq: int, event: ev.Record, reason: str = "", *, preview: bool = False
    ) -> Change:
        """Put ``event`` in the place of entry ``seq``: checked where it stands, written
        durably as one record, then the history is folded again from its place
        (``preview``: ``preview_amend``, nothing written)."""
        if preview:
            return self.preview_amend(seq, event, reason)
        if self.store.problem:
            raise LogRefusal(f"this log is read-only: {self.store.problem}")
        record = self._amendment(seq, event, reason)
        lines = encoded_within_bounds([record])
        self._holds_in_place(record)
        self.store.write([record], self._after_write_error, lines)
        self.store.records.append(record)
        self.timeline.add(record)
        self.named.clear()  # what an undone group folds on may differ now
        return self.refold_from(seq, self.timeline, "amend", seq, [record.seq], amended=[seq])

    def preview_amend(self, seq: int, event: ev.Record, reason: str = "") -> Change:
        """What ``amend`` would do, writing nothing: the same fold, put back after."""
        record = self._amendment(seq, event, reason)
        encoded_within_bounds([record])
        self._holds_in_place(record)
        trial = self.timeline.copy()
        trial.add(record)
        return self.refold_from(seq, trial, "amend", seq, [], preview=True, amended=[seq])

    def _amendment(self, seq: int, event: ev.Record, reason: str) -> ev.Amend:
        was = _history.amendable(self.timeline, self.records, seq)
        if isinstance(event, ev.GameCreated) or ev.is_control(event):
            raise InputRefusal("an entry is amended by an event (what happened at the table)")
        n = len(self.records) + 1
        at = now()
        placed = stamp(event, seq, was.grp, at)
        return ev.Amend(seq=n, grp=n, at=at, target=seq, event=placed, reason=reason)  # type: ignore[arg-type]

    def place(self, seq: int) -> tuple[ev.Record, GameState]:
        """Entry ``seq`` as it stands and the game as it stood at its place (just
        before it: a read-only view), for reading the line that amends it; the Refusal
        when it may not be amended."""
        was = _history.amendable(self.timeline, self.records, seq)
        fold = self.projection
        with fold.lock:
            position, _ = fold.position_of(seq)
            return was, fold.state_at(fold.seqs[position - 1]) if position else GameState()

    def _holds_in_place(self, record: ev.Amend) -> None:
        """Raise the Refusal the rules give for the amendment's event at its place (the
        game as it stood just before the entry it mends)."""
        fold = self.projection
        with fold.lock:
            position, _ = fold.position_of(record.target)
            before = fold.state_at(fold.seqs[position - 1]) if position else GameState()
            rules.check(before, record.event)

    # ------------------------------------------------------------ the fold moves
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
    ) -> Change:
        """The effective history from entry ``seq``'s place becomes what ``timeline``
        says: taken back and folded again, each later entry watched (``preview``: for
        the block of a trial only; ``at``: from that position of the effective history
        instead). The entries amended are not later entries: their new effect is the
        change's units and CVP, not a ``later`` line."""
        from stockade.core.book.consequences import Observer, finish  # a change's: not a read's

        fold = self.projection
        with fold.lock:
            position, present = fold.position_of(seq)
            if at is not None:
                position, present = at, True
            if not present:  # struck or undone: nothing in the effective history moves
                return Change(
                    action=action,
                    preview=preview,
                    target=target,
                    appended=written,
                    conflicts=len(fold.conflicts),
                )
            tail = fold.effective[position:]
            new_tail = timeline.effective()[position:]
            obs = Observer(fold.state, tail + new_tail, True)
            obs.watch = frozenset(obs.watch - {seq, *(amended or ())})
            change = Change(
                action=action,
                preview=preview,
                target=target,
                appended=written,
                amended=list(amended or ()),
            )
            if preview:
                with fold.trial(position, tail, new_tail, obs):
                    change = msgspec.structs.replace(change, conflicts=len(fold.conflicts))
                    return finish(obs, self, change)  # type: ignore[arg-type]
            fold.snapshots = False  # an amended history is not the prefix a snapshot keys
            fold.replace_tail(position, new_tail, obs)
            change = msgspec.structs.replace(change, conflicts=len(fold.conflicts))
            return finish(obs, self, change) if obs.saw else change  # type: ignore[arg-type]

    def amended_place(self, grp: int) -> int:
        """The entry whose place group ``grp`` amends (0: ``grp`` is no amendment)."""
        event = self.timeline.replacements.get(grp)
        return event.seq if event is not None else 0
