"""Undo, redo, strike and unstrike records that act on nothing.

Stockade never writes one: ``Game.undo`` takes back only the last entry in effect,
``Game.strike`` refuses an entry that is already struck, and so on. A log can still
hold one, added by hand or by another program (a mailed log, a bad merge). Opening the
game ignores it (``core.log.game_timeline.build_timeline`` skips an undo or redo that does not
apply; a strike of an entry that is not there strikes nothing), so the game reads, but
the record says something that did not happen. ``stockade check`` names each one by
its line (a log's line N holds its record N).

The reasons are the ones ``Game`` itself gives when refusing the same write
(``Timeline.undo`` / ``redo``, ``history.strikable``), judged against the log as it
stood when the record was written: only the records before it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass

from stockade.core.log.game_timeline import CONTROLS, Timeline, amendable, strikable
from stockade.core.log.salvage import is_stand_in
from stockade.core.model import events as ev
from stockade.core.model.errors import HistoryRefusal, Refusal


@dataclass(frozen=True)
class ControlProblem:
    line: int  # the record's line in the log (= its seq)
    verb: str  # undo / redo / strike / unstrike
    target: int
    reason: str

    @property
    def message(self) -> str:
        return (
            f"{self.verb} of entry {self.target} acts on nothing: {self.reason} "
            "(Stockade never writes such a record; the game ignores it)"
        )

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


_VERBS: dict[type, str] = {
    ev.Undo: "undo",
    ev.Redo: "redo",
    ev.Strike: "strike",
    ev.Amend: "amend",
}


def control_problems(records: Sequence[ev.Record]) -> list[ControlProblem]:
    """Every control record of ``records`` (a whole log, in order) whose target does
    not exist before it or cannot be acted on then, in log order."""
    # its groups hold the seqs of their events, read from ``records`` by line when
    # asked for: a long log's records are read from the file, and a timeline holding
    # them all decoded cost ``check`` ~700 bytes a record at once
    timeline = Timeline(CONTROLS, lines=records)
    out: list[ControlProblem] = []
    for record in records:
        if not ev.is_control(record):
            timeline.add(record)
            continue
        verb = _VERBS.get(type(record), "unstrike")
        target: int = getattr(record, "target", 0)
        reason = _why_not(timeline, records, record, verb, target)
        if reason:
            out.append(ControlProblem(record.seq, verb, target, reason))
            continue
        # moot (a stand-in's, or an amendment of a line repair left out): ignored
        with contextlib.suppress(Refusal):
            timeline.add(record)
    return out


def _why_not(
    timeline: Timeline, records: Sequence[ev.Record], record: ev.Record, verb: str, target: int
) -> str:
    if is_stand_in(record):
        return ""  # ``stockade repair``'s stand-in for a lost line (core/log/salvage.py)
    if not 1 <= target < record.seq:
        return f"there is no entry {target} before it"
    try:
        if verb == "undo":
            _undoable(timeline, target)
        elif verb == "redo":
            if timeline.redoable() != target:
                raise HistoryRefusal("redo", f"entry {target} is not the last undone entry")
        elif verb == "amend":
            _amendment(timeline, records, record, target)
        else:
            strikable(timeline, records, target, verb)
    except Refusal as refusal:
        return refusal.text
    return ""


def _amendment(
    timeline: Timeline, records: Sequence[ev.Record], record: ev.Record, target: int
) -> None:
    """An amendment mends an event in effect, and its event stands in that entry's
    place: the entry's seq and command group (``Game.amend``)."""
    if is_stand_in(records[target - 1]):
        return  # the line it mends was lost and left out by ``stockade repair``: moot
    was = amendable(timeline, records, target)
    event = getattr(record, "event", None)
    if event is None or event.seq != target or event.grp != was.grp:
        raise HistoryRefusal(
            "amend", f"its event does not carry entry {target}'s place (seq and group)"
        )


def _undoable(timeline: Timeline, target: int) -> None:
    """An undo names the command group it takes back: the last one in effect, never
    the game header (``Game.undo``)."""
    if target == 1 or timeline.undoable() != target:
        last = timeline.undoable()
        now = f"the last entry in effect is {last}" if last else "nothing is in effect to undo"
        raise HistoryRefusal("undo", f"entry {target} is not the last entry in effect ({now})")
