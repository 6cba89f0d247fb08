"""The snapshot: the folded state of a prefix of a log, an entry of the log's derived
store (core/log/derived.py, kind ``snap``). A cache, never the truth.

Opening a long game folds every effective event of its log, which grows with the game
(docs/performance.md has the figures). To open faster, ``Game`` keeps, outside the log,
the folded state of a prefix of its effective history, and on open folds only the
events after it. The snapshot is used only when it provably comes from this log and
this code:

* the store's keys (derived.py: the log's path, the code and data fingerprint taken
  before any data file was read, the Python and msgspec versions) and its MAC hold;
* the log's first ``log_bytes`` bytes still hash to ``log_hash`` (``derived.Content``:
  the digest of the bytes the writer itself read or wrote, never a re-read after a
  write; a log is append-only, and any other change to those bytes throws it away);
* the seqs of the first ``position`` effective events hash to ``effective_hash`` (an
  undo, redo or strike appended since that reaches into the prefix does too).

Anything that does not verify, decode or fit is ignored (and rewritten later); the
game then folds from the start, as without a store. Snapshots hold typed data only
(msgspec MessagePack into typed rows, then the state's dataclasses): nothing that can
run code. ``$STOCKADE_CACHE_DIR`` set to ``off`` disables them; a log's own file is
never touched.

This module is the snapshot's record and its reading (``peek``, ``read``, ``restore``);
writing one is core/log/snap_write.py's, loaded only when a snapshot is written.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import os
import typing
from array import array
from collections.abc import Sequence
from operator import itemgetter
from pathlib import Path

import msgspec

from stockade.core.log import derived
from stockade.core.log.journal_errors import JournalError
from stockade.core.log.records import LineIndex, LogRecords
from stockade.core.log.snap_units import UnitRow, covers_unit, units_of
from stockade.core.log.timeline import Timeline
from stockade.core.model.errors import Refusal
from stockade.core.model.names import NamesBySeq
from stockade.core.model.scroungings import Scroungings
from stockade.core.model.seq_tables import SeqTable
from stockade.core.model.state import Casualty, GameState, Side
from stockade.core.model.tracked_unit import Unit
from stockade.core.model.victory import VictoryBook

VERSION = 16  # 3: the names each entry's units had; 4: names as a table; 5: typed refusals;
# 6: a unit's CC attackers (A20.551); 7: whether a unit's loss was in CC (A20.551);
# 8: how the book knows a unit's board facts (told or implied), a strict game, the
# clock of a prisoner's escape attempt (A20.55); 9: in the derived store (its keys and
# MAC), the log hashed with BLAKE2b; 10: each entry's time as an index into a table of
# the distinct times (decoded into the tuples the fold shares); 11: the timeline of the
# log's lines it was made from (an open then decodes only the lines after them); 12: the
# index of those lines (an open proving their bytes takes it in, not made again), the
# origins and casualty lines decoded into their classes; 13: the entries that hold in
# part (``core.rules.partial``) and what each dropped; 14: the state after every
# effective event, and beside it what the state ``TAIL`` events back differs in; 15: a
# unit's row as the unit is laid out (its slots, origins as kept, its rare fields' mapping);
# 16: the timeline's groups as the fold holds them (those of their own seq alone as ids)
# when a game is long enough to have a snapshot: ``core.log.snap_sizes``
ENABLED = True


def _written(cls: type) -> list[tuple[str, object]] | None:
    """The fields of ``cls`` (a dataclass or a Struct) in order, each with its annotation
    as written (its text, the modules holding the state and the rows postponing their
    annotations); None when one is not text (snapshots are then off)."""
    names = _fields_of(cls)
    written: dict[str, object] = {}
    for klass in reversed(cls.__mro__):
        written.update(klass.__dict__.get("__annotations__", {}))
    out = [(name, written.get(name)) for name in names]
    return out if all(isinstance(a, str) for _, a in out) else None


def _fields_of(cls: type) -> tuple[str, ...]:
    if isinstance(cls, type) and issubclass(cls, msgspec.Struct):
        return cls.__struct_fields__
    return tuple(f.name for f in dataclasses.fields(typing.cast(typing.Any, cls)))


STATE_SCALARS = ("scenario", "turn", "attacker", "phase", "ended", "strict", "last_seq")
Scalars = tuple[str, int, str, str, bool, bool, int]  # the GameState fields STATE_SCALARS names
When = tuple[int, str, str]  # an entry's turn, phase and attacker
Names = tuple[tuple[str, str, str], ...]  # an entry's (handle, label, Location) names


# Every GameState field is in a snapshot; if one is added and not here, no snapshot
# is read or written (rather than a state missing it). Likewise for the rows.
_COVERED = {"sides", "cvp_overrides", "units", "casualties", "scrounged", "vc", *STATE_SCALARS}


@functools.cache  # the code does not change while it runs: once per process
def rows_mirror_state() -> bool:
    """Does a snapshot hold every field of the state and of its rows? Checked the first
    time a snapshot would be read or written (``enabled``), not at import: evaluating
    the dataclasses' annotations costs every command that never uses a snapshot (a game
    under ``MIN_EVENTS`` entries)."""
    unit, row = _written(Unit), _written(UnitRow)
    return (
        set(_fields_of(GameState)) == _COVERED
        and unit is not None
        and row is not None
        and covers_unit(unit, row)
    )


class TimelineRows(msgspec.Struct, array_like=True):
    """A timeline (``core.log.timeline``) without amendments, as seqs, its groups as
    ``Groups`` holds them: the ids of the groups holding their own seq alone (most),
    then each other group's id and size, and their events' seqs in a row."""

    alone: list[int]
    group_ids: list[int]
    group_sizes: list[int]
    group_seqs: list[int]
    active: list[int]
    undone: list[int]
    redo_stack: list[int]
    struck: list[tuple[int, int]]
    abandoned: list[int]


def timeline_of(rows: TimelineRows, timeline: Timeline[typing.Any]) -> None:
    """Fill ``timeline`` (new, its groups held as seqs) with ``rows``; ValueError when
    they do not fit together."""
    groups = timeline.groups
    groups.load(rows.alone, rows.group_ids, rows.group_sizes, rows.group_seqs)
    if not groups.covers(rows.active):
        raise ValueError("a group in effect that holds nothing")
    timeline.active[:] = array("q", rows.active)
    timeline.undone.update(rows.undone)
    timeline.redo_stack[:] = rows.redo_stack
    timeline.struck.update(rows.struck)
    timeline.abandoned.update(rows.abandoned)


class BackRows(msgspec.Struct, array_like=True):
    """The state ``position`` effective events in, as it differs from the snapshot's
    own state (the one after them and ``TAIL`` more, at most): its scalars, sides, CVP
    overrides and book whole; of its units, how many and the rows of those the later
    events changed; of its casualty lines and Scroungings, how many (both only grow)."""

    position: int
    scalars: Scalars
    sides: list[Side]
    cvp_overrides: dict[str, int]
    n_units: int
    handles: list[str]  # the keys of the changed units in the later state's table
    units: list[UnitRow]
    n_casualties: int
    n_scrounged: int
    vc: VictoryBook


def read_back(raw: msgspec.Raw) -> BackRows | None:
    try:
        return msgspec.msgpack.decode(raw, type=BackRows)
    except (ValueError, TypeError, msgspec.MsgspecError):
        return None


NO_BACK = msgspec.Raw(msgspec.msgpack.encode(None))  # a snapshot without ``BackRows``


class Snapshot(msgspec.Struct):
    version: int
    log_bytes: int
    log_hash: str
    position: int
    effective_hash: str
    scalars: Scalars
    sides: list[Side]
    cvp_overrides: dict[str, int]
    units: list[UnitRow]
    casualties: list[Casualty]  # decoded by msgspec into the class itself
    scrounged: list[tuple[int, str, str]]
    conflicts: list[tuple[int, str, list[str]]]  # seq, the refusal's kind and arguments
    # when: seq -> (turn, phase, attacker). A time stands for many entries (a phase):
    # each distinct one once (``when_table``), then per entry its seq and the index
    when_table: list[When]
    when_seqs: list[int]
    when_index: list[int]
    # the names each entry's units had then. Most entries name one unit, and a unit's
    # name is the same over many entries: each distinct name once (``name_table``),
    # then per such entry its seq and the name's index; entries naming none or several
    # units as (seq, names). Decoded in C into tuples shared as the fold shares them
    # (read as pairs, every entry would cost a tuple and three strings).
    name_table: list[tuple[str, str, str]] = []
    one_name_seqs: list[int] = []
    one_name_index: list[int] = []
    names: list[tuple[int, Names]] = []
    vc: VictoryBook = VictoryBook()
    # the log's first ``lines`` lines are its first ``log_bytes`` bytes, and ``timeline``
    # their timeline (None: not written with one)
    lines: int = 0
    timeline: TimelineRows | None = None
    index: LineIndex | None = None  # of the first of those lines (``Lines``)
    # the entries that hold in part (``core.rules.partial``): seq, what was dropped and why
    partial: list[tuple[int, str]] = []
    # the state ``TAIL`` events back (``BackRows``), decoded only when an undo or a
    # replay first reaches into those events; ``NO_BACK``: not kept (they then fold
    # whole)
    back: msgspec.Raw = NO_BACK


class Restored(typing.NamedTuple):
    """What a verified snapshot gives back: the state after its first ``position``
    effective events, and the projection's tables for those events."""

    position: int
    state: GameState
    conflicts: dict[int, Refusal]
    when: SeqTable[When]  # the time of each entry
    names: NamesBySeq  # the names each entry's units had
    partial: dict[int, str]  # the entries that hold in part (``core.rules.partial``)
    back: msgspec.Raw | None  # ``BackRows``, copied out of the snapshot's bytes


