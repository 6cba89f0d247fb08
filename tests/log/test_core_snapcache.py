"""The snapshot cache on disk (core/log/snapcache.py): a cache, never the truth.

A game opened from a snapshot must hold exactly what a fold from the start gives; a
snapshot that does not match the log (bytes changed, history rewritten by undo or
strike into it, other code, a damaged file) is ignored; opening never touches the log.
"""

from __future__ import annotations

import os
from typing import Any

import msgspec
import pytest

from bench.generate import Driver
from stockade.core.book.game import Game
from stockade.core.log import derived, long_read, snap_sizes, snap_write, snapcache
from stockade.core.log import store as log_store
from stockade.core.log.game_log import GAME
from stockade.core.model import events as ev
from tests.log.snapshots import dump, fresh, fresh_writable, same


@pytest.fixture()
def cache(tmp_path, monkeypatch):
    monkeypatch.setattr(snap_sizes, "MIN_EVENTS", 200)
    monkeypatch.setattr(snap_sizes, "TAIL", 30)
    monkeypatch.setattr(snap_sizes, "REFRESH", 50)
    return tmp_path / "cache"


@pytest.fixture(params=["whole", "streamed"])
def log(tmp_path, request, monkeypatch, generated_log):
    """A long game's log, read whole or (as a log over ``STREAM_FROM`` bytes is) piece
    by piece: then an open from its snapshot reads past the prefix the snapshot covers."""
    if request.param == "streamed":
        monkeypatch.setattr(log_store, "STREAM_FROM", 0)
    path = tmp_path / "game.jsonl"
    # 500 entries, as in test_snapshot_tail: a back row left out of the snapshot fails
    # here (at 900 entries it did not); a time left out fails at both
    generated_log(path, 500, 4)
    return path


def test_open_from_a_snapshot_equals_a_fold_from_the_start(cache, log):
    first = Game.open(log, read_only=True)  # folds all, writes the snapshot
    assert first.projection.snap_position == len(first.effective)  # the state after them all
    assert len(list(cache.glob("*.snap"))) == 1
    before = (log.read_bytes(), os.stat(log).st_mtime_ns)
    game = Game.open(log, read_only=True)
    assert game.projection.restored and game.projection.undo[0] is None  # really from the snapshot
    assert (log.read_bytes(), os.stat(log).st_mtime_ns) == before  # the log untouched
    same(game, fresh(log))


