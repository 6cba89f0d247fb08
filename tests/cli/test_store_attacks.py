"""The attacks on the tally kept beside a log, each a test: a figure printed that the
file does not fold to (an in-place edit right after a write; code changed during a
fold; a kept file edited and summed again), a tally that never returns (a FIFO, a
device, a file too large), and files written through a planted link.

Every test compares what ``stockade tally`` prints with what a fresh fold prints (the
store off), and each hook sits at a fixed point (after the write, during the fold):
none is a race.
"""

from __future__ import annotations

import os
import resource
import stat
import subprocess
import sys
import time
from hashlib import blake2b
from pathlib import Path

import pytest

from stockade.core.book import tally as tallying
from stockade.core.cli import stored_tally
from stockade.core.log import derived, entry_files
from stockade.core.log import journal as journal_module
from stockade.core.log.log_file import MAX_LOG_BYTES
from stockade.sample_games.catalog import HERE as SAMPLE_DIR
from stockade.tui import launcher
from tests.cli.support import cli

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def game(tmp_path) -> Path:
    path = tmp_path / "demo.jsonl"
    path.write_bytes((Path(SAMPLE_DIR) / "demo.jsonl").read_bytes())
    return path


def launched(capsys, *argv) -> tuple[int, str, str]:
    """``stockade ARGV`` as the console script runs it (the store first)."""
    code = launcher.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def fresh_fold(capsys, monkeypatch, path) -> tuple[int, str, str]:
    """What a fold from the file as it is prints (the store off)."""
    with monkeypatch.context() as m:
        m.setenv("STOCKADE_CACHE_DIR", "off")
        return cli(capsys, "tally", path)


def flip_scenario_case(path: Path) -> None:
    """Another program's in-place edit: the scenario's first letter changes case, the
    length stays (a same-length edit is what a length check cannot see)."""
    data = bytearray(path.read_bytes())
    start = data.index(b'"scenario":"') + len(b'"scenario":"')
    data[start] ^= 0x20
    with open(path, "r+b") as f:  # in place: the same inode, the same length
        f.write(bytes(data))


# ---------------------------------------------------------------------------- N1
def test_an_in_place_edit_right_after_a_do_writes_is_never_printed_as_its_tally(
    game, capsys, monkeypatch
):
    """The hook runs right after the ``do``'s write reached the disk (its fsync), before
    anything derived from it is kept: what is kept must be keyed by the bytes the
    ``do`` wrote, never by the file read again."""
    real_fsync = journal_module._full_fsync
    edits = []

    def fsync_then_edit(fd: int) -> None:
        real_fsync(fd)
        if not edits:
            edits.append(fd)
            flip_scenario_case(game)

    monkeypatch.setattr(journal_module, "_full_fsync", fsync_then_edit)
    assert cli(capsys, "do", game, "next")[0] == 0
    assert edits, "the hook ran"
    monkeypatch.setattr(journal_module, "_full_fsync", real_fsync)
    truth = fresh_fold(capsys, monkeypatch, game)
    assert launched(capsys, "tally", game) == truth
    assert launched(capsys, "tally", game) == truth  # and once kept by that fold


# ---------------------------------------------------------------------------- N2
def _fake_core(root: Path) -> None:
    for name, body in {"rules/capture.py": b"B = 2\n", "data/cvp.toml": b"squad = 2\n"}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(body)


def test_code_changed_during_a_folding_tally_never_keeps_it_under_the_new_code(
    game, capsys, monkeypatch, tmp_path
):
    """An upgrade (or a ``git pull`` of an editable install) lands while a tally folds:
    the fingerprint was taken before, so what the fold keeps is under the old code's,
    and the new code never reads it."""
    root = tmp_path / "core"
    _fake_core(root)
    monkeypatch.setattr(derived, "core_root", lambda: str(root))
    derived.forget_code_fingerprint()
    real_tally = tallying.tally

    def tally_then_upgrade(state):
        result = real_tally(state)
        (root / "data" / "cvp.toml").write_bytes(b"squad = 3\n")  # during the fold
        return result

    monkeypatch.setattr(tallying, "tally", tally_then_upgrade)
    try:
        assert launched(capsys, "tally", game)[0] == 0  # folds: nothing kept yet
        derived.forget_code_fingerprint()  # the next process: the new code
        assert stored_tally.answer(["tally", str(game)]) is None
        capsys.readouterr()
    finally:
        derived.forget_code_fingerprint()


def test_the_command_line_takes_the_fingerprint_before_it_reads_a_data_file(
    game, monkeypatch, capsys
):
    from stockade.core import cli as core_cli
    from stockade.core.model import units

    order: list[str] = []
    real_load = units._load
    monkeypatch.setattr(derived, "code_fingerprint", lambda: order.append("fingerprint"))
    monkeypatch.setattr(units, "_load", lambda name: order.append(name) or real_load(name))
    assert core_cli.main(["tally", str(game)]) == 0
    capsys.readouterr()
    data = [i for i, what in enumerate(order) if what.endswith(".toml")]
    assert data and order[0] == "fingerprint" and order.index("fingerprint") < data[0], order


