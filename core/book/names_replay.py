"""The names and time of entries that never folded in this process, from the log itself.

An entry's sentence names its units as the fold had them when the entry was recorded
(``core.model.names``; ``core.book.describe`` words it). The fold keeps those names for every
entry it folds, so an entry folded in this process (or held in the snapshot cache,
which keeps them for the effective entries it covers) has them. One that never folded
here (undone or struck, in this session or an earlier one, abandoned by a new entry)
has none, and the state as it is now cannot say them: its handles may name other units
since (a handle freed by an undo is given again), and its branch may have deployed,
split, captured or reduced units that today's state never saw.

Every record in a log was written in order by one writer, each domain record folded
onto the effective history as it stood then and each undo, redo, strike and unstrike
applied as it was. So taking the log's records in again, in order, each as the write it
was (``Writer.absorb``: what a window following another writer does), folds every entry
as its writer folded it, and the names and time kept for an entry are those it had
when it last folded. Entries folded in this process already have exactly these (a
session only continues the writes before it), so only the others are read from here.

The replay is made on first use (describing such an entry) and kept by ``Game`` for
its writer; it costs nothing on open, per write or per fold. It stops at the log's
last undo, redo, strike or unstrike: an entry leaves the effective history only by one
of those, so every entry that never folded here last folded before it.

The replay folds lazily. The names and time an entry gets depend only on the effective
entries before it; between two control records those change only by one of them. So an
entry's last fold as its writer made it, and a fold of it made just before the control
record that takes it out of the effective history, see the same entries before it and
give the same names. The replay keeps the effective history and a fold of a prefix of
it; a control record first folds the prefix up to the entries it takes out (their
names are made then), then moves the history and takes the fold back to where the two
part. Each strike no longer folds the whole tail again (the writer must: it shows the
consequences at once), so a log of thousands of strikes replays in time linear in the
log (500 strikes: 13 s -> well under one; see docs/performance.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from stockade.core.book.projection import Projection, gc_paused
from stockade.core.log.game_timeline import CONTROLS, Timeline
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal
from stockade.core.model.names import Name, NameBook
from stockade.core.model.seq_tables import SeqTable

When = tuple[int, str, str]  # turn, phase, attacker


class NamesThen:
    """Per entry, the names and time it had when it last folded, replayed from a log."""

    __slots__ = ("names", "when")

    def __init__(self, records: Sequence[ev.Record]):
        """Replay ``records``, in order, each as the write it was."""
        self.names = NameBook()
        self.when: SeqTable[When] = SeqTable()
        last = max((r.seq for r in records if ev.is_control(r)), default=0)
        if not records or last == 0:
            return  # no undo, redo or strike: every entry is in effect, and folded
        replay = _LazyReplay(records[0])
        with gc_paused():
            for record in records[1:last]:
                if isinstance(record, ev.GameCreated):
                    break  # records out of order: the entries after it keep no names
                replay.take(record)
        self.names, self.when = replay.fold.names, replay.fold.when

    def of(self, seq: int) -> dict[str, Name]:
        return self.names.of(seq)


def names_when_written(records: list[ev.Record], wanted: set[int]) -> dict[int, dict[str, Name]]:
    """Per entry of ``wanted``, the names its units had when it was written: the
    effective history before it as its writer had it then (``verify`` describes what
    an opponent added so; the fold names an entry that no longer holds from the
    history as it stands now, where its handle may be another unit's, or nobody's)."""
    out: dict[int, dict[str, Name]] = {}
    if not records or not wanted:
        return out
    replay = _LazyReplay(records[0])
    with gc_paused():
        for record in records[1 : max(wanted)]:
            if isinstance(record, ev.GameCreated):
                break
            replay.take(record)
            if record.seq in wanted and not ev.is_control(record):
                replay.fold_to_end()
                out[record.seq] = replay.fold.names.of(record.seq)
    return out


class _LazyReplay:
    """The effective history of a log read in order, and a fold of a prefix of it that
    is carried forward only as far as an entry leaving the history needs."""

    def __init__(self, header: ev.Record):
        self.timeline: Timeline = Timeline(CONTROLS)
        self.timeline.add(header)
        self.effective: list[ev.Record] = [header]  # in effective order (group order)
        self.seqs: list[int] = [header.seq]  # parallel: a C ``index`` finds an entry
        self.fold = Projection([header])  # folds ``effective[:len(fold.effective)]``
        self.folds = 1  # events folded (a test counts them: linear, not quadratic)

    def take(self, record: ev.Record) -> None:
        timeline = self.timeline
        if not ev.is_control(record):
            timeline.add(record)
            self.effective.append(record)
            self.seqs.append(record.seq)
            return
        if isinstance(record, ev.Undo):
            leaving = self._group_start(record.target)
            self._fold_to(len(self.effective))
        elif isinstance(record, ev.Strike) and record.target in self.seqs:
            leaving = self.seqs.index(record.target)
            self._fold_to(leaving + 1)
        else:
            leaving = -1
        try:
            timeline.add(record)
        except Refusal:
            return  # a control record that no longer applies: ignored, as on opening
        if isinstance(record, ev.Amend) or (
            isinstance(record, ev.Undo | ev.Redo) and record.target in timeline.replacements
        ):
            self._restore()  # another event stands at the amended place: fold from there
            return
        if isinstance(record, ev.Undo):
            self._cut(max(leaving, 0))
        elif isinstance(record, ev.Redo):
            back = [r for r in timeline.group(record.target) if r.seq not in timeline.struck]
            self.effective += back
            self.seqs += [r.seq for r in back]
        elif isinstance(record, ev.Strike) and leaving >= 0:
            del self.effective[leaving], self.seqs[leaving]
            self._back_to(leaving)
        elif isinstance(record, ev.Unstrike):
            self._restore()

    def _group_start(self, grp: int) -> int:
        """Where the last group in effect starts, if it is ``grp`` (an undo takes it
        out: its entries are the last of the history)."""
        position = len(self.effective)
        while position > 1 and self.effective[position - 1].grp == grp:
            position -= 1
        return position

    def fold_to_end(self) -> None:
        self._fold_to(len(self.effective))

    def _fold_to(self, position: int) -> None:
        fold, effective = self.fold, self.effective
        for record in effective[len(fold.effective) : position]:
            fold.append(record)
            self.folds += 1

    def _back_to(self, position: int) -> None:
        if position < len(self.fold.effective):
            self.fold.rollback(position)

    def _cut(self, position: int) -> None:
        del self.effective[position:], self.seqs[position:]
        self._back_to(position)

    def _restore(self) -> None:
        """An unstrike puts an entry back in its place (an amendment, or its undo or
        redo, puts another event there): the history is made again from the timeline
        (rare), and the fold taken back to where the two first differ."""
        effective = self.timeline.effective()
        folded = self.fold.effective
        same = 0
        for old, new in zip(folded, effective, strict=False):
            if old is not new and old != new:  # (a record read again is equal, not the same)
                break
            same += 1
        self.effective, self.seqs = effective, [r.seq for r in effective]
        self._back_to(same)