def test_undo_strike_and_replay_into_the_snapshot_complete_the_journal(cache, log):
    Game.open(log, read_only=True).close()
    game = Game.open(log)
    assert game.projection.undo[0] is None
    reference = fresh(log)
    deep = game.effective[len(game.effective) // 3].seq
    view = game.state_at(deep)  # reaches into the snapshot: folds the journal once
    assert dump(view) == dump(reference.state_at(deep))
    assert game.projection.undo[0] is not None
    for _ in range(40):  # past the snapshot's position
        if game.can_undo():
            game.undo()
    target = next(r.seq for r in game.effective[:200] if isinstance(r, ev.StatusChanged))
    game.strike(target, "test")
    game.close()
    same(Game.open(log, read_only=True), fresh(log))


def test_a_snapshot_that_does_not_match_is_ignored(cache, log, monkeypatch):
    Game.open(log, read_only=True).close()
    (snap,) = cache.glob("*.snap")
    good = snap.read_bytes()

    # history rewritten into the snapshot's prefix: undo many groups, then new entries
    game = Game.open(log)
    for _ in range(60):
        if game.can_undo():
            game.undo()
    Driver(game, seed=9).step()
    game.close()
    snap.write_bytes(good)  # the old snapshot, as if the game had not been closed
    reopened = Game.open(log, read_only=True)
    assert not reopened.projection.restored
    same(reopened, fresh(log))

    # the log's bytes changed inside the prefix (a hand edit keeping it valid)
    data = log.read_bytes()
    Game.open(log, read_only=True).close()  # a snapshot for this log
    edited = data.replace(b'"location":"', b'"location":"X', 1)
    assert edited != data
    log.write_bytes(edited)
    game = Game.open(log, read_only=True)
    assert not game.projection.restored
    same(game, fresh(log))

    # damaged snapshot files, and snapshots from other code
    for junk in (b"", b"\x00" * 100, snap.read_bytes()[:-7], b"\x93\x01\x02"):
        snap.write_bytes(junk)
        same(Game.open(log, read_only=True), fresh(log))
    Game.open(log, read_only=True)
    monkeypatch.setattr(derived, "code_fingerprint", lambda: "other code")
    game = Game.open(log, read_only=True)
    assert not game.projection.restored
    same(game, fresh(log))


def test_new_entries_after_the_snapshot_are_folded(cache, log):
    Game.open(log, read_only=True).close()
    game = Game.open(log)
    driver = Driver(game, seed=5)
    for _ in range(25):
        driver.step()
    game.close()
    snaps = list(cache.glob("*.snap"))
    game = Game.open(log, read_only=True)
    assert game.projection.undo[0] is None
    same(game, fresh(log))
    assert len(snaps) == 1


def test_cache_off(tmp_path, log, monkeypatch):
    monkeypatch.setenv("STOCKADE_CACHE_DIR", "off")
    monkeypatch.setattr(snap_sizes, "MIN_EVENTS", 200)
    game = Game.open(log, read_only=True)
    assert not game.projection.restored
    assert not (tmp_path / "off").exists()


def test_old_snapshots_are_pruned(cache, log, tmp_path, monkeypatch):
    monkeypatch.setattr(derived, "MAX_LOGS", 2)
    data = log.read_bytes()
    for i in range(5):
        copy = tmp_path / f"copy{i}.jsonl"
        copy.write_bytes(data)
        Game.open(copy, read_only=True)
    names = sorted(p.name for p in cache.glob("*.snap"))
    assert len(names) == 2
    last = derived.entry_path(str(cache), os.path.realpath(tmp_path / "copy4.jsonl"), "snap")
    assert os.path.basename(last) in names


def test_the_rows_mirror_the_state_dataclasses():
    """A unit's row is written out field by field: a field added to Unit and not to
    its row switches snapshots off (never a state missing it)."""
    from stockade.core.log import snap_units
    from stockade.core.model.tracked_unit import Unit

    unit, row = snapcache._written(Unit), snapcache._written(snap_units.UnitRow)
    assert unit is not None and row is not None and snap_units.covers_unit(unit, row)
    assert snapcache.ENABLED and snapcache.rows_mirror_state()


def test_a_row_that_drifts_from_its_dataclass_is_caught():
    from stockade.core.log import snap_units
    from stockade.core.model.tracked_unit import Unit

    unit = snapcache._written(Unit)
    row = snapcache._written(snap_units.UnitRow)
    assert unit is not None and row is not None
    at = dict(unit)
    drifts = {
        "a slot field missing": [r for r in row if r[0] != "cvp"],
        "retyped": [(n, "str" if n == "cvp" else a) for n, a in row],
        "reordered": [row[1], row[0], *row[2:]],
        "no rare fields": row[:-1],
    }
    for why, drifted in drifts.items():
        assert not snap_units.covers_unit(unit, drifted), why
    # a field added to Unit (a slot or a rare one) and not to the row
    assert not snap_units.covers_unit([*unit, ("new", "str")], row)
    # a rare field of a type the row's mapping does not hold
    odd = [(n, "float" if n == "note" else a) for n, a in unit]
    assert at["note"] == "str" and not snap_units.covers_unit(odd, row)


def test_a_warm_open_makes_its_units_without_comparing_their_rare_fields(cache, log, monkeypatch):
    """Each unit is made from its row as the unit is laid out: its rare fields are the
    mapping the row holds, none compared with its default (main compared all 19 of
    every unit: a ``more_of`` call each), and each unit holds them as after a fold."""
    from stockade.core.model import tracked_unit, unit_layout

    Game.open(log, read_only=True).close()
    calls: list[int] = []

    def counted(*args: Any) -> Any:
        calls.append(1)
        return unit_layout.more_of(*args)

    monkeypatch.setattr(tracked_unit, "more_of", counted)
    game = Game.open(log, read_only=True)
    assert game.projection.restored and game.projection.undo[-1] is None  # none folded
    assert calls == []
    monkeypatch.undo()
    cold = fresh(log)
    warm_units, cold_units = game.state.units, cold.state.units
    assert list(warm_units) == list(cold_units)
    assert sum(u._more is not None for u in warm_units.values()) >= 10  # captured, lost
    for handle, unit in warm_units.items():
        kept = cold_units[handle]
        assert (unit._origins, unit._more) == (kept._origins, kept._more), handle
    same(game, cold)


def _fake_core(tmp_path, monkeypatch, files: dict[str, bytes]):
    root = tmp_path / "fake_core"
    for name, body in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(body)
    monkeypatch.setattr(derived, "core_root", lambda: str(root))
    derived.forget_code_fingerprint()
    try:
        return derived.code_fingerprint()
    finally:
        derived.forget_code_fingerprint()


def test_the_fingerprint_follows_what_the_code_is_not_a_list_of_names(tmp_path, monkeypatch):
    base = {"model/state.py": b"A = 1\n", "rules/capture.py": b"B = 2\n"}
    first = _fake_core(tmp_path / "1", monkeypatch, base)
    assert first is not None
    assert _fake_core(tmp_path / "2", monkeypatch, base) == first
    # a rule changed, a module moved into another room, a new module holding a rule
    changed = {**base, "rules/capture.py": b"B = 3\n"}
    assert _fake_core(tmp_path / "3", monkeypatch, changed) != first
    moved = {"state.py": b"A = 1\n", "rules/capture.py": b"B = 2\n"}
    assert _fake_core(tmp_path / "4", monkeypatch, moved) != first
    added = {**base, "rules/melee.py": b"C = 4\n"}
    assert _fake_core(tmp_path / "5", monkeypatch, added) != first


def test_a_source_that_cannot_be_read_turns_snapshots_off(cache, log, tmp_path, monkeypatch):
    root = tmp_path / "fake_core"
    (root / "rules").mkdir(parents=True)
    (root / "rules" / "capture.py").write_bytes(b"B = 2\n")
    (root / "rules" / "escape.py").mkdir()  # reading it fails: a folder, not a file
    monkeypatch.setattr(derived, "core_root", lambda: str(root))
    derived.forget_code_fingerprint()
    try:
        assert derived.code_fingerprint() is None
        game = Game.open(log, read_only=True)  # folds from the start, writes nothing
        assert game.projection.snap_position == 0
        same(game, fresh(log))
        assert not list(cache.glob("*.snap"))
    finally:
        derived.forget_code_fingerprint()


def test_the_real_fingerprint_covers_every_core_module():
    root = derived.core_root()
    assert os.path.isdir(os.path.join(root, "rules"))
    assert derived.code_fingerprint() is not None


# -- the log's bytes hashed once: the snapshot's check of its prefix is a step of the
# pass that makes the log's digest (the derived store's key), not a second pass. Counted,
# not timed: the bytes given to the log's BLAKE2b (the keyless 32-byte digests of
# ``derived.Content``) while a game opens from its snapshot after entries were added
# past it (the usual case: the snapshot is rewritten only every ``REFRESH`` entries).
class _Counting:
    """A BLAKE2b that adds the bytes it hashes to ``seen`` (keyless 32-byte ones)."""

    real: Any = vars(derived)["blake2b"]

    def __init__(self, data: Any = b"", seen: list[int] | None = None, **kw: Any) -> None:
        self._h = self.real(data, **kw)
        self.seen = seen if kw.get("digest_size") == 32 and "key" not in kw else None
        if self.seen is not None:
            self.seen.append(len(data))

    def update(self, data: Any) -> None:
        if self.seen is not None:
            self.seen.append(len(data))
        self._h.update(data)

    def copy(self) -> _Counting:
        twin = object.__new__(_Counting)
        twin._h, twin.seen = self._h.copy(), self.seen
        return twin

    def hexdigest(self) -> str:
        return str(self._h.hexdigest())

    def digest(self) -> bytes:
        return bytes(self._h.digest())


def test_the_log_is_hashed_once_when_it_opens_from_its_snapshot(cache, log, monkeypatch):
    Game.open(log, read_only=True).close()  # folds all, writes the snapshot
    game = Game.open(log)
    driver = Driver(game, seed=5)
    for _ in range(25):  # entries past the snapshot: its prefix is not the whole log
        driver.step()
    game.close()
    seen: list[int] = []
    monkeypatch.setattr(derived, "blake2b", lambda *a, **kw: _Counting(*a, seen=seen, **kw))
    game = Game.open(log, read_only=True)
    monkeypatch.undo()
    position = game.projection.snap_position
    assert position > 0 and game.projection.undo[0] is None
    seqs_hashed = 8 * position  # the snapshot's effective seqs, 8 bytes each
    # a second pass over the prefix made it ~2x the log
    assert sum(seen) - seqs_hashed == log.stat().st_size, seen
    same(game, fresh(log))


def test_the_snapshot_written_in_pieces_is_the_bytes_of_its_struct(cache, log, monkeypatch):
    """The snapshot is written a piece at a time, its units encoded a row at a time
    between the fields before and after them: the file holds the very bytes msgspec
    gives the whole, under a MAC that verifies."""
    monkeypatch.setattr(snap_write, "PIECE_BYTES", 1 << 10)  # many pieces
    monkeypatch.setenv("STOCKADE_CACHE_DIR", str(cache))
    game = fresh(log)
    fold = game.projection
    n = len(fold.seqs)
    pieces = list(
        snap_write._payload(
            (1, "digest"), fold.seqs, n, fold.state, fold.conflicts, fold.when, fold.names.by_seq
        )
    )
    assert len(pieces) > 3
    payload = b"".join(pieces)
    snap = msgspec.msgpack.decode(payload, type=snapcache.Snapshot)
    assert len(snap.units) == len(fold.state.units) > 50
    assert snap.name_table and snap.when_table and snap.casualties
    assert msgspec.msgpack.encode(snap) == payload
    content = (log.stat().st_size, "digest")
    assert snap_write.write(log, content, fold.seqs, n, fold.state, fold.conflicts, fold.when)
    assert derived.read_entry(snapcache.resolved(log), snapcache.KIND, None) is not None


def test_a_snapshot_that_does_not_encode_leaves_no_file(cache, log, monkeypatch):
    monkeypatch.setattr(snap_write, "PIECE_BYTES", 1 << 10)
    monkeypatch.setenv("STOCKADE_CACHE_DIR", str(cache))
    game = fresh(log)
    fold = game.projection
    n = len(fold.seqs)
    last = list(fold.state.units.values())[-1]
    object.__setattr__(last, "note", object())  # fails in the last piece, after others
    content = (log.stat().st_size, "digest")
    assert not snap_write.write(log, content, fold.seqs, n, fold.state, fold.conflicts, fold.when)
    assert derived.read_entry(snapcache.resolved(log), snapcache.KIND, None) is None
    assert not [p for p in cache.iterdir() if p.name.endswith(".tmp")]


class _CountingDecoder:
    """A record decoder that counts the lines it decodes."""

    def __init__(self, decoder: Any, seen: list[int]) -> None:
        self.decoder, self.seen = decoder, seen

    def decode(self, line: bytes) -> Any:
        self.seen.append(1)
        return self.decoder.decode(line)

    def decode_lines(self, data: bytes) -> Any:
        records = self.decoder.decode_lines(data)
        self.seen.append(len(records))
        return records


def test_a_warm_open_decodes_only_the_lines_after_its_snapshot(
    cache, tmp_path, monkeypatch, generated_log
):
    monkeypatch.setattr(log_store, "STREAM_FROM", 0)
    log = tmp_path / "game.jsonl"
    generated_log(log, 900, 4)
    Game.open(log, read_only=True).close()  # folds all, writes the snapshot
    game = Game.open(log)
    driver = Driver(game, seed=5)
    for _ in range(20):  # lines past the snapshot's prefix
        driver.step()
    game.close()
    seen: list[int] = []
    counting = msgspec.structs.replace(GAME, decoder=_CountingDecoder(GAME.decoder, seen))
    monkeypatch.setattr(long_read, "GAME", counting)
    game = Game.open(log, read_only=True)
    assert game.projection.restored
    data = log.read_bytes()
    assert sum(seen) < data.count(b"\n") // 4, sum(seen)  # every line decoded before
    snap = snapcache.peek(log)
    assert snap is not None
    after = data.count(b"\n") - data[: snap.log_bytes].count(b"\n")  # lines past it
    folded = len(game.effective) - game.projection.snap_position  # events folded after it
    assert 0 < after < 100 and sum(seen) <= after + folded, (sum(seen), after, folded)
    monkeypatch.undo()
    same(game, fresh(log))
    history = game.history()  # the prefix's records are read from the file when asked
    assert [e.record for e in history] == list(fresh(log).records)


def test_reading_past_the_prefix_keeps_the_slow_paths_promises(
    cache, tmp_path, monkeypatch, generated_log
):
    monkeypatch.setattr(log_store, "STREAM_FROM", 0)
    log = tmp_path / "game.jsonl"
    generated_log(log, 900, 4)
    Game.open(log, read_only=True).close()  # the snapshot, with its prefix's timeline
    good = log.read_bytes()

    # a torn last line after the prefix: said as without a snapshot, nothing lost
    log.write_bytes(good + b'{"kind":"unit","hand')
    torn = Game.open(log, read_only=True)
    assert any("unfinished last entry" in w for w in torn.warnings), torn.warnings
    same(torn, fresh(log))

    # a line inside the prefix changed in place (the same length): a miss, folded whole
    at = good.index(b'"location":"') + len(b'"location":"')
    edited = good[:at] + (b"Z" if good[at : at + 1] != b"Z" else b"Y") + good[at + 1 :]
    log.write_bytes(edited)
    game = Game.open(log, read_only=True)
    assert not game.projection.restored
    same(game, fresh(log))
    assert list(game.records) == list(fresh(log).records)


def test_a_warm_open_takes_in_the_index_of_its_prefix(cache, tmp_path, monkeypatch, generated_log):
    """The lines of the prefix a snapshot proves are neither decoded nor split and
    summed again: the snapshot keeps where they are (``LogRecords.line_index``), made
    from the very bytes their digest proves. Lines appended after those were read (a
    session's writes) are indexed as they are read, and every line reads back as the
    open without a snapshot reads it."""
    from stockade.core.log.records import LogRecords

    monkeypatch.setattr(log_store, "STREAM_FROM", 0)
    log = tmp_path / "game.jsonl"
    generated_log(log, 900, 4)
    Game.open(log, read_only=True).close()  # folds all, writes the snapshot
    indexed: list[int] = []
    extend_unread = LogRecords.extend_unread

    def counting(self: LogRecords[Any], data: bytes) -> int:
        n = extend_unread(self, data)
        indexed.append(n)
        return n

    monkeypatch.setattr(LogRecords, "extend_unread", counting)
    game = Game.open(log, read_only=True)
    assert game.projection.restored
    assert sum(indexed) == 0, sum(indexed)  # main: every line of the prefix
    assert [e.record for e in game.history()] == list(fresh(log).records)

    # a session's writes, then a snapshot written over them: only those lines are
    # indexed at the next open (their bytes were written, never read)
    monkeypatch.setattr(snap_sizes, "REFRESH", 1)
    game = Game.open(log)
    driver = Driver(game, seed=5)
    written = len(game.records)
    for _ in range(20):
        driver.step()
    written = len(game.records) - written
    game.close()
    snap = snapcache.peek(log)
    assert snap is not None and snap.index is not None and snap.lines == snap.index.lines + written
    indexed.clear()
    game = Game.open(log, read_only=True)
    assert game.projection.restored
    assert sum(indexed) == written, (sum(indexed), written)
    monkeypatch.undo()
    same(game, fresh(log))
    assert [e.record for e in game.history()] == list(fresh(log).records)


def test_an_index_that_does_not_fit_is_not_taken_in(cache, tmp_path, monkeypatch, generated_log):
    """A snapshot's index is checked for its shape before it is taken in; one that
    does not fit its lines is not: the log is read as without it, every line as the
    open without a snapshot reads it."""
    from stockade.core.log.records import LineIndex

    monkeypatch.setattr(log_store, "STREAM_FROM", 0)
    log = tmp_path / "game.jsonl"
    generated_log(log, 900, 4)
    Game.open(log, read_only=True).close()
    snap = snapcache.peek(log)
    assert snap is not None and snap.index is not None
    lines, end, starts, sums = msgspec.structs.astuple(snap.index)
    for bad in (
        LineIndex(lines + 64, end, starts, sums),  # more lines than its blocks
        LineIndex(lines, end, starts[::-1], sums[::-1]),  # out of order
        LineIndex(lines, end - 1, starts, sums),  # not ending on a line
    ):
        with monkeypatch.context() as m:
            m.setattr(
                snapcache, "peek", lambda _log, bad=bad: msgspec.structs.replace(snap, index=bad)
            )
            game = Game.open(log, read_only=True)
        same(game, fresh(log))
        assert [e.record for e in game.history()] == list(fresh(log).records)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_undo_strike_and_replay_after_a_warm_open_answer_as_after_a_cold_one(
    cache, log, tmp_path, seed
):
    """At random depths (inside the undo journal the open keeps, and past it into the
    snapshot's prefix), undo, strike and replay after an open from the snapshot give
    what they give after an open that folds the whole log."""
    import random
    import shutil

    Game.open(log, read_only=True).close()  # the snapshot
    cold_log = tmp_path / f"cold{seed}.jsonl"
    shutil.copy(log, cold_log)
    rng = random.Random(seed)
    warm, cold = Game.open(log), fresh_writable(cold_log)
    assert warm.projection.restored and not cold.projection.restored
    for _ in range(4):
        depth = rng.choice(
            [1, 3, snap_sizes.TAIL // 2, snap_sizes.TAIL + 5, len(warm.effective) // 2]
        )
        seq = warm.effective[max(0, len(warm.effective) - depth)].seq
        assert dump(warm.state_at(seq)) == dump(cold.state_at(seq))
        for _ in range(rng.randint(1, 3)):
            if warm.can_undo():
                assert cold.can_undo()
                warm.undo()
                cold.undo()
        target = warm.effective[max(1, len(warm.effective) - depth)].seq
        warm_refused = cold_refused = None
        try:
            warm.strike(target, "test")
        except Exception as exc:  # a refusal names its rule: the same either way
            warm_refused = str(exc)
        try:
            cold.strike(target, "test")
        except Exception as exc:
            cold_refused = str(exc)
        assert warm_refused == cold_refused
        assert dump(warm.state) == dump(cold.state)
        assert [r.seq for r in warm.effective] == [r.seq for r in cold.effective]
        assert [(s, str(r)) for s, r in warm.conflicts.items()] == [
            (s, str(r)) for s, r in cold.conflicts.items()
        ]
    warm.close()
    cold.close()