# ---------------------------------------------------------------------------- N3
def test_a_kept_file_edited_and_summed_again_without_the_key_is_a_miss(
    game, capsys, monkeypatch, stockade_dirs
):
    truth = cli(capsys, "tally", game)  # folds and keeps
    (kept,) = stockade_dirs.cache.glob("*.tally")
    data = kept.read_bytes()
    magic = data[: data.index(b"\n") + 1]
    size = entry_files.MAC_BYTES
    header, _, payload = data[len(magic) + size :].partition(b"\n")
    forged = payload.replace(b"Demo", b"Fake")
    assert forged != payload
    # every way to sum it again without the key: the body, and the MAC's own layout
    for checksum in (
        blake2b(header + b"\n" + forged, digest_size=size).digest(),
        blake2b(
            len(header).to_bytes(8, "big") + header + forged,
            digest_size=size,
            person=b"stockade store",
        ).digest(),
    ):
        kept.write_bytes(magic + checksum + header + b"\n" + forged)
        assert stored_tally.answer(["tally", str(game)]) is None
        assert launched(capsys, "tally", game) == truth


def test_the_key_is_private_and_a_key_not_as_made_reads_nothing(
    game, capsys, monkeypatch, stockade_dirs
):
    truth = cli(capsys, "tally", game)
    key = stockade_dirs.cache / "key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and key.stat().st_size == 32
    assert stored_tally.answer(["tally", str(game)]) == 0
    capsys.readouterr()
    key.chmod(0o644)  # readable by others: no longer this user's secret
    assert stored_tally.answer(["tally", str(game)]) is None
    assert launched(capsys, "tally", game) == truth


# ---------------------------------------------------------------------------- N5
def _child_limits() -> None:  # pragma: no cover - runs in the child
    # a reader that reads without bound is stopped by memory, not by the machine
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def _tally_in_a_child(target: str, cache: Path) -> tuple[int, str, float]:
    env = {**os.environ, "STOCKADE_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    started = time.monotonic()
    child = subprocess.run(
        [sys.executable, "-m", "stockade.tui.launcher", "tally", target],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,  # a hang guard only: the refusal comes at once
        preexec_fn=_child_limits,
    )
    return child.returncode, child.stderr, time.monotonic() - started


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_at_once_with_the_store_on(tmp_path, stockade_dirs):
    fifo = tmp_path / "game.jsonl"
    os.mkfifo(fifo)
    code, err, _ = _tally_in_a_child(str(fifo), stockade_dirs.cache)
    assert code != 0 and "not a regular file" in err, err


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_a_device_is_refused_at_once_with_the_store_on(stockade_dirs):
    code, err, _ = _tally_in_a_child("/dev/zero", stockade_dirs.cache)
    assert code != 0 and "not a regular file" in err, err


def test_a_log_over_the_size_bound_is_refused_before_it_is_read(tmp_path, stockade_dirs):
    huge = tmp_path / "huge.jsonl"
    with open(huge, "wb") as f:
        f.truncate(MAX_LOG_BYTES + 1)  # sparse: no disk used
    code, err, _ = _tally_in_a_child(str(huge), stockade_dirs.cache)
    assert code != 0 and f"over the {MAX_LOG_BYTES}-byte limit" in err, err
    assert "Traceback" not in err


# ---------------------------------------------------------------------------- N6
def test_store_files_are_private_and_made_without_following_a_planted_link(
    game, capsys, monkeypatch, stockade_dirs, tmp_path
):
    cache = stockade_dirs.cache
    cache.mkdir(parents=True, exist_ok=True)
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious")
    # links at every temporary name a writer could predict from the log, the code's
    # folder and this process's id
    pid = os.getpid()
    store = blake2b(os.path.realpath(game).encode(), digest_size=16).hexdigest()
    tree = blake2b(derived.core_root().encode(), digest_size=8).hexdigest()
    for name in (f".{store}.tally.{pid}.tmp", f".code-{tree}.memo.{pid}.tmp"):
        (cache / name).symlink_to(victim)
    made: list[tuple[str, int, int]] = []
    real_open = os.open

    def recording_open(path, flags, mode=0o777, *args, **kwargs):
        if flags & os.O_CREAT and str(path).startswith(str(cache)):
            made.append((os.path.basename(path), flags, mode))
        return real_open(path, flags, mode, *args, **kwargs)

    monkeypatch.setattr(os, "open", recording_open)
    derived.forget_code_fingerprint()  # its memo is written in this folder too
    try:
        assert cli(capsys, "tally", game)[0] == 0
        assert cli(capsys, "do", game, "next")[0] == 0
    finally:
        monkeypatch.setattr(os, "open", real_open)
        derived.forget_code_fingerprint()
    assert victim.read_bytes() == b"precious"
    assert made, "the store wrote its files"
    for name, flags, mode in made:
        assert flags & os.O_EXCL and flags & os.O_NOFOLLOW and mode == 0o600, name
    files = [p for p in cache.iterdir() if not p.is_symlink()]
    assert any(p.suffix == ".tally" for p in files)
    for path in files:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path.name


def test_a_planted_key_link_makes_the_store_read_and_write_nothing(
    game, capsys, monkeypatch, stockade_dirs, tmp_path
):
    cache = stockade_dirs.cache
    cache.mkdir(parents=True, exist_ok=True)
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"x" * 32)
    (cache / "key").symlink_to(victim)
    truth = fresh_fold(capsys, monkeypatch, game)
    assert cli(capsys, "tally", game) == truth
    assert launched(capsys, "tally", game) == truth
    assert victim.read_bytes() == b"x" * 32
    assert not list(cache.glob("*.tally"))
