"""An entry that holds in part reads the same after an open from the snapshot.

A strike folds a later entry again; when the entry as written no longer holds, the
part of it that still holds is kept and the entry says what was dropped
(``core.rules.partial``): "eliminate a2 ... takeover a1" after the transfer to a2 is
struck keeps the elimination and drops the takeover. A game over the snapshot
threshold with such an entry in the prefix its snapshot covers must read the same
opened from the snapshot (warm) as folded from the start (cold: no snapshot cache):
the history rows (``Game.history``, the TUI's lines, ``stockade history`` and its
``--json``), the tally, ``check``, ``show`` and the replay at several depths.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.generate import write_log
from stockade.core.book.game import Game
from stockade.core.cli import main
from stockade.core.commands import run_script
from stockade.core.log import snap_sizes, snapcache
from stockade.core.model import events as ev
from stockade.tui.widgets.history_lines import all_lines, entry_line
from tests.rules.machine import dump

# One worker runs this module's tests (pyproject.toml: --dist loadgroup), so the long log
# is made once.
pytestmark = pytest.mark.xdist_group("test_warm_open_partial")

SCRIPT = [
    "vc American wins immediately if amassed >= 8; otherwise German",
    "add American 6-6-7 6-6-7 6-6-7 at Q4",
    "add German 4-6-7 4-6-7 at Q5 broken",
    "phase RtPh 1 American",
    "surrender g1 g2 to a1",
    "next",
    "transfer g1 to a2",  # entry 11, struck below
    "move a1 R4",
    "move a1 Q4",
    "next",
    "next",
    "next",  # the German PFPh: an elimination by fire is made in a fire phase (A7)
    "eliminate a2 by enemy takeover a1",  # holds in part once the transfer is struck
    "phase MPh 2 American",
    "escort a1",
]
TRANSFER = 11
DROPPED = "a2 eliminated; the takeover by a1 is dropped: a2 guards none now"


def long_log(path: Path) -> int:
    """A game over the snapshot threshold whose entry that holds in part lies far
    inside the prefix its snapshot covers; the seq of that entry."""
    game = Game.in_memory(
        "Partial", [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]
    )
    run_script(game, SCRIPT)
    change = game.strike(TRANSFER)
    assert change.conflicts == 0
    [seq] = game.projection.partial
    assert game.projection.partial[seq] == DROPPED
    pad = snap_sizes.MIN_EVENTS + snap_sizes.TAIL - len(game.effective) + 100
    run_script(game, [f"move a3 {'R5' if i % 2 else 'Q4'}" for i in range(pad)])
    assert game.projection.partial == {seq: DROPPED}
    write_log(game, path)
    assert len(game.effective) >= snap_sizes.MIN_EVENTS + snap_sizes.TAIL
    return seq


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return int(code), out, err


def rows(game: Game) -> list[object]:
    """The history as the core gives it, and as the TUI draws it."""
    history = [
        (e.seq, e.grp, e.status, e.reason, e.rule, e.turn, e.phase, e.attacker)
        for e in game.history()
    ]
    lines = all_lines(game)
    one_by_one = [entry_line(game, r) for r in game.records]
    return [history, lines, one_by_one]


@pytest.fixture(scope="module", autouse=True)
def long_from_400_entries():
    """A game is long (a snapshot written, the state ``TAIL`` entries back kept beside
    it) from 400 entries, its tail 30: what is read warm and cold is the same as at the
    product's sizes (5,000 and 256), for a tenth of the entries to make and read."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(snap_sizes, "MIN_EVENTS", 400)
        m.setattr(snap_sizes, "TAIL", 30)
        yield


@pytest.fixture(scope="module")
def partial_log_bytes(long_from_400_entries, tmp_path_factory) -> tuple[bytes, int]:
    """The long log made once for the module (an in-memory game of 500-odd entries),
    as bytes; each test reads its own copy of the file."""
    path = tmp_path_factory.mktemp("partial") / "game.jsonl"
    seq = long_log(path)
    return path.read_bytes(), seq


@pytest.fixture()
def partial_log(partial_log_bytes, tmp_path) -> tuple[Path, int]:
    data, seq = partial_log_bytes
    path = tmp_path / "game.jsonl"
    path.write_bytes(data)
    return path, seq


