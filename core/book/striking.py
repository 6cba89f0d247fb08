"""Strike and unstrike: an entry taken out of the effective history, or put back, with
the board facts it implied (one record each, written in one write), and their previews.

The tail from the entry's place is folded again, an ``Observer`` watching every later
entry, and the ``Change`` says which later entries do differently or no longer hold.
``Writer`` (``core.book.writer``) takes these methods; it writes the records.
"""

from __future__ import annotations

from typing import Any

from stockade.core.book.change import Change
from stockade.core.book.changed_log import stops_on_a_changed_log
from stockade.core.book.stamping import within_bounds
from stockade.core.book.writer_parts import WriterParts
from stockade.core.log import game_timeline as _history
from stockade.core.model import events as ev


class Striking(WriterParts):
    """The writer's strikes, on the parts ``core.book.writer.Writer`` holds."""

    def _strikable(self, seq: int, verb: str = "strike") -> ev.Record:
        return _history.strikable(self.timeline, self.records, seq, verb)

    def struck_together(self, seq: int, verb: str = "strike") -> list[int]:
        """The entries ``strike(seq)`` (``verb`` "unstrike": ``unstrike(seq)``) acts on:
        the player's entry with the board facts it implied, as one undo takes them."""
        return _history.struck_together(self.timeline, self.records, seq, verb)

    @stops_on_a_changed_log
    def strike(self, seq: int, reason: str = "") -> Change:
        self._strikable(seq)
        together = self.struck_together(seq)
        if len(together) > 1:
            return self._together(seq, together, "strike", reason)
        written = self._control(ev.Strike, seq, reason)
        self.timeline.strike(seq, written)
        self.named.clear()  # what an undone group folds on may differ now
        return self._refold(seq, "strike", [written])

    @stops_on_a_changed_log
    def unstrike(self, seq: int) -> Change:
        self._strikable(seq, "unstrike")
        together = self.struck_together(seq, "unstrike")
        if len(together) > 1:
            return self._together(seq, together, "unstrike")
        written = self._control(ev.Unstrike, seq)
        self.timeline.unstrike(seq)
        self.named.clear()
        return self._refold(seq, "unstrike", [written])

    def preview_strike(self, seq: int) -> Change:
        self._strikable(seq)
        together = self.struck_together(seq)
        if len(together) > 1:
            return self._together(seq, together, "strike", preview=True)
        return self._refold(seq, "strike", [], preview=True)

    def preview_unstrike(self, seq: int) -> Change:
        self._strikable(seq, "unstrike")
        together = self.struck_together(seq, "unstrike")
        if len(together) > 1:
            return self._together(seq, together, "unstrike", preview=True)
        return self._refold(seq, "unstrike", [], preview=True)

    def _together(
        self, seq: int, together: list[int], action: str, reason: str = "", preview: bool = False
    ) -> Change:
        """Strike (or unstrike) an entry with the board facts it implied: one record
        each, written in one write (a crash leaves all of them or none), then the tail
        folded again once from the first of them."""
        fold = self.projection
        with fold.lock:
            position = fold.position_of(together[0])[0]
            tail = fold.effective[position:]
            if action == "strike":
                gone = set(together)
                new_tail = [r for r in tail if r.seq not in gone]
                lists = {"struck": together}
            else:
                undone = self.timeline.undone
                back = [self.timeline.standing(self.records[s - 1]) for s in together]
                back = [r for r in back if r.grp not in undone]
                new_tail = sorted([*tail, *back], key=lambda r: (r.grp, r.seq))
                lists = {"restored": [r.seq for r in back]}
            if preview:
                return self._preview(position, tail, new_tail, action, seq, **lists)
            return self._write_together(
                seq, together, action, reason, position, tail, new_tail, lists
            )

    def _write_together(
        self,
        seq: int,
        together: list[int],
        action: str,
        reason: str,
        position: int,
        tail: list[ev.Record],
        new_tail: list[ev.Record],
        lists: dict[str, list[int]],
    ) -> Change:
        from stockade.core.book.consequences import Observer, finish  # a change's: not a read's

        fold = self.projection
        controls: list[ev.Record] = [
            ev.Strike(target=s, reason=reason) if action == "strike" else ev.Unstrike(target=s)
            for s in together
        ]
        stamped = self._stamp_controls(controls)
        if reason:
            within_bounds(stamped)
        self._append_records(stamped)  # the timeline takes each strike as it is added
        self.named.clear()
        obs = Observer(fold.state, tail + new_tail, True)
        fold.replace_tail(position, new_tail, obs)
        change = Change(
            action=action,
            target=seq,
            appended=[r.seq for r in stamped],
            conflicts=len(fold.conflicts),
            **lists,  # type: ignore[arg-type]
        )
        return finish(obs, self, change) if obs.saw else change

    def _refold(self, seq: int, action: str, written: list[int], preview: bool = False) -> Change:
        """Entry ``seq`` leaves (strike) or rejoins (unstrike) the effective history:
        fold the tail from its place again, watching what each later entry does."""
        from stockade.core.book.consequences import Observer, finish  # a change's: not a read's

        fold = self.projection
        with fold.lock:
            position, present = fold.position_of(seq)
            tail = fold.effective[position:]
            record = self.timeline.standing(self.records[seq - 1])  # as amended
            if action == "strike" and present:
                how, new_tail = "struck", tail[1:]
            elif action == "unstrike" and not present and record.grp not in self.timeline.undone:
                how, new_tail = "restored", [record, *tail]
            else:  # undone: nothing in the effective history moves
                return Change(
                    action=action,
                    preview=preview,
                    target=seq,
                    appended=written,
                    conflicts=len(self.conflicts),
                )
            if preview:
                return self._preview(position, tail, new_tail, action, seq, **{how: [seq]})
            obs = Observer(fold.state, tail + new_tail, True)
            fold.replace_tail(position, new_tail, obs)
            change = Change(
                action=action,
                target=seq,
                appended=written,
                struck=[seq] if how == "struck" else [],
                restored=[seq] if how == "restored" else [],
                conflicts=len(fold.conflicts),
            )
            return finish(obs, self, change) if obs.saw else change

    def _preview(
        self,
        position: int,
        tail: list[ev.Record],
        new_tail: list[ev.Record],
        action: str,
        seq: int,
        **lists: Any,
    ) -> Change:
        from stockade.core.book.consequences import Observer, finish  # a change's: not a read's

        fold = self.projection
        obs = Observer(fold.state, tail + new_tail, True)
        with fold.trial(position, tail, new_tail, obs):
            change = Change(
                action=action, preview=True, target=seq, conflicts=len(fold.conflicts), **lists
            )
            return finish(obs, self, change)
