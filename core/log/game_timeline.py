"""The effective history: which domain events count, after undo, redo and strikes.

All records stay in the log. The timeline itself (undo and redo over command groups,
abandoned branches, strikes) is ``core.log.timeline``, shared with the camp; this module
names the game's control records and answers the history's questions (entry status,
what undo-to and strike may act on). A strike removes one event from the effective
history; every later event is checked again when the state is folded (see
``core.book.projection``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

import msgspec

from stockade.core.log import timeline as shared
from stockade.core.model import events as ev
from stockade.core.model.errors import HistoryRefusal, LogRefusal, Refusal

CONTROLS = shared.Controls(
    actions={
        ev.Undo: "undo",
        ev.Redo: "redo",
        ev.Strike: "strike",
        ev.Unstrike: "unstrike",
        ev.Amend: "amend",
    },
    error=lambda verb, text: LogRefusal(text) if verb == "log" else HistoryRefusal(verb, text),
    refused=Refusal,
)
Timeline = shared.Timeline[ev.Record]


def build_timeline(
    records: Iterable[ev.Record], lines: Sequence[ev.Record] | None = None
) -> Timeline:
    """The game's timeline of ``records``; a control record that no longer applies
    (written by a buggy or hand-edited log) is ignored rather than losing the game.
    ``lines``: the records by line, read again when asked for (``Timeline.lines``)."""
    return shared.build(CONTROLS, records, lines=lines)


# ------------------------------------------------------------ entries, as they stand
class HistoryEntry(msgspec.Struct):
    seq: int
    grp: int
    record: ev.Record
    status: str  # ok / undone / abandoned / struck / conflict / control
    reason: str = ""
    turn: int = 0
    phase: str = ""
    attacker: str = ""
    rule: str = ""  # a conflict's rule id, as a field (``reason`` is the whole message)
    # amended: the seq of the amendment in effect, and the record it replaced
    # (``record`` is then what stands in its place)
    amended_by: int = 0
    was: ev.Record | None = None


def entry_status(
    record: ev.Record,
    timeline: Timeline,
    records: Sequence[ev.Record],
    conflicts: dict[int, Refusal],
) -> tuple[str, str]:
    """How ``record`` stands in the effective history now, and why (an amendment is a
    command group of its own: undone or abandoned like any)."""
    if isinstance(record, ev.Amend) and record.grp in timeline.undone:
        return ("abandoned" if record.grp in timeline.abandoned else "undone"), ""
    if ev.is_control(record):
        return "control", ""
    if record.grp in timeline.abandoned:
        return "abandoned", ""
    if record.grp in timeline.undone:
        return "undone", ""
    if record.seq in timeline.struck:
        return "struck", getattr(records[timeline.struck[record.seq] - 1], "reason", "")
    if record.seq in conflicts:
        return "conflict", str(conflicts[record.seq])
    return "ok", ""


def entries(
    records: Sequence[ev.Record],
    timeline: Timeline,
    conflicts: dict[int, Refusal],
    when: Mapping[int, tuple[int, str, str]],
    partial: dict[int, str] | None = None,
) -> list[HistoryEntry]:
    """Every record as a history entry: its status, and when it happened (an entry
    that holds in part, ``partial``: its reason says what was dropped)."""
    return list(iter_entries(records, timeline, conflicts, when, partial))


def iter_entries(
    records: Sequence[ev.Record],
    timeline: Timeline,
    conflicts: dict[int, Refusal],
    when: Mapping[int, tuple[int, str, str]],
    partial: dict[int, str] | None = None,
) -> Iterator[HistoryEntry]:
    """``entries``, one at a time: a long log's history is never held whole."""
    amends = timeline.amends
    for record in records:
        turn, phase, attacker = when.get(record.seq, (0, "", ""))
        status, reason = entry_status(record, timeline, records, conflicts)
        rule = conflicts[record.seq].rule if status == "conflict" else ""
        entry = HistoryEntry(
            record.seq, record.grp, record, status, reason, turn, phase, attacker, rule
        )
        if partial and status == "ok" and record.seq in partial:
            entry.reason = partial[record.seq]
        if amends and record.seq in amends:
            amendment = timeline.amendment_of(record.seq)
            if amendment:
                entry.record, entry.amended_by, entry.was = (
                    timeline.replacements[amendment],
                    amendment,
                    record,
                )
        yield entry


