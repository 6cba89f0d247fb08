"""Following another writer: a record another process appended to the log, taken
in with the same effect on this game as the call that wrote it had on the writer's,
nothing written (``core.book.follow``: a read-only window following the one that
writes). ``Writer`` (``core.book.writer``) takes this method.
"""

from __future__ import annotations

from stockade.core.book.writer_parts import WriterParts
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal


class Absorbing(WriterParts):
    """The writer's ``absorb``, on the parts ``core.book.writer.Writer`` holds."""

    def absorb(self, record: ev.Record) -> None:
        """Take in a record another process appended to the log: the same effect on
        this game as the call that wrote it there had on the writer's, nothing written
        (``core.book.follow``: a read-only window following the one that writes). Raises
        ValueError for a record that does not come next (the caller re-reads)."""
        if record.seq != len(self.records) + 1 or isinstance(record, ev.GameCreated):
            raise ValueError(f"entry {record.seq} does not follow entry {len(self.records)}")
        fold = self.projection
        with fold.lock:
            try:
                self.timeline.add(record)
            except Refusal as refusal:
                raise ValueError(f"entry {record.seq}: {refusal}") from None
            # records taken in from bytes this store did not read through its own
            # open or write: what is derived from it is no longer keyed by them
            self.store.content = None
            self.store.records.append(record)
            if isinstance(record, ev.Amend):
                self.named.clear()
                self.refold_from(record.target, self.timeline, "amend", record.target, [])
            elif isinstance(record, ev.Undo | ev.Redo) and self.amended_place(record.target):
                self.named.clear()
                place = self.amended_place(record.target)
                self.refold_from(place, self.timeline, "undo", record.target, [])
            elif isinstance(record, ev.Undo):
                fold.rollback(fold.keep_upto_group(record.target - 1))
            elif isinstance(record, ev.Redo):
                for redone in self.timeline.group(record.target):
                    if redone.seq not in self.timeline.struck:
                        fold.append(redone)
            elif isinstance(record, ev.Strike | ev.Unstrike):
                self.named.clear()
                if 1 <= record.target < record.seq:
                    action = "strike" if isinstance(record, ev.Strike) else "unstrike"
                    self._refold(record.target, action, [record.seq])
            else:
                fold.append(record)
