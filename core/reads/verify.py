"""Does a log received from an opponent extend the copy you kept, with nothing rewritten?

``compare(old, new)`` reads both logs (never writes) and answers with a ``Verdict``:
either NEW holds every line of OLD byte for byte, in order, followed by new lines
whose hash chain (core/log/chain.py) links on from OLD's last line; or the first line
where the two part ways, and how (changed, removed, another game). docs/verify.md
explains what this does and does not prove.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

from stockade.core.log import chain
from stockade.core.log.game_log import load
from stockade.core.log.log_lines import iter_lines
from stockade.core.log.store import LogStore
from stockade.core.model import events as ev
from stockade.core.model.state import GameState


class Unreadable(Exception):
    """One of the two logs is not a sound game log; the message names file and line."""


@dataclass
class Added:
    """One entry NEW has beyond OLD."""

    line: int
    record: ev.Record
    side: str  # the side the entry names as acting ("" when it names none)
    # An undo, redo or strike names no side: the log does not say who made it (an
    # opponent's strike of your entry is not yours). The side of the entry it acts on.
    acts_on: str = ""


@dataclass
class Verdict:
    old_lines: int
    new_lines: int
    rewritten_at: int = 0  # first line where NEW differs from OLD; 0 = none
    why: str = ""
    added: list[Added] = field(default_factory=list)
    chain: str = ""  # the chain's summary for NEW

    @property
    def extends(self) -> bool:
        return self.rewritten_at == 0


def _sound_records(path: Path) -> Sequence[ev.Record]:
    """The records of a sound log (a long one read a piece at a time, its records read
    again from the file when asked for: ``LogStore.read_sound``); Unreadable else."""
    store = LogStore.read_sound(path)
    if store is not None:
        return store.records
    loaded = load(path)
    if loaded.problem:
        raise Unreadable(f"{path}: {loaded.problem}")
    if loaded.torn_tail is not None:
        raise Unreadable(
            f"{path}: line {len(loaded.records) + 1}: the last entry is unfinished or "
            "damaged; a mailed log must be whole (stockade repair writes a copy without it)"
        )
    return loaded.records


def _lines(path: Path, count: int) -> Iterator[bytes]:
    """The first ``count`` lines of ``path`` (its sound ones), a piece at a time."""
    return islice(iter_lines(path), count)


def compare(old_path: Path, new_path: Path) -> Verdict:
    """Compare two logs of (supposedly) one game. Raises Unreadable for a bad log.
    Both are read a piece at a time, line against line: never whole."""
    old_count = len(_sound_records(old_path))
    records = _sound_records(new_path)
    new_count = len(records)
    verdict = Verdict(old_lines=old_count, new_lines=new_count)
    pairs = zip(_lines(old_path, old_count), _lines(new_path, new_count), strict=False)
    for number, (was, now) in enumerate(pairs, 1):
        if was != now:
            verdict.rewritten_at = number
            verdict.why = _how_differs(number)
            return verdict
    if new_count < old_count:
        verdict.rewritten_at = new_count + 1
        verdict.why = (
            f"NEW stops after line {new_count}: OLD's lines {new_count + 1}-{old_count} are "
            "missing from it (entries were removed)"
        )
        return verdict
    report = chain.walk(_lines(new_path, new_count))
    verdict.chain = report.summary()
    if not report.intact:
        # OLD's lines are NEW's first lines byte for byte, so a break among them is in
        # the copy you kept too; a break after them is in what was added.
        where = "in the lines both logs share" if report.broken_at <= old_count else "added"
        verdict.rewritten_at = report.broken_at
        verdict.why = f"the hash chain breaks at line {report.broken_at} ({where}): {report.why}"
        return verdict
    verdict.added = added_entries(records, old_count)
    return verdict


def _how_differs(number: int) -> str:
    if number == 1:
        return "line 1 (the game header) differs: NEW is another game, or its header was rewritten"
    return (
        f"line {number} differs: NEW changed, removed, inserted or reordered entries "
        f"from there on (OLD's line {number} is not NEW's line {number})"
    )


def added_entries(records: Sequence[ev.Record], kept: int) -> list[Added]:
    """The entries after the first ``kept``, each with the side it names as acting,
    read against the state before it (every effective event with a smaller seq).

    One fold carried forward through the log, not a state rebuilt for each entry
    (``Game.state_at`` costs O(the log): 4,000 added entries took 33 s). A log whose
    effective events do not run in seq order (only a hand-edited one) is read the
    slow way."""
    from stockade.core.book.game import Game
    from stockade.core.book.projection import Projection

    if kept >= len(records):
        return []  # nothing added: nothing to fold for
    game = Game.load(records)  # in memory
    effective = game.effective
    entered = _sides_as_entered(records)
    seqs = [r.seq for r in effective]
    if seqs != sorted(seqs):
        return [
            _added(n, r, game.state_at(r.seq - 1), records, entered)
            for n, r in enumerate(records[kept:], kept + 1)
        ]
    fold = Projection([])
    folded = 0
    out = []
    for number, record in enumerate(records[kept:], kept + 1):
        while folded < len(effective) and effective[folded].seq < record.seq:
            fold.append(effective[folded])
            folded += 1
        out.append(_added(number, record, fold.state, records, entered))
    return out


def _added(
    number: int,
    record: ev.Record,
    state: GameState,
    records: Sequence[ev.Record],
    entered: dict[str, str],
) -> Added:
    side = acting_side(record, state, records, entered)
    if isinstance(record, ev.CONTROL_TYPES):
        return Added(number, record, "", acts_on=side)
    return Added(number, record, side)


def _sides_as_entered(records: Iterable[ev.Record]) -> dict[str, str]:
    """Each handle's side as its first unit entry gave it."""
    entered: dict[str, str] = {}
    for record in records:
        if isinstance(record, ev.UnitEntered):
            entered.setdefault(record.handle, record.side)
    return entered