def _name_columns(snap: Snapshot) -> tuple[list[int], list[typing.Any]]:
    """The snapshot's names as one table's columns, in seq order: an entry naming one
    unit holds that unit's name bare (one shared tuple per name, decoded in C), the
    others their tuple of names."""
    seqs = [*snap.one_name_seqs, *map(itemgetter(0), snap.names)]
    values: list[typing.Any] = [
        *map(snap.name_table.__getitem__, snap.one_name_index),
        *map(itemgetter(1), snap.names),
    ]
    order = sorted(range(len(seqs)), key=seqs.__getitem__)
    return list(map(seqs.__getitem__, order)), list(map(values.__getitem__, order))


def scalars_of(state: GameState) -> Scalars:
    return (  # in STATE_SCALARS' order
        state.scenario,
        state.turn,
        state.attacker,
        state.phase,
        state.ended,
        state.strict,
        state.last_seq,
    )


def _to_state(snap: Snapshot) -> GameState:
    state = object.__new__(GameState)
    d = state.__dict__
    d.update(zip(STATE_SCALARS, snap.scalars, strict=True))
    d["sides"] = {side.name: side for side in snap.sides}
    d["cvp_overrides"] = snap.cvp_overrides
    d["units"] = units_of(snap.units)
    d["casualties"] = snap.casualties
    d["scrounged"] = Scroungings(snap.scrounged)
    d["vc"] = snap.vc
    return state


