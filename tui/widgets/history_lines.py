"""The history's lines: how each record of the log reads on the history panel.

One ``Line`` per record (its number, status, sentence and why), worded from the game
on demand (``entry_line``), and the lines a ``Change`` touched, read off the change
(``lines_for_change``). ``all_lines`` words the whole history at once: the reference
the panel's lines are checked against, never what the panel shows.
"""

from __future__ import annotations

import bisect

import msgspec
from rich.text import Text

from stockade.core.book.change import Change
from stockade.core.book.describe import sentence, sentence_for
from stockade.core.book.game import Game
from stockade.core.model import events as ev
from stockade.core.reads.glossary import ENTRY_SIGNS

# each status's mark and bracketed word, as the glossary (the help's legend) says them
MARKS = {
    "ok": ("  ", ""),
    **{status: (f"{sign.mark} ", sign.word) for status, sign in ENTRY_SIGNS.items()},
    "control": ("· ", ""),
}
STYLES = {
    "ok": "",
    "undone": "dim italic",
    "abandoned": "dim italic",
    "struck": "dim strike",
    "conflict": "bold",
    "control": "dim",
}


# what a line says until the names of its units are read from a replay of the log
# (an entry that never folded in this process: ``Game.names_then``, built in a thread)
PENDING = "reading the log…"


class Line(msgspec.Struct, frozen=True):
    seq: int
    status: str
    text: str
    reason: str = ""
    pending: bool = False  # the names of its units are still being read from the log
    heading: bool = False  # a phase change: a heading between the entries, not an entry
    amended_by: int = 0  # the amendment that mended it (its sentence is the amendment's)


def line_prompt(line: Line, error_style: str = "") -> Text:
    mark, word = MARKS.get(line.status, ("? ", line.status))
    out = Text(no_wrap=False)
    if line.heading:
        style = "dim strike" if line.status == "struck" else "dim"
        out.append(f"── {line.seq} {line.text}", style=style)
        if word:
            out.append(f"  [{word}{': ' + line.reason if line.reason else ''}]", style="dim italic")
        return out
    out.append(f"{line.seq:>3} ", style="dim")
    out.append(mark, style=error_style if line.status == "conflict" else "")
    out.append(line.text, style="dim italic" if line.pending else STYLES.get(line.status, ""))
    if word:
        out.append(f"  [{word}", style="bold " + (error_style if line.status == "conflict" else ""))
        out.append(f": {line.reason}]" if line.reason else "]", style="italic")
    elif line.reason:  # an entry in effect that holds in part (core/rules/partial.py)
        out.append(f"  [holds in part: {line.reason}]", style="italic")
    if line.amended_by:
        out.append(f"  [amended by entry {line.amended_by}]", style="italic")
    return out


def hanging_indent(line: Line) -> int:
    """Characters of ``line_prompt``'s text before its sentence (the entry's number and
    mark, or a heading's rule): a wrapped line goes on under the sentence, not under
    the number."""
    if line.heading:
        return len("── ")
    return len(f"{line.seq:>3} ") + len(MARKS.get(line.status, ("? ", ""))[0])


def can_word(game: Game, seq: int) -> bool:
    """Can entry ``seq`` be worded now without replaying the log on this thread: it
    folded in this process (its names are kept), or the replay is built. An undo /
    redo / strike record names no unit: it is worded at once."""
    return seq in game.when or game.names_then_ready


def entry_line(game: Game, record: ev.Record) -> Line:
    status, reason = game.entry_status(record)
    seq = record.seq
    timeline = game.timeline
    amended_by = timeline.amendment_of(seq) if seq in timeline.amends else 0
    if status == "ok" and not reason:
        reason = game.projection.partial.get(seq, "")
    heading = isinstance(record, ev.PhaseSet)
    if not (ev.is_control(record) or can_word(game, seq)):
        return Line(seq, status, PENDING, reason, True, heading, amended_by)
    standing = timeline.standing(record)
    return Line(seq, status, sentence_for(standing, game), reason, False, heading, amended_by)


def all_lines(game: Game) -> list[Line]:
    """Every record's line (a first fill); the entries whose names are still to be
    read from the log say so (``PENDING``) instead."""
    return [
        Line(
            entry.seq,
            entry.status,
            sentence(entry, game),
            entry.reason,
            heading=isinstance(entry.record, ev.PhaseSet),
            amended_by=entry.amended_by,
        )
        if entry.status == "control" or can_word(game, entry.seq)
        else Line(
            entry.seq,
            entry.status,
            PENDING,
            entry.reason,
            pending=True,
            heading=isinstance(entry.record, ev.PhaseSet),
            amended_by=entry.amended_by,
        )
        for entry in game.iter_history(then=False)
    ]


def lines_for_change(game: Game, change: Change, shown: list[int]) -> list[Line]:
    """The lines ``change`` touched, read off the change (never by comparing records):
    the records it appended (undo / redo / strike records too); the entries it added,
    undid, struck, restored or left behind; the whole command groups of its undo /
    redo records; the entries whose conflict came or went; and
    after a strike or unstrike every shown entry from its target on (they were folded
    again: their Location words and conflicts may read otherwise). ``shown`` are the
    seqs on the list, ascending."""
    records = game.records
    seqs = touched(game, change)
    refolded = refolded_from(change)
    if refolded:
        seqs.update(shown[bisect.bisect_left(shown, refolded) :])
    return [entry_line(game, records[s - 1]) for s in sorted(seqs) if 0 < s <= len(records)]


def refolded_from(change: Change) -> int:
    """The first entry a strike, an unstrike or an amendment folded again (every entry
    from it on may read otherwise: its Location words, its conflicts), or 0."""
    if change.action in ("strike", "unstrike") and change.target:
        return change.target
    if change.amended:  # folded again from the first entry it mended
        return min(change.amended)
    return 0


def touched(game: Game, change: Change) -> set[int]:
    """The records ``change`` names (see ``lines_for_change``), less the entries a
    strike or an amendment folded again (``refolded_from``)."""
    records = game.records
    seqs = {
        *change.appended,
        *change.added,
        *change.undone,
        *change.struck,
        *change.restored,
        *change.abandoned,
        *change.new_conflicts,
        *change.resolved_conflicts,
        *change.amended,
        *(later.seq for later in change.later),
    }
    timeline = game.timeline
    for s in change.appended:
        record = records[s - 1]
        if isinstance(record, (ev.Undo, ev.Redo)):
            seqs.update(timeline.group_seqs(record.target))
            if record.target in game.timeline.replacements:  # an amendment's own line
                seqs.add(record.target)
    return seqs