# ------------------------------------------------- what undo-to and strike may act on
def undo_to_plan(timeline: Timeline, records: Sequence[ev.Record], seq: int) -> list[int]:
    """The command groups "undo to entry ``seq``" undoes, last first; the Refusal if
    there are none (the replay screen and ``Game.undo_to`` both ask this)."""
    if not 1 <= seq <= len(records):
        raise HistoryRefusal("undo", f"there is no entry {seq}")
    anchor = records[seq - 1]
    if ev.is_control(anchor):
        raise HistoryRefusal("undo", f"entry {seq} is an undo/redo/strike record; pick an event")
    if anchor.grp in timeline.undone:
        raise HistoryRefusal("undo", f"entry {seq} is itself undone")
    targets = [g for g in reversed(timeline.active) if g > anchor.grp]
    if not targets:
        raise HistoryRefusal("undo", f"nothing after entry {seq} to undo")
    return targets


def amendable(timeline: Timeline, records: Sequence[ev.Record], seq: int) -> ev.Record:
    """Entry ``seq`` as it stands, if it may be amended; else the Refusal saying why
    not (an amendment mends an event in effect: not a control record, not the game
    header, not an entry undone or struck)."""
    if not 1 <= seq <= len(records):
        raise HistoryRefusal("amend", f"there is no entry {seq}")
    record = records[seq - 1]
    if ev.is_control(record):
        raise HistoryRefusal("amend", f"entry {seq} is an undo/redo/strike record, not an event")
    if isinstance(record, ev.GameCreated):
        raise HistoryRefusal("amend", "the game header cannot be amended")
    if record.grp in timeline.undone:
        raise HistoryRefusal("amend", f"entry {seq} is undone; redo it first")
    if seq in timeline.struck:
        raise HistoryRefusal("amend", f"entry {seq} is struck; unstrike it first")
    return timeline.standing(record)


def strikable(timeline: Timeline, records: Sequence[ev.Record], seq: int, verb: str) -> ev.Record:
    """Entry ``seq``, if it may be struck (``verb`` "strike") or unstruck; else the
    Refusal saying why not."""
    if not 1 <= seq <= len(records):
        raise HistoryRefusal("strike", f"there is no entry {seq}")
    record = records[seq - 1]
    if ev.is_control(record):
        raise HistoryRefusal("strike", f"entry {seq} is an undo/redo/strike record, not an event")
    if isinstance(record, ev.GameCreated):
        raise HistoryRefusal("strike", "the game header cannot be struck")
    struck = seq in timeline.struck
    if verb == "unstrike" and not struck:
        raise HistoryRefusal("unstrike", f"entry {seq} is not struck")
    if verb == "strike" and struck:
        raise HistoryRefusal("strike", f"entry {seq} is already struck")
    if verb == "strike" and record.grp in timeline.undone:
        raise HistoryRefusal("strike", f"entry {seq} is undone; nothing to strike")
    return record


def struck_together(
    timeline: Timeline, records: Sequence[ev.Record], seq: int, verb: str
) -> list[int]:
    """The entries a strike (``verb`` "strike") or unstrike of entry ``seq`` acts on: the
    player's entry with the board facts it implied, recorded with it in its group just
    before it (``implied`` on a status record), as one undo takes them back together.
    Striking an implied fact alone would leave the entry it made legal in conflict, and
    striking the entry alone would leave a fact only it implied: so each strikes both.
    Only those not already struck (or, to unstrike, struck) are named."""
    record = records[seq - 1]
    entries: list[list[int]] = []
    run: list[int] = []
    for held in timeline.groups.get(record.grp, ()):
        member = records[held - 1] if isinstance(held, int) else held  # held by its line
        run.append(member.seq)
        if not (isinstance(member, ev.StatusChanged) and member.implied):
            entries.append(run)
            run = []
    if run:
        entries.append(run)
    mine = next((entry for entry in entries if seq in entry), [seq])
    struck = timeline.struck
    return [s for s in mine if s == seq or (s in struck) == (verb == "unstrike")]