KIND = "snap"  # its kind in the derived store


def enabled() -> bool:
    """Are snapshots read and written (the store on, and the state's fields all here)?"""
    return ENABLED and derived.cache_dir() is not None and rows_mirror_state()


def resolved(log: Path) -> str:
    return os.path.realpath(log)


def _hash_bytes(data: bytes | memoryview) -> str:
    return derived.Content(data).digest()


class ReadAgain:
    """The bytes a long log was read from, as the snapshot cache checks them: their
    length, and the digest of a prefix made by reading it again a block at a time
    (``LogRecords.prefix_digest``), so the log is never held whole (its bytes are as
    large as the records folded from them)."""

    __slots__ = ("_records",)

    def __init__(self, records: LogRecords[typing.Any]) -> None:
        self._records = records

    def __len__(self) -> int:
        return self._records.size

    def prefix_digest(self, n: int) -> str | None:
        return self._records.prefix_digest(n)

    def key(self) -> tuple[int, str] | None:
        """(length, digest) of every byte read, or None when they cannot be read again
        as they were."""
        try:
            digest = self._records.prefix_digest(self._records.size)
        except JournalError:
            return None
        return None if digest is None else (self._records.size, digest)


def _prefix_digest(data: bytes | ReadAgain, n: int, content: derived.Content | None) -> str | None:
    """The digest of ``data[:n]``: from ``content`` (the same bytes, on its one pass)
    when it can give it, else hashed here (bytes read again: None when they are not
    what was read)."""
    found = content.prefix_digest(n) if content is not None else None
    if found is not None:
        return found
    if isinstance(data, bytes):
        return _hash_bytes(memoryview(data)[:n])
    try:
        return data.prefix_digest(n)
    except JournalError:
        return None


