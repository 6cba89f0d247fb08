"""The tally from the derived store (core/log/derived.py, core/cli/stored_tally.py):
``stockade tally`` renders a tally folded earlier from the same bytes by the same code
and runtime, and on any doubt folds.
What is checked is what is printed and which path printed it, never how long it took
(bench/cli_startup.py measures that)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from stockade.core.cli import stored_tally
from stockade.core.log import derived
from stockade.sample_games.catalog import HERE as SAMPLE_DIR
from stockade.tui import launcher
from tests.cli.support import cli

SAMPLES = sorted(Path(SAMPLE_DIR).glob("*.jsonl"))
FORMATS = [[], ["--format", "md"], ["--format=html"], ["--format", "bbcode"], ["--format", "csv"]]
FORMATS += [["--json"], ["--json", "--at", "3"], ["--at=2", "--format", "md"]]


def kept_answer(capsys, *argv) -> tuple[int | None, str, str]:
    """What the fast path prints for ``stockade ARGV`` (None: it would fold)."""
    code = stored_tally.answer([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def launched(capsys, *argv) -> tuple[int, str, str]:
    """``stockade ARGV`` as the console script runs it (the fast path first)."""
    code = launcher.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def game(tmp_path) -> Path:
    path = tmp_path / "demo.jsonl"
    path.write_bytes((Path(SAMPLE_DIR) / "demo.jsonl").read_bytes())
    return path


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.stem)
def test_the_kept_output_is_the_folded_output_for_every_sample_and_format(sample, tmp_path, capsys):
    path = tmp_path / sample.name
    path.write_bytes(sample.read_bytes())
    assert kept_answer(capsys, "tally", path)[0] is None  # nothing kept yet
    for options in FORMATS:
        early = kept_answer(capsys, "tally", path, *options)  # kept for another format?
        folded = cli(capsys, "tally", path, *options)
        assert folded[0] == 0
        assert early[0] is None or early == folded  # the data renders as the fold prints
        assert kept_answer(capsys, "tally", path, *options) == folded
        assert launched(capsys, "tally", path, *options) == folded


def test_a_changed_byte_of_the_log_folds_again(game, capsys, monkeypatch):
    cli(capsys, "tally", game)
    data = bytearray(game.read_bytes())
    start = data.index(b'"scenario":"') + len(b'"scenario":"')
    data[start] ^= 0x20  # the scenario's first letter changes case: same length
    game.write_bytes(bytes(data))
    assert kept_answer(capsys, "tally", game)[0] is None
    monkeypatch.setenv("STOCKADE_CACHE_DIR", "off")
    truth = cli(capsys, "tally", game)
    monkeypatch.undo()
    assert launched(capsys, "tally", game) == truth


def test_a_changed_code_fingerprint_folds_again(game, capsys, monkeypatch):
    folded = cli(capsys, "tally", game)
    monkeypatch.setattr(derived, "code_fingerprint", lambda: "other code")
    assert kept_answer(capsys, "tally", game)[0] is None
    assert launched(capsys, "tally", game) == folded
    assert kept_answer(capsys, "tally", game) == folded  # kept again, with this code


@pytest.mark.parametrize("damage", ["truncate", "garbage", "flip", "empty"])
def test_a_damaged_kept_file_folds_again(game, capsys, stockade_dirs, damage):
    folded = cli(capsys, "tally", game)
    (kept_file,) = stockade_dirs.cache.glob("*.tally")
    data = kept_file.read_bytes()
    damaged = {
        "truncate": data[: len(data) // 2],
        "garbage": os.urandom(len(data)),
        "flip": data[:-1] + bytes([data[-1] ^ 1]),
        "empty": b"",
    }[damage]
    kept_file.write_bytes(damaged)
    assert kept_answer(capsys, "tally", game)[0] is None
    assert launched(capsys, "tally", game) == folded


def test_the_cache_off_keeps_nothing_and_folds(game, capsys, monkeypatch, stockade_dirs):
    monkeypatch.setenv("STOCKADE_CACHE_DIR", "off")
    folded = cli(capsys, "tally", game)
    assert kept_answer(capsys, "tally", game)[0] is None
    assert launched(capsys, "tally", game) == folded
    assert not stockade_dirs.cache.exists()


def test_an_unfinished_group_beside_the_log_is_never_answered_from_the_kept_tally(game, capsys):
    cli(capsys, "tally", game)
    marker = game.with_name(f".{game.name}.writing")
    marker.write_bytes(b"not a marker")
    assert kept_answer(capsys, "tally", game)[0] is None


def game_with_a_conflict(tmp_path, capsys) -> Path:
    """A game whose entry 5 no longer holds: the surrender it rests on is struck."""
    path = tmp_path / "game.jsonl"
    sides = ["--side", "American:American:4", "--side", "German:German"]
    assert cli(capsys, "new", path, "--scenario", "T", *sides)[0] == 0
    script = tmp_path / "setup.txt"
    script.write_text(
        "add American 9-2 at Q4\nadd German 4-6-7 2-4-7 hs at Q5 broken\n"
        'phase rtph\nsurrender g1 to a1 because "g2 can rout"\n'
    )
    assert cli(capsys, "run", path, script)[0] == 0
    assert cli(capsys, "strike", path, "5", "--reason", "not the RtPh")[0] == 4  # a conflict
    return path


def test_a_tally_with_conflicts_replays_its_warnings(tmp_path, capsys):
    path = game_with_a_conflict(tmp_path, capsys)
    folded = cli(capsys, "tally", path)
    assert folded[0] == 0 and "no longer hold" in folded[2]
    assert kept_answer(capsys, "tally", path) == folded


def folded_tally(capsys, monkeypatch, path) -> tuple[int, str, str]:
    """What ``stockade tally PATH`` prints when it folds (the cache off: nothing kept,
    nothing read from a snapshot)."""
    with monkeypatch.context() as m:
        m.setenv("STOCKADE_CACHE_DIR", "off")
        return cli(capsys, "tally", path)


def kept_files(stockade_dirs) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in stockade_dirs.cache.glob("*.tally")}


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.stem)
def test_a_do_keeps_the_tally_the_fold_prints(sample, tmp_path, capsys, monkeypatch):
    path = tmp_path / sample.name
    path.write_bytes(sample.read_bytes())
    kept_any = 0
    for command in ("undo", "redo", "undo", "next", "strike 2"):
        code = cli(capsys, "do", path, command)[0]
        answer = kept_answer(capsys, "tally", path)  # before any tally of these bytes
        folded = folded_tally(capsys, monkeypatch, path)
        assert folded[0] == 0
        # 4: done, but entries no longer hold (a strike may leave some)
        assert code == (4 if folded[2] else 0), command
        if folded[2]:  # conflicts (a strike may leave some): nothing kept
            assert answer[0] is None, command
        else:
            assert answer == folded, command
            kept_any += 1
        assert launched(capsys, "tally", path) == folded
    assert kept_any >= 4, kept_any  # undo, redo, undo and next leave no conflicts in any sample


def test_a_run_keeps_the_tally_the_fold_prints(game, tmp_path, capsys, monkeypatch):
    script = tmp_path / "turn.txt"
    script.write_text("next\nnext\n")
    assert cli(capsys, "run", game, script, "--quiet")[0] == 0
    answer = kept_answer(capsys, "tally", game)
    assert answer[0] == 0 and answer == folded_tally(capsys, monkeypatch, game)


def test_a_refused_do_or_run_keeps_nothing_new(game, tmp_path, capsys, stockade_dirs):
    assert cli(capsys, "do", game, "next")[0] == 0
    before = kept_files(stockade_dirs)
    assert len(before) == 1
    assert cli(capsys, "do", game, "surrender zz to yy")[0] != 0
    script = tmp_path / "bad.txt"
    script.write_text("next\nno such verb\n")
    assert cli(capsys, "run", game, script)[0] != 0
    assert kept_files(stockade_dirs) == before


def test_a_do_on_a_game_with_conflicts_keeps_nothing(tmp_path, capsys, stockade_dirs):
    path = game_with_a_conflict(tmp_path, capsys)
    for name in list(kept_files(stockade_dirs)):  # the run's, of the bytes before the strike
        (stockade_dirs.cache / name).unlink()
    assert cli(capsys, "do", path, "next")[0] == 4  # done; the conflict is still there
    assert kept_files(stockade_dirs) == {}
    assert kept_answer(capsys, "tally", path)[0] is None
    assert "no longer hold" in cli(capsys, "tally", path)[2]


def test_a_do_whose_open_warned_keeps_nothing(game, capsys, stockade_dirs):
    with game.open("ab") as log:
        log.write(b'{"kind":"next","seq":')  # a torn last line: the open sets it aside
    code, _, err = cli(capsys, "do", game, "next")
    assert code == 0 and "unfinished last entry" in err
    assert kept_files(stockade_dirs) == {}
    assert kept_answer(capsys, "tally", game)[0] is None


def test_a_do_with_the_cache_off_keeps_nothing(game, capsys, monkeypatch, stockade_dirs):
    monkeypatch.setenv("STOCKADE_CACHE_DIR", "off")
    assert cli(capsys, "do", game, "next")[0] == 0
    assert not stockade_dirs.cache.exists()


def test_the_fast_path_reads_tallys_arguments_as_the_command_line_does(tmp_path):
    """One definition of ``tally``'s arguments (core/cli/tally_args.py): what the fast
    path reads is what argparse reads, abbreviations included; anything else folds."""
    from stockade.core.cli import tally_args

    log = str(tmp_path / "g.jsonl")
    args = tally_args.parse([log, "--form", "md", "--at=4"])
    assert args is not None and (str(args.file), args.format, args.at) == (log, "md", 4)
    assert tally_args.parse([log]).format == tally_args.DEFAULT_FORMAT
    for argv in ([], [log, log], [log, "--at", "x"], [log, "--format", "pdf"], [log, "-h"]):
        assert tally_args.parse(argv) is None, argv


def _tree(root: Path, files: dict[str, bytes]) -> str:
    for name, body in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(body)
    return str(root)


def test_the_fingerprint_covers_the_data_files(tmp_path):
    base = {"rules/capture.py": b"B = 2\n", "data/cvp.toml": b"squad = 2\n"}
    first = derived.fingerprint(_tree(tmp_path / "1", base), None)
    assert first is not None
    assert derived.fingerprint(_tree(tmp_path / "2", base), None) == first
    changed = {**base, "data/cvp.toml": b"squad = 3\n"}
    assert derived.fingerprint(_tree(tmp_path / "3", changed), None) != first
    # and so the snapshots' fingerprint, which is this one
    real = derived.fingerprint(derived.core_root(), None)
    assert real is not None and derived.code_fingerprint() == real


def test_the_fingerprint_memo_reads_only_changed_files(tmp_path, monkeypatch):
    root = Path(_tree(tmp_path / "core", {"a.py": b"A = 1\n", "data/b.toml": b"b = 1\n"}))
    old = 1_000_000_000  # long ago: not "racily clean"
    for path in root.rglob("*.*"):
        os.utime(path, (old, old))
    memo = str(tmp_path / "memo")
    opened: list[str] = []

    def counting_open(path, *args, **kwargs):
        opened.append(os.path.basename(path))
        return open(path, *args, **kwargs)

    monkeypatch.setattr(derived, "open", counting_open, raising=False)
    first = derived.fingerprint(str(root), memo)
    assert sorted(n for n in opened if ".memo" not in n) == ["a.py", "b.toml"]
    # just written (their ctime is now): a write within the same clock tick would not
    # change their stat, so they are hashed again rather than trusted
    opened.clear()
    assert derived.fingerprint(str(root), memo) == first
    assert sorted(n for n in opened if ".memo" not in n) == ["a.py", "b.toml"]
    later = time.time_ns() + 10 * derived.RACY_NS
    monkeypatch.setattr(derived, "time", SimpleNamespace(time_ns=lambda: later, time=time.time))
    assert derived.fingerprint(str(root), memo) == first  # memoised now
    opened.clear()
    assert derived.fingerprint(str(root), memo) == first
    assert [n for n in opened if ".memo" not in n] == []  # only stats
    (root / "a.py").write_bytes(b"A = 2\n")  # same size; its stat changes
    os.utime(root / "a.py", (old, old + 1))
    opened.clear()
    second = derived.fingerprint(str(root), memo)
    assert second != first and [n for n in opened if ".memo" not in n] == ["a.py"]
    assert second == derived.fingerprint(str(root), None)  # the memo changes nothing


def test_a_file_that_cannot_be_read_gives_no_fingerprint(tmp_path):
    root = Path(_tree(tmp_path / "core", {"a.py": b"A = 1\n"}))
    (root / "rules" / "escape.py").mkdir(parents=True)  # a folder, not a source
    assert derived.fingerprint(str(root), None) is None
