"""The fast and the careful log reader give the same verdict on every log (issue 24).

``core.log.reader`` reads a log in one msgspec call when it can (the fast path) and
line by line otherwise (the careful path, which names a bad line). The fast path must
accept only what the careful path accepts, record for record: one line holds exactly
one record. The shapes below are made to pass the fast path's whole-buffer tests (a
header split across two lines balances a line holding two records, so the record
count still equals the line count).
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stockade.core.log import reader
from stockade.core.log.game_log import GAME, LoadedLog

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
DEMO = (SAMPLES / "demo.jsonl").read_bytes()


def _verdicts(blob: bytes) -> tuple[LoadedLog | None, LoadedLog]:
    fast = reader._fast_load(GAME, blob)
    careful = reader._careful_load(GAME, blob)
    return fast, careful


def _assert_agree(blob: bytes) -> None:
    fast, careful = _verdicts(blob)
    if fast is None:
        return  # the careful path decides: nothing to agree on
    assert careful.problem is None and careful.torn_tail is None, (
        f"fast path accepted a log the careful path refuses: {careful.problem}"
    )
    assert fast.records == careful.records


def _split_header_and_join_line_3(blob: bytes) -> bytes:
    lines = blob.split(b"\n")
    head = lines[0].replace(b'"cvp":{', b'"cvp":\n{', 1)
    assert head != lines[0]
    lines[0] = head
    lines[2] = lines[2] + lines[3]
    del lines[3]
    return b"\n".join(lines)


def test_split_header_and_two_records_on_one_line_are_refused_by_both() -> None:
    blob = _split_header_and_join_line_3(DEMO)
    fast, careful = _verdicts(blob)
    assert careful.problem is not None and careful.problem.line == 1
    assert fast is None


def test_two_records_on_one_line_beside_a_split_record_later() -> None:
    lines = DEMO.split(b"\n")
    lines[5] = lines[5].replace(b'"traits":[', b'"traits":\n[', 1)
    lines[5] = lines[5].replace(b'"location":', b'"location":\n', 1)
    blob = b"\n".join(lines)
    _assert_agree(blob)


def test_every_sample_game_is_read_the_same_by_both() -> None:
    for path in sorted(SAMPLES.glob("*.jsonl")):
        blob = path.read_bytes()
        fast, careful = _verdicts(blob)
        assert fast is not None, path.name  # the common case stays fast
        assert careful.problem is None and fast.records == careful.records


# Edits that keep a log looking like JSON lines: they move newlines, spaces and
# braces, the bytes the fast path's whole-buffer tests look at.
_EDITS = st.sampled_from(
    [
        (b"\n", b""),  # two records on one line
        (b",", b",\n"),  # a record split after a comma
        (b":{", b":\n{"),  # split before a nested object
        (b":[", b":\n["),
        (b"}", b"} "),  # a space after a record
        (b"\n", b"\r\n"),
        (b"\n", b"\n\n"),  # an empty line
        (b"\n", b"\n \n"),
        (b"\n{", b"\n {"),
        (b"}\n", b"}\n{}\n"),  # an empty object as a record
        (b"{", b"{\n"),
        (b'"', b'\n"'),
    ]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits=st.lists(st.tuples(_EDITS, st.integers(0, 10_000)), min_size=1, max_size=4))
def test_hostile_edits_never_make_the_readers_disagree(edits: list) -> None:
    blob = DEMO
    for (old, new), where in edits:
        count = blob.count(old)
        if not count:
            continue
        nth = where % count
        at = -1
        for _ in range(nth + 1):
            at = blob.find(old, at + 1)
        blob = blob[:at] + new + blob[at + len(old) :]
    _assert_agree(blob)


def test_a_log_of_many_empty_lines_is_read_in_bounded_memory(tmp_path):
    """The careful reader walks the lines one at a time and stops at the first bad one
    (it held a line object for each: 2 MB of empty lines took 305 MB). Counted as the
    peak of Python allocations while loading, never as time."""
    import tracemalloc

    from stockade.core.log.game_log import load

    path = tmp_path / "empty.jsonl"
    path.write_bytes(DEMO.split(b"\n")[0] + b"\n" + b"\n" * 200_000 + b"{}\n" * 100_000)
    tracemalloc.start()
    try:
        loaded = load(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert loaded.problem is not None and loaded.problem.line == 2
    size = path.stat().st_size
    assert peak < 3 * size + 1_000_000, (peak, size)  # the bytes, not an object a line
