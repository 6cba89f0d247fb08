"""Undo, undo-to and redo: the history's last groups taken back and brought back.

An undo (or redo) is one appended control record naming a group; the timeline moves,
then the fold rolls back over the group's entries (or folds them again), an
``Observer`` watching, and the ``Change`` says what it did. An amendment's group
folds again from the place it mended (``core.book.amending``). ``Writer``
(``core.book.writer``) takes these methods; it writes the records.
"""

from __future__ import annotations

import operator

from stockade.core.book.change import Change
from stockade.core.book.changed_log import stops_on_a_changed_log
from stockade.core.book.writer_parts import WriterParts
from stockade.core.log import game_timeline as _history
from stockade.core.model import events as ev
from stockade.core.model.errors import HistoryRefusal

_SEQ_OF = operator.attrgetter("seq")


class Undoing(WriterParts):
    """The writer's undo and redo, on the parts ``core.book.writer.Writer`` holds."""

    def _roll_back_to(self, keep: int, action: str, target: int, written: list[int]) -> Change:
        from stockade.core.book.consequences import Observer, finish  # a change's: not a read's

        fold = self.projection
        with fold.lock:
            tail = fold.effective[keep:]
            obs = Observer(fold.state, tail)
            fold.rollback(keep, obs)
            change = Change(
                action=action,
                target=target,
                appended=written,
                undone=list(map(_SEQ_OF, tail)),
                conflicts=len(fold.conflicts),
            )
            return finish(obs, self, change) if obs.saw else change

    @stops_on_a_changed_log
    def undo(self) -> Change:
        tl = self.timeline
        target = tl.undoable()
        if target is None:
            raise HistoryRefusal("undo", "nothing to undo")
        written = self._control(ev.Undo, target)
        tl.undo(target)
        place = self.amended_place(target)
        if place:  # an amendment: the entry reads as it was, the tail folds again
            self.named.clear()
            return self.refold_from(place, tl, "undo", target, [written], amended=[place])
        self.named.add(target)
        effective = self.projection.effective
        keep = len(effective)  # keep_upto_group(target - 1), inline: most often one step
        while keep and effective[keep - 1].grp >= target:
            keep -= 1
        return self._roll_back_to(keep, "undo", target, [written])

    @stops_on_a_changed_log
    def undo_to(self, seq: int) -> Change:
        targets = _history.undo_to_plan(self.timeline, self.records, seq)
        stamped = self._stamp_controls([ev.Undo(target=g) for g in targets])
        self._append_records(stamped)
        self.named.update(targets)
        keep = self.projection.keep_upto_group(self.records[seq - 1].grp)
        places = [p for p in map(self.amended_place, targets) if p]
        if places:  # amendments taken back: fold again from the first place they mended
            self.named.clear()
            start = min(keep, *(self.projection.position_of(p)[0] for p in places))
            written = [r.seq for r in stamped]
            return self.refold_from(
                seq, self.timeline, "undo_to", seq, written, at=start, amended=places
            )
        return self._roll_back_to(keep, "undo_to", seq, [r.seq for r in stamped])

    def preview_undo_to(self, seq: int) -> Change:
        targets = _history.undo_to_plan(self.timeline, self.records, seq)
        places = [p for p in map(self.amended_place, targets) if p]
        if places:
            trial = self.timeline.copy()
            for grp in targets:
                trial.undo(grp)
            keep = self.projection.keep_upto_group(self.records[seq - 1].grp)
            at = min(keep, *(self.projection.position_of(p)[0] for p in places))
            return self.refold_from(seq, trial, "undo_to", seq, [], True, at, amended=places)
        fold = self.projection
        with fold.lock:
            keep = fold.keep_upto_group(self.records[seq - 1].grp)
            tail = fold.effective[keep:]
            return self._preview(keep, tail, [], "undo_to", seq, undone=[r.seq for r in tail])

    @stops_on_a_changed_log
    def redo(self) -> Change:
        from stockade.core.book.consequences import Observer, finish  # a change's: not a read's

        tl = self.timeline
        target = tl.redoable()
        if target is None:
            raise HistoryRefusal("redo", "nothing to redo")
        written = self._control(ev.Redo, target)
        tl.redo(target)
        place = self.amended_place(target)
        if place:
            self.named.clear()
            return self.refold_from(place, tl, "redo", target, [written], amended=[place])
        named = target in self.named
        self.named.discard(target)
        fold = self.projection
        with fold.lock:
            struck = tl.struck
            back = []  # (a loop: a comprehension's frame cost more than one entry's test)
            for r in tl.group(target):
                if r.seq not in struck:
                    back.append(r)
            obs = Observer(fold.state, back)
            for record in back:
                fold.append(record, obs, named)
            change = Change(
                action="redo",
                target=target,
                appended=[written],
                restored=list(map(_SEQ_OF, back)),
                conflicts=len(fold.conflicts),
            )
            return finish(obs, self, change) if obs.saw else change
