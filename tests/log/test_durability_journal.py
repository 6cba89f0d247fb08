"""The journal and log-loading promises of docs/durability.md, one by one."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import stockade.core.log.journal as journal_mod
from bench.generate import Driver, new_game
from stockade.core.book.game import Game
from stockade.core.log.game_log import load
from stockade.core.log.journal_errors import JournalError
from stockade.core.log.upgrade import UPGRADES, upgrade_record
from stockade.core.model import events as ev

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _game(path: Path, actions: int = 30) -> Game:
    game = new_game(path=path)
    driver = Driver(game, seed=2)
    for _ in range(actions):
        driver.step()
    return game


def test_second_open_is_read_only_and_says_so(tmp_path):
    path = tmp_path / "g.jsonl"
    first = _game(path)
    second = Game.open(path)
    assert second.read_only and not first.read_only
    assert any("another Stockade window" in w for w in second.warnings)
    first.close()
    third = Game.open(path)  # the lock went with the first window
    assert not third.read_only
    third.close()
    second.close()


def test_read_only_open_never_touches_the_file(tmp_path):
    path = tmp_path / "g.jsonl"
    _game(path).close()
    with open(path, "ab") as fh:
        fh.write(b'{"kind":"phase","seq":')  # a torn tail
    before = path.read_bytes(), os.stat(path).st_mtime_ns
    game = Game.open(path, read_only=True)
    assert game.read_only and game.journal._fd is None
    assert any("unfinished" in w for w in game.warnings)
    assert (path.read_bytes(), os.stat(path).st_mtime_ns) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.jsonl"]


def test_one_write_then_fsync_per_command_group(tmp_path, monkeypatch):
    game = _game(tmp_path / "g.jsonl", 5)
    calls = []
    game.journal._write = lambda fd, data: calls.append(("write", data)) or os.write(fd, data)
    game.journal._fsync = lambda fd: calls.append(("fsync", None)) or os.fsync(fd)
    game.submit(
        [
            ev.StatusChanged(handle=next(iter(game.state.units)), pinned=True),
            ev.StatusChanged(handle=next(iter(game.state.units)), pinned=False),
        ]
    )
    assert [c[0] for c in calls] == ["write", "fsync"]
    assert calls[0][1].count(b"\n") == 2 and calls[0][1].endswith(b"\n")


def test_create_syncs_the_directory_and_leaves_nothing_on_failure(tmp_path, monkeypatch):
    synced = []
    real = journal_mod.fsync_dir
    monkeypatch.setattr(journal_mod, "fsync_dir", lambda p: synced.append(Path(p)) or real(p))
    new_game(path=tmp_path / "g.jsonl").close()
    assert synced == [tmp_path]

    def broken(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(journal_mod, "_full_fsync", broken)
    with pytest.raises(JournalError, match="the disk is full.*no game was made"):
        new_game(path=tmp_path / "h.jsonl")
    assert not (tmp_path / "h.jsonl").exists()


def test_gap_free_seq_and_version_on_every_line(tmp_path):
    path = tmp_path / "g.jsonl"
    _game(path, 80).close()
    for n, line in enumerate(path.read_bytes().splitlines(), 1):
        raw = json.loads(line)
        assert raw["seq"] == n and raw["v"] == ev.SCHEMA_VERSION and raw["grp"] <= n


def test_torn_tail_is_set_aside_then_cut(tmp_path):
    path = tmp_path / "g.jsonl"
    _game(path).close()
    good = path.read_bytes()
    torn = b'{"kind":"status","handle":"G1","broken":tr'
    path.write_bytes(good + torn)
    game = Game.open(path)
    assert path.read_bytes() == good
    sides = list(tmp_path.glob("g.jsonl.torn-*"))
    assert len(sides) == 1 and sides[0].read_bytes() == torn
    assert any(sides[0].name in w for w in game.warnings)
    game.close()


def test_undecodable_last_line_counts_as_torn_but_a_bad_record_does_not(tmp_path):
    path = tmp_path / "g.jsonl"
    _game(path).close()
    good = path.read_bytes()
    path.write_bytes(good + b"\x00\x00\x00\x00\n")
    game = Game.open(path)
    assert not game.read_only and path.read_bytes() == good
    game.close()
    n = good.count(b"\n") + 1
    bad = f'{{"kind":"nonsense","seq":{n},"v":1,"grp":{n}}}\n'.encode()
    path.write_bytes(good + bad)
    game = Game.open(path)
    assert game.read_only and game.problem.line == n and "nonsense" in str(game.problem)
    game.close()
    assert path.read_bytes() == good + bad  # never truncated


def test_torn_multi_line_group_goes_aside_whole(tmp_path):
    path = tmp_path / "g.jsonl"
    game = _game(path)
    good = path.read_bytes()
    n = len(game.records) + 1
    handle = next(iter(game.state.units))
    lines = [
        ev.encode(ev.StatusChanged(seq=n + i, grp=n, handle=handle, pinned=bool(i)))
        for i in range(3)
    ]
    game.close()
    # The torn bytes must show the group number to be recognised (msgspec writes grp
    # near the end of a line); docs/durability.md says what happens otherwise.
    cut = lines[2].index(b'"grp"') + 10
    path.write_bytes(good + lines[0] + b"\n" + lines[1] + b"\n" + lines[2][:cut])
    reopened = Game.open(path)
    assert path.read_bytes() == good and len(reopened.records) == n - 1
    side = next(tmp_path.glob("g.jsonl.torn-*")).read_bytes()
    assert side.startswith(lines[0])
    reopened.close()


def test_the_journal_refuses_a_file_changed_or_replaced_behind_its_back(tmp_path):
    path = tmp_path / "g.jsonl"
    game = _game(path, 5)
    with open(path, "ab") as fh:  # a program that ignores the lock
        fh.write(b"junk\n")
    with pytest.raises(Exception, match="another program changed the log"):
        game.undo()
    game.close()
    game = Game.open(path)  # the junk line is at the tail: set aside
    os.replace(path, tmp_path / "moved.jsonl")
    path.write_bytes((tmp_path / "moved.jsonl").read_bytes())  # an editor's "save"
    with pytest.raises(Exception, match="replaced"):
        game.undo()
    game.close()


def test_v0_fixture_loads_and_upgrades():
    raw_lines = (FIXTURES / "v0_game.jsonl").read_bytes().splitlines()
    assert all(b'"type"' in line and b'"v"' not in line for line in raw_lines)
    loaded = load(FIXTURES / "v0_game.jsonl")
    assert loaded.problem is None and len(loaded.records) == len(raw_lines)
    assert all(r.v == ev.SCHEMA_VERSION for r in loaded.records)
    unit = loaded.records[1]
    assert isinstance(unit, ev.UnitEntered) and unit.unit_kind == "squad" and unit.grp == 2
    game = Game.open(FIXTURES / "v0_game.jsonl", read_only=True)
    assert game.state.units["r1"].status == "prisoner" and game.state.units["r1"].guard == "g1"
    assert not game.conflicts


def test_v0_log_gets_current_records_appended(tmp_path):
    path = tmp_path / "old.jsonl"
    path.write_bytes((FIXTURES / "v0_game.jsonl").read_bytes())
    game = Game.open(path)
    game.undo()
    game.close()
    last = json.loads(path.read_bytes().splitlines()[-1])
    assert last["kind"] == "undo" and last["v"] == ev.SCHEMA_VERSION
    assert Game.open(path, read_only=True).problem is None


def test_upgrade_steps_are_pure():
    raw = {"type": "unit", "seq": 2, "group": 2, "kind_of_unit": "hs"}
    copy = dict(raw)
    out = UPGRADES[0](raw)
    assert raw == copy and out["kind"] == "unit" and out["unit_kind"] == "hs" and out["v"] == 1
    for bad in (-1, "0", 99):
        with pytest.raises(ValueError):
            upgrade_record({"v": bad})


@pytest.mark.parametrize(
    "first, is_",
    [
        (b'{"name": "x", "items": [1, 2]}', "a JSON object with no 'kind'"),
        (b"[1, 2]", "an array"),
        (b'{"kind": "ledger"}', "a record of unknown kind 'ledger'"),
    ],
)
def test_a_json_file_that_is_no_game_is_said_plainly_naming_the_line(tmp_path, first, is_):
    """Not "an old (v0) record could not be upgraded": the file is no Stockade game log."""
    path = tmp_path / "notes.json"
    path.write_bytes(first + b"\n")
    loaded = load(path)
    assert loaded.problem is not None and loaded.problem.line == 1
    assert loaded.problem.message == (
        f"not a Stockade game log: this line is {is_}, not the game header a Stockade game "
        "log begins with"
    )


def test_a_record_with_no_kind_inside_a_game_is_not_called_an_old_record(tmp_path):
    path = tmp_path / "g.jsonl"
    _game(path).close()
    good = path.read_bytes()
    path.write_bytes(good + b'{"name": "x"}\n')
    loaded = load(path)
    assert loaded.problem is not None and loaded.problem.line == good.count(b"\n") + 1
    assert loaded.problem.message == "not a Stockade record (no 'kind')"
