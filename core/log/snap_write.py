"""Writing a snapshot (core/log/snapcache.py): the folded state of a prefix of a log,
its timeline and the state ``TAIL`` events back, encoded into the derived store.

A snapshot is written in pieces as it is encoded (``core.log.snap_columns``): its
columns (units, times, names, the timeline's seqs) are walked as they are encoded,
never made whole, so a long game's snapshot (tens of MB) is never held. Best effort:
anything that does not encode leaves no snapshot. Only a game long enough to have one
(``core.log.snap_sizes``) writes it: reading one (``snapcache.peek``, ``read``,
``restore``) never loads this module.
"""

from __future__ import annotations

import bisect
import typing
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import msgspec

from stockade.core.log import derived, snap_columns
from stockade.core.log.records import LineIndex
from stockade.core.log.snap_units import unit_row
from stockade.core.log.snapcache import (
    KIND,
    NO_BACK,
    VERSION,
    BackRows,
    Names,
    Snapshot,
    TimelineRows,
    When,
    effective_hash,
    enabled,
    resolved,
    scalars_of,
)
from stockade.core.log.timeline import Timeline
from stockade.core.model.errors import Refusal
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import Unit


def timeline_rows(timeline: Timeline[typing.Any]) -> TimelineRows | None:
    """``timeline`` as rows (None for one with amendments: no snapshot keys them)."""
    if timeline.amends or timeline.replacements:
        return None
    alone, lists = timeline.groups.parts()
    ids = sorted(lists)
    seqs = [r if isinstance(r, int) else r.seq for grp in ids for r in lists[grp]]
    return TimelineRows(
        alone.tolist(),
        ids,
        [len(lists[grp]) for grp in ids],
        seqs,
        list(timeline.active),
        sorted(timeline.undone),
        list(timeline.redo_stack),
        sorted(timeline.struck.items()),
        sorted(timeline.abandoned),
    )


def back_rows(position: int, back: GameState, changed: Mapping[str, Unit]) -> msgspec.Raw:
    """``BackRows`` of ``back`` (the state ``position`` events in; ``changed``: its
    units that differ from the later state's, by their key in its table), encoded."""
    rows = BackRows(
        position,
        scalars_of(back),
        list(back.sides.values()),
        dict(back.cvp_overrides),
        len(back.units),
        list(changed),
        [unit_row(u) for u in changed.values()],
        len(back.casualties),
        len(back.scrounged),
        back.vc,
    )
    return msgspec.Raw(msgspec.msgpack.encode(rows))


def timeline_columns(timeline: Timeline[typing.Any]) -> snap_columns.Row | None:
    """``timeline_rows`` as written: the same bytes, its columns walked as they are
    encoded (a long log's groups made into lists of seqs cost as much as a column of
    the snapshot); None for one with amendments."""
    if timeline.amends or timeline.replacements:
        return None
    alone, lists = timeline.groups.parts()
    ids, Column = sorted(lists), snap_columns.Column
    sizes = [len(lists[grp]) for grp in ids]

    def seqs() -> Iterator[int]:
        for grp in ids:
            for r in lists[grp]:
                yield r if isinstance(r, int) else r.seq

    return snap_columns.Row(
        (
            Column(len(alone), lambda: iter(alone)),
            ids,
            sizes,
            Column(sum(sizes), seqs),
            Column(len(timeline.active), lambda: iter(timeline.active)),
            sorted(timeline.undone),
            list(timeline.redo_stack),
            sorted(timeline.struck.items()),
            sorted(timeline.abandoned),
        )
    )


# how many lines a log's bytes hold, their timeline (as ``timeline_columns`` writes it),
# and the index of those of them read from the file (``LogRecords.line_index``; None
# when the log was read whole)
Lines = tuple[int, "TimelineRows | snap_columns.Row", LineIndex | None]


PIECE_BYTES = 1 << 18  # the snapshot is written to the file in pieces of about this size


def write(
    log: Path,
    content: tuple[int, str],
    seqs: Sequence[int],
    position: int,
    state: GameState,
    conflicts: Mapping[int, Refusal],
    when: Mapping[int, When],
    names: Mapping[int, Names] | None = None,
    lines: Lines | None = None,
    partial: Mapping[int, str] | None = None,
    back: msgspec.Raw | None = None,
) -> bool:
    """Write the snapshot of ``state`` (the fold of the first ``position`` effective
    events of the log whose bytes, as this process read or wrote them, are ``content``:
    their length and digest). Best effort: any error leaves no snapshot and returns
    False. ``lines``: how many lines those bytes hold and their timeline; ``partial``:
    the entries that hold in part and what each dropped (``core.rules.partial``);
    ``back``: the state ``TAIL`` events back (``back_rows``)."""
    if not enabled() or position <= 0:
        return False
    pieces = _payload(
        content, seqs, position, state, conflicts, when, names or {}, lines, partial or {}, back
    )
    return derived.write_entry(resolved(log), KIND, None, pieces)


def _payload(
    content: tuple[int, str],
    seqs: Sequence[int],
    position: int,
    state: GameState,
    conflicts: Mapping[int, Refusal],
    when: Mapping[int, When],
    names: Mapping[int, Names],
    lines: Lines | None = None,
    partial: Mapping[int, str] | None = None,
    back: msgspec.Raw | None = None,
) -> Iterator[bytearray | memoryview]:
    """The snapshot ``write`` keeps, encoded in pieces as they are written (ValueError
    from them when it does not encode: nothing is kept): the bytes of a ``Snapshot``,
    its columns (units, times, names) walked as they are encoded, never made whole
    (``core.log.snap_columns``)."""
    last = seqs[position - 1]

    def covered(s: int) -> bool:  # one of the first ``position`` entries (seqs ascend)
        at = bisect.bisect_left(seqs, s)
        return s <= last and at < position and seqs[at] == s

    name_table, one_seqs, one_index, rest = snap_columns.name_columns(seqs, position, names)
    when_table, when_seqs, when_index = snap_columns.when_columns(seqs, position, when)
    units = state.units.values()
    fields: list[tuple[str, object]] = [
        ("version", VERSION),
        ("log_bytes", content[0]),
        ("log_hash", content[1]),
        ("position", position),
        ("effective_hash", effective_hash(seqs, position)),
        ("scalars", scalars_of(state)),
        ("sides", list(state.sides.values())),
        ("cvp_overrides", dict(state.cvp_overrides)),
        ("units", snap_columns.Column(len(units), lambda: map(unit_row, units))),
        ("casualties", list(state.casualties)),
        ("scrounged", list(state.scrounged.order)),
        ("conflicts", [(s, *r.row()) for s, r in conflicts.items() if covered(s)]),
        ("when_table", when_table),
        ("when_seqs", when_seqs),
        ("when_index", when_index),
        ("name_table", name_table),
        ("one_name_seqs", one_seqs),
        ("one_name_index", one_index),
        ("names", rest),
        ("vc", state.vc),
        ("lines", lines[0] if lines is not None else 0),
        ("timeline", lines[1] if lines is not None else None),
        ("index", lines[2] if lines is not None else None),
        ("partial", sorted((s, why) for s, why in (partial or {}).items() if covered(s))),
        ("back", NO_BACK if back is None else back),
    ]
    assert tuple(name for name, _ in fields) == Snapshot.__struct_fields__
    return snap_columns.pieces(fields, PIECE_BYTES)


__all__ = ["Lines", "back_rows", "timeline_columns", "timeline_rows", "write"]