def test_a_warm_open_reads_an_entry_that_holds_in_part_as_a_cold_one(
    partial_log, tmp_path, monkeypatch
):
    path, seq = partial_log
    monkeypatch.setenv("STOCKADE_CACHE_DIR", str(tmp_path / "cache"))
    Game.open(path, read_only=True).close()  # folds whole, writes the snapshot
    warm = Game.open(path, read_only=True)
    monkeypatch.setenv("STOCKADE_CACHE_DIR", "off")
    cold = Game.open(path, read_only=True)
    assert warm.projection.restored and not cold.projection.restored
    assert 0 < seq < warm.projection.seqs[warm.projection.snap_position - 1]  # in the prefix
    assert cold.projection.partial == {seq: DROPPED}

    differ = [n for n, (w, c) in enumerate(zip(rows(warm), rows(cold), strict=True)) if w != c]
    assert differ == []  # the core's history, the TUI's lines, one line at a time
    assert warm.projection.partial == cold.projection.partial
    assert any(line.reason == DROPPED for line in all_lines(warm))
    assert dump(warm.state) == dump(cold.state)
    assert warm.conflicts == cold.conflicts == {}
    # replay, shallow to deep: a replay into the prefix completes the warm journal
    effective = [r.seq for r in cold.effective]
    for at in (effective[-1], effective[-3], effective[-snap_sizes.TAIL - 5], seq, seq - 1):
        assert dump(warm.state_at(at)) == dump(cold.state_at(at)), at
        assert rows(warm) == rows(cold), at
    warm.close()
    cold.close()


def test_the_command_line_reads_it_the_same_warm_and_cold(
    partial_log, tmp_path, monkeypatch, capsys
):
    path, seq = partial_log
    last = len(path.read_bytes().splitlines())
    commands = [
        ("history",),
        ("history", "--json"),
        ("tally",),
        ("tally", "--json"),
        ("check",),
        ("show", "--json"),
        *(("show", "--json", "--at", at) for at in (last - 2, last - 300, seq, seq - 1)),
        *(("tally", "--json", "--at", at) for at in (last - 300, seq)),
    ]

    def answers() -> list[tuple[int, str, str]]:
        return [cli(capsys, command[0], path, *command[1:]) for command in commands]

    monkeypatch.setenv("STOCKADE_CACHE_DIR", "off")
    cold = answers()
    monkeypatch.setenv("STOCKADE_CACHE_DIR", str(tmp_path / "cache"))
    Game.open(path, read_only=True).close()  # the snapshot
    assert snapcache.peek(path) is not None
    warm = answers()
    said = [line for line in cold[0][1].splitlines() if line.startswith(f"{seq:>5} ")]
    assert said and said[0].endswith(f"<holds in part: {DROPPED}>")
    entry = json.loads(cold[1][1])["entries"][seq - 1]
    assert entry["seq"] == seq and entry["reason"] == DROPPED
    differ = [command for command, c, w in zip(commands, cold, warm, strict=True) if c != w]
    assert differ == []


def test_a_snapshot_naming_an_entry_outside_its_prefix_is_not_taken(
    partial_log, tmp_path, monkeypatch
):
    """What a snapshot says holds in part is checked against the prefix it covers:
    one that names an entry past it (or none of the log's) is not taken in; the game
    folds from the start and reads as without it."""
    import msgspec

    path, seq = partial_log
    monkeypatch.setenv("STOCKADE_CACHE_DIR", str(tmp_path / "cache"))
    Game.open(path, read_only=True).close()
    snap = snapcache.peek(path)
    assert snap is not None and snap.partial == [(seq, DROPPED)]
    fold = Game.open(path, read_only=True).projection
    past = fold.seqs[-1] + 1  # an entry after the prefix (it covers them all: the next)
    for wrong in ([(seq, DROPPED), (past, "x")], [(len(fold.seqs) + 10**6, "x")]):
        bad = msgspec.structs.replace(snap, partial=wrong)
        assert snapcache.restore(bad, fold.seqs) is None
        with monkeypatch.context() as m:
            m.setattr(snapcache, "peek", lambda _log, bad=bad: bad)
            game = Game.open(path, read_only=True)
        assert not game.projection.restored
        assert game.projection.partial == {seq: DROPPED}
    assert snapcache.restore(snap, fold.seqs) is not None
