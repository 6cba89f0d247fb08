"""Fuzz: malformed logs fed to core.log.game_log.load and Game.open(read_only=True).

Never a traceback other than JournalError, never a change to the input file (bytes and
mtime), always a message naming the line or the problem (issue 4)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.generate import Driver, new_game
from stockade.core.book.game import Game
from stockade.core.log.game_log import load
from stockade.core.log.journal_errors import JournalError
from stockade.core.log.log_lines import MAX_LINE_BYTES
from stockade.core.model import events as ev


def _base_log() -> bytes:
    game = new_game()
    driver = Driver(game, seed=5)
    while len(game.records) < 60:
        driver.step()
    return b"".join(ev.encode(r) + b"\n" for r in game.records)


BASE = _base_log()
BASE_LINES = BASE.split(b"\n")[:-1]
FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _json_values():
    return st.recursive(
        st.none()
        | st.booleans()
        | st.integers(-(2**70), 2**70)
        | st.floats(allow_nan=False)
        | st.text(max_size=20),
        lambda inner: (
            st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
        ),
        max_leaves=12,
    )


def _mutate_line(draw, line: bytes) -> bytes:
    record = json.loads(line)
    how = draw(
        st.sampled_from(
            ["wrong_type", "unknown_kind", "drop_field", "seq", "v", "extra_field", "not_object"]
        )
    )
    key = draw(st.sampled_from(sorted(record)))
    if how == "wrong_type":
        record[key] = draw(_json_values())
    elif how == "unknown_kind":
        record["kind"] = draw(st.text(max_size=12))
    elif how == "drop_field":
        record.pop(key)
    elif how == "seq":
        record["seq"] = draw(st.integers(-5, 10**20))
    elif how == "v":
        record["v"] = draw(st.integers(-3, 5) | st.text(max_size=3))
    elif how == "extra_field":
        record[draw(st.text(max_size=8))] = draw(_json_values())
    else:
        return json.dumps(draw(_json_values())).encode()
    return json.dumps(record).encode()


@st.composite
def malformed_logs(draw) -> bytes:
    lines = list(BASE_LINES)
    blob = BASE
    how = draw(
        st.sampled_from(
            [
                "truncate",
                "flip",
                "line",
                "huge",
                "reseq",
                "junk",
                "delete",
                "duplicate",
                "swap",
                "empty",
                "only_junk",
            ]
        )
    )
    if how == "truncate":
        return blob[: draw(st.integers(0, len(blob) - 1))]
    if how == "flip":
        data = bytearray(blob)
        for _ in range(draw(st.integers(1, 4))):
            i = draw(st.integers(0, len(data) - 1))
            data[i] ^= draw(st.integers(1, 255))
        return bytes(data)
    i = draw(st.integers(0, len(lines) - 1))
    if how == "line":
        lines[i] = _mutate_line(draw, lines[i])
    elif how == "huge":
        pad = b" " * (MAX_LINE_BYTES + draw(st.integers(0, 5000)))
        lines[i] = lines[i][:-1] + pad + b"}" if draw(st.booleans()) else b"[" * len(pad)
    elif how == "reseq":
        record = json.loads(lines[i])
        record["seq"] = draw(st.integers(0, 200).filter(lambda s: s != i + 1))
        lines[i] = json.dumps(record).encode()
    elif how == "junk":
        lines.insert(i, draw(st.binary(min_size=1, max_size=300)))
    elif how == "delete":
        del lines[i]
    elif how == "duplicate":
        lines.insert(i, lines[i])
    elif how == "swap":
        j = draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    elif how == "empty":
        return b""
    else:
        return draw(st.binary(max_size=2000))
    out = b"\n".join(lines) + b"\n"
    return out if draw(st.booleans()) else out[: draw(st.integers(0, len(out)))]


def _check_named(message: str) -> None:
    assert message and ("line" in message or "game.jsonl" in message or "Stockade" in message), (
        message
    )


def _feed(path: Path) -> None:
    """Open ``path`` every read-only way; only JournalError may escape."""
    before = (path.read_bytes(), os.stat(path).st_mtime_ns) if path.is_file() else None
    try:
        loaded = load(path)
        if loaded.problem:
            _check_named(str(loaded.problem))
            assert str(loaded.problem).startswith(f"line {loaded.problem.line}:")
        for warning in loaded.warnings:
            _check_named(warning)
    except JournalError as exc:
        _check_named(str(exc))
    try:
        game = Game.open(path, read_only=True)
        assert game.read_only
        for warning in game.warnings:
            _check_named(warning)
        game.history()  # the history view must render every entry it kept
    except JournalError as exc:
        _check_named(str(exc))
    if before is not None:
        assert (path.read_bytes(), os.stat(path).st_mtime_ns) == before, "input changed"


@FUZZ
@given(malformed_logs())
def test_malformed_logs_never_crash_and_are_never_changed(blob):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.jsonl"
        path.write_bytes(blob)
        _feed(path)
        assert sorted(os.listdir(tmp)) == ["game.jsonl"]  # no side file written


def test_not_a_file(tmp_path):
    (tmp_path / "game.jsonl").mkdir()
    _feed(tmp_path / "game.jsonl")
    _feed(tmp_path / "missing" / "game.jsonl")
    for read_only in (True, False):
        try:
            Game.open(tmp_path / "game.jsonl", read_only=read_only)
            raise AssertionError("opened a directory")
        except JournalError as exc:
            assert "directory" in str(exc)


def test_bad_middle_line_opens_read_only_naming_it_and_is_never_truncated(tmp_path):
    lines = list(BASE_LINES)
    lines[10] = b'{"kind":"unit","seq":11,"v":1,"grp":11,"handle":42}'
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    before = path.read_bytes()
    game = Game.open(path)  # asked for writing: still read-only, still untouched
    assert game.read_only and game.problem.line == 11
    assert any("line 11" in w and "read-only" in w for w in game.warnings)
    assert len(game.records) == 10
    game.close()
    assert path.read_bytes() == before