def effective_hash(seqs: Sequence[int], position: int) -> str:
    return _hash_bytes(memoryview(array("q", itertools.islice(seqs, position))).cast("B"))


def read(
    log: Path,
    log_data: bytes | ReadAgain,
    seqs: Sequence[int],
    content: derived.Content | None = None,
) -> Restored | None:
    """The verified snapshot for ``log`` (whose bytes are ``log_data`` and effective
    seqs ``seqs``), or None. ``content``: the digest being made of the same bytes (a
    ``later`` one): the prefix is hashed on its way, not in a pass of its own."""
    snap = peek(log)
    if snap is None or not 0 < snap.log_bytes <= len(log_data):
        return None
    if _prefix_digest(log_data, snap.log_bytes, content) != snap.log_hash:
        return None
    return restore(snap, seqs)


def peek(log: Path) -> Snapshot | None:
    """The snapshot kept for ``log``, its keys and MAC checked, of this VERSION; not
    yet checked against the log (``restore`` is given the digest of its prefix)."""
    if not enabled():
        return None
    raw = derived.read_entry(resolved(log), KIND, None)
    if raw is None:
        return None
    try:
        snap = msgspec.msgpack.decode(raw, type=Snapshot)
    except (ValueError, TypeError, msgspec.MsgspecError):
        return None
    return snap if snap.version == VERSION else None


def restore(snap: Snapshot, seqs: Sequence[int]) -> Restored | None:
    """What ``snap`` gives back, when the log's first ``snap.log_bytes`` bytes hash to
    its ``log_hash`` (the caller has checked) and the log's effective seqs are
    ``seqs``; None when it does not fit them."""
    try:
        if (
            not 0 < snap.position <= len(seqs)
            or effective_hash(seqs, snap.position) != snap.effective_hash
        ):
            return None
        if len(snap.when_seqs) != len(snap.when_index):
            return None
        conflicts = {seq: Refusal.from_row(kind, args) for seq, kind, args in snap.conflicts}
        # one shared tuple per time, as the fold makes them (an index out of the table
        # raises IndexError: a miss)
        when: SeqTable[When] = SeqTable()
        when.load(snap.when_seqs, list(map(snap.when_table.__getitem__, snap.when_index)))
        if len(snap.one_name_seqs) != len(snap.one_name_index):
            return None
        names = NamesBySeq()
        names.load(*_name_columns(snap))  # ValueError: a seq named twice, a miss
        partial = dict(snap.partial)
        if partial and not partial.keys() <= set(seqs[: snap.position]):
            return None  # an entry it says holds in part is not one of its prefix
        kept = snap.back
        back = kept.copy() if memoryview(kept).nbytes > 1 else None  # not the whole file
        return Restored(snap.position, _to_state(snap), conflicts, when, names, partial, back)
    except (ValueError, TypeError, IndexError, KeyError, msgspec.MsgspecError):
        return None