# The field of each kind of record naming the unit whose side acts in it: the captor
# (its Guard) in a capture, the unit itself in a change of status, and so on.
_ACTOR_HANDLE = {
    "surrender": "guard",
    "capture": "guard",
    "recapture": "guard",
    "transfer": "to_guard",
    "escort": "guard",
    "deploy": "handle",
    "status": "handle",
    "rearm": "handle",
    "scrounge": "handle",
    "split": "handle",
    "massacre": "by",
}
# ... or directly its side.
_ACTOR_SIDE = {"unit": "side", "nq": "side", "reject": "by_side", "phase": "attacker"}


def acting_side(
    record: ev.Record,
    state: GameState,
    records: Sequence[ev.Record],
    entered: dict[str, str] | None = None,
) -> str:
    """The side an entry names as acting; "" when it names none (the header, the end
    of the game, an undo of an entry that named none). An undo, redo or strike names
    the side of the entry it acts on."""
    kind = record.__struct_config__.tag
    if isinstance(record, ev.CONTROL_TYPES):
        target = record.target  # a grp for undo/redo, a seq for (un)strike: both seqs
        if 1 <= target <= len(records) and target != record.seq:
            return acting_side(records[target - 1], state, records, entered)
        return ""
    if kind in _ACTOR_SIDE:
        return str(getattr(record, _ACTOR_SIDE[kind]))
    by_side = getattr(record, "by_side", "")
    if by_side:
        return str(by_side)
    handle = getattr(record, _ACTOR_HANDLE[kind], None) if kind in _ACTOR_HANDLE else None
    if handle is None:
        units = getattr(record, "units", None) or getattr(record, "parts", None)
        handle = units[0] if units else getattr(record, "handle", None)
    unit = state.units.get(handle) if isinstance(handle, str) else None
    if unit is None:
        if entered is None:
            entered = _sides_as_entered(records)
        return entered.get(handle, "") if isinstance(handle, str) else ""
    if kind in ("escape", "escaped") or unit.guard is None:
        return str(unit.side)
    guard = state.units.get(unit.guard)
    return str(guard.side if guard is not None else unit.side)


__all__ = ["Added", "Unreadable", "Verdict", "acting_side", "added_entries", "compare"]
