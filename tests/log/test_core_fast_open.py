"""The fast paths of opening a game (docs/performance.md, issue 10 round 4) give exactly
what the slow ones give.

* The game's records decode without the per-string patterns of core/model/bounds.py; a scan
  of the raw bytes and a bulk handle check stand for them (core/model/record_bounds.py). Whatever
  a line holds, the log reads as the strict decoder alone would read it: the same
  records, or the same refusal at the same line, in the same words.
* ``Unit`` is built by a hand-written ``__init__`` (core/model/tracked_unit.py): the dataclass's
  fields, defaults and errors.
* The whole-buffer line checks of the fast reader (core/log/reader.py) agree with a split.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import get_args

import msgspec
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from stockade.core.book.projection import Projection
from stockade.core.log import game_log as logfile
from stockade.core.log import reader as logread
from stockade.core.log.log_lines import MAX_LINE_BYTES
from stockade.core.model import events as ev
from stockade.core.model import laid_out_unit, tracked_unit
from stockade.core.model.record_bounds import suspicious_lines
from stockade.core.model.tracked_unit import Origin, Unit

DEMO = Path(__file__).resolve().parents[2] / "sample_games" / "demo.jsonl"

# The log format as it was: the strict records decode every line, nothing in bulk.
STRICT_HEADER = next(c for c in get_args(ev.STRICT.union) if c.__struct_config__.tag == "game")
STRICT_ONLY = msgspec.structs.replace(
    logfile.GAME,
    union=ev.STRICT.union,
    decoder=ev.STRICT.decoder,
    header=STRICT_HEADER,
    strict=None,
)

# Every character a bound refuses, and some that look alike but are allowed.
_REFUSED = [chr(c) for c in range(0x20)] + [chr(c) for c in range(0x7F, 0xA0)]
_REFUSED += ["\u2028", "\u2029"]  # line and paragraph separators
_REFUSED += [chr(c) for c in range(0x202A, 0x202F)] + [chr(c) for c in range(0x2066, 0x206A)]
_ALLOWED_NEAR = ["\u00a0", "\u00e9", "\u2027", "\u202f", "\u2065", "\u206a", "\u2013", "'"]
_CHARS = st.sampled_from(_REFUSED + _ALLOWED_NEAR + list('ab1_.- "\\/[]:'))
TEXT = st.text(_CHARS, max_size=6) | st.text(max_size=6)


def _same(a: object, b: object) -> bool:
    """Same kind and fields, nested ones too (the strict records are twins of another
    class)."""
    return bool(msgspec.to_builtins(a) == msgspec.to_builtins(b))


def _line(record: dict, ascii_only: bool) -> bytes:
    """A record as a log line: control characters escaped (``\\u001b``) or, with
    ``ascii_only`` off, every other character as its raw UTF-8 bytes."""
    return json.dumps(record, ensure_ascii=ascii_only, separators=(",", ":")).encode()


def _records(name: str, handle: str) -> list[dict]:
    """Records holding ``name`` in Name and Text fields and ``handle`` in Handle ones."""
    return [
        {"kind": "status", "handle": "a1", "location": name},
        {
            "kind": "unit",
            "handle": handle,
            "side": "German",
            "unit_kind": "squad",
            "counter": name,
            "traits": [name],
        },
        {"kind": "abandon", "units": ["a1", handle]},
        {"kind": "strike", "target": 3, "reason": name},
        {
            "kind": "deploy",
            "handle": "a1",
            "into": [handle, "x2"],
            "counters": [name, "3-4-7"],
            "assign": {handle: name},
        },
        {
            "kind": "surrender",
            "units": ["g1"],
            "guard": "a1",
            "merges": [{"parts": [handle, "h2"], "into": "s9"}],
        },
        {  # an amendment: the handles and text of the event it holds are checked too
            "kind": "amend",
            "target": 3,
            "reason": name,
            "event": {
                "kind": "transfer",
                "units": [handle],
                "to_guard": "a1",
                "seq": 3,
                "v": 1,
                "grp": 3,
                "at": name,
            },
        },
    ]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=TEXT, handle=TEXT, ascii_only=st.booleans(), which=st.integers(0, 6))
@example(name="M6\x1b[2J", handle="a9", ascii_only=False, which=0)
@example(name="M6\u202e", handle="a9", ascii_only=False, which=0)
@example(name="4-6-7\x9b", handle="a9", ascii_only=False, which=1)
@example(name="ok", handle="z 1", ascii_only=True, which=1)
@example(name="ok", handle="z\u2066", ascii_only=False, which=4)
@example(name="ok\n", handle="z1\n", ascii_only=True, which=1)  # a last \n: refused
@example(name="ok", handle="z 1", ascii_only=True, which=6)  # in an amendment's event
@example(name="M6\u202e", handle="a9", ascii_only=False, which=6)
def test_a_line_reads_as_the_strict_decoder_reads_it(name, handle, ascii_only, which):
    body = _records(name, handle)[which]
    line = _line({**body, "seq": 6, "v": 1, "grp": 6, "at": ""}, ascii_only)
    try:
        want: object = logread.parse_line(STRICT_ONLY, line)
    except ValueError as exc:
        want = str(exc)
    try:
        got: object = logfile.parse_line(6, line)
    except ValueError as exc:
        got = str(exc)
    if isinstance(want, str) or isinstance(got, str):
        assert got == want
    else:
        assert _same(got, want)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(name=TEXT, handle=TEXT, ascii_only=st.booleans(), which=st.integers(0, 6))
@example(name="O4\x1b[2J", handle="a9", ascii_only=False, which=0)
@example(name="ok", handle="[link]x", ascii_only=True, which=2)
@example(name="ok", handle="z 1", ascii_only=True, which=6)
def test_a_log_reads_as_the_strict_decoder_reads_it(tmp_path, name, handle, ascii_only, which):
    """The whole-file path: one suspicious line among good ones is refused at its line
    with the strict decoder's words; an innocent one is read like the rest."""
    lines = DEMO.read_bytes().splitlines()
    body = _records(name, handle)[which]
    middle = _line({**body, "seq": 6, "v": 1, "grp": 6, "at": ""}, ascii_only)
    after = [
        json.dumps({**json.loads(raw), "seq": n, "grp": n}, ensure_ascii=False).encode()
        for n, raw in enumerate(lines[5:9], 7)
    ]
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"\n".join([*lines[:5], middle, *after]) + b"\n")
    got, want = logfile.load(path), logread.load(path, STRICT_ONLY)
    assert (got.problem and str(got.problem)) == (want.problem and str(want.problem))
    assert got.warnings == want.warnings and got.good_bytes == want.good_bytes
    assert len(got.records) == len(want.records)
    assert all(_same(a, b) for a, b in zip(got.records, want.records, strict=True))


@pytest.mark.parametrize("char", _REFUSED)
@pytest.mark.parametrize("ascii_only", [True, False])
def test_every_refused_character_makes_its_line_suspicious(char, ascii_only):
    line = _line({"kind": "status", "handle": "a1", "location": f"M{char}6"}, ascii_only)
    blob = b"{}\n" + line + b"\n{}\n"
    assert suspicious_lines(blob) == [line]
    assert suspicious_lines(b"{}\n" + _line({"location": "M\u00e96 \u2013 ok"}, False)) == []


@given(st.lists(st.integers(0, MAX_LINE_BYTES + 3), min_size=1, max_size=6))
@example([MAX_LINE_BYTES])
@example([MAX_LINE_BYTES + 1])
@example([3, MAX_LINE_BYTES, 2, MAX_LINE_BYTES + 1])
@settings(max_examples=40, deadline=None)
def test_the_whole_buffer_line_bound_agrees_with_a_split(lengths):
    blob = b"".join(b"x" * n + b"\n" for n in lengths)
    assert logread.lines_fit(blob) == (max(lengths) <= MAX_LINE_BYTES)


# ------------------------------------------------------------------ Unit's __init__
def test_unit_init_takes_the_dataclass_fields_and_defaults():
    fields = dataclasses.fields(Unit)
    required = [f.name for f in fields if f.default is dataclasses.MISSING]
    origins = [Origin("a1", "squad", "4-6-7", 2)]
    given_ = dict(zip(required, ["a1", "German", "squad", "4-6-7", 3, 2, origins], strict=True))
    u = Unit(**given_)
    assert list(u.__dict__) == [f.name for f in fields]  # read in order, as a dataclass's
    for f in fields:
        want = given_.get(f.name, f.default)
        assert getattr(u, f.name) == want, f.name
    assert Unit(*given_.values(), frozenset(), "prisoner") == Unit(**given_, status="prisoner")
    # no dict of its own: the fields are slots (a 39-key ``__dict__`` is past what
    # CPython shares between instances: ~1.6 KB a unit), but for the rarely set ones,
    # which share one; three slots besides: the tracker, the name the fold keeps on the
    # unit, and the rarely set fields
    assert Unit.__dictoffset__ == 0
    common = len(fields) - len(tracked_unit.RARELY_SET)
    assert sys.getsizeof(u) <= 16 + 8 * (common + 3) + 16
    assert u._more is None and u._origins is None  # a plain unit: nothing more held


def test_every_field_is_filled_and_read_back_in_order():
    """``_fill`` stores the fields written out, in order: a field added to the class
    and not there, or two swapped, reads back wrong here."""
    values = [f"value {i}" for i in range(len(dataclasses.fields(Unit)))]
    values[tracked_unit._AT["origins"]] = [Origin("o", "squad", "c", 1)]
    u = tracked_unit.make_unit(values)
    assert list(tracked_unit.unit_values(u)) == values
    assert tracked_unit.unit_values(tracked_unit.clone_unit(u)) == tracked_unit.unit_values(u)
    with pytest.raises(ValueError):
        tracked_unit.make_unit([*values, "one more"])
    with pytest.raises(ValueError):
        tracked_unit.make_unit(values[:-1])


def test_a_unit_laid_out_is_read_back_in_order():
    """``unit_of_layout`` stores the slots written out, in order (a field added to the
    class and not there, or two swapped, reads back wrong here), then the origins and
    the rare fields' mapping as the unit kept them."""
    values = [f"value {i}" for i in range(len(dataclasses.fields(Unit)))]
    values[tracked_unit._AT["origins"]] = [Origin("o", "squad", "c", 1)]
    u = tracked_unit.make_unit(values)
    laid = laid_out_unit.layout_values(u)
    back = laid_out_unit.unit_of_layout(laid)
    assert list(tracked_unit.unit_values(back)) == values
    assert (back._origins, back._more) == (u._origins, u._more) and back._more
    assert back._tracker is None and type(back) is Unit
    plain = Unit("h", "A", "squad", "c", 1, 2, [Origin("h", "squad", "c", 2)])
    again = laid_out_unit.unit_of_layout(laid_out_unit.layout_values(plain))
    assert again == plain and again._more is None and again._origins is None
    with pytest.raises(ValueError):
        laid_out_unit.unit_of_layout([*laid, "one more"])
    with pytest.raises(ValueError, match="rare fields"):
        laid_out_unit.unit_of_layout([*laid[:-1], {"handle": "x"}])  # not a rare field
    with pytest.raises(ValueError, match="rare fields"):
        laid_out_unit.unit_of_layout([*laid[:-1], {}])  # empty: None stands for it


@pytest.mark.parametrize(
    "args, kwargs, words",
    [
        ((), {}, "missing required"),
        (("a1",), {"side": "G", "unit_kind": "squad", "counter": "c", "cvp": 1}, "missing"),
        (("a1",), {"handle": "a2"}, "twice"),
        (tuple(range(len(dataclasses.fields(Unit)) + 1)), {}, "positional"),
        ((), {"bogus": 1}, "unexpected"),
    ],
)
def test_unit_init_refuses_what_the_dataclass_refused(args, kwargs, words):
    with pytest.raises(TypeError, match=words):
        Unit(*args, **kwargs)


def test_a_conflict_is_kept_without_the_frames_that_raised_it():
    """A kept Refusal's traceback held every frame of the open alive (and with them the
    log's bytes) for as long as the game stayed open."""
    header = ev.GameCreated(
        seq=1, grp=1, scenario="T", sides=[ev.SideSpec("A", "American"), ev.SideSpec("G", "German")]
    )
    ghost = ev.StatusChanged(seq=2, grp=2, handle="nobody", broken=True)
    fold = Projection([header, ghost])
    assert list(fold.conflicts) == [2]
    assert fold.conflicts[2].__traceback__ is None


@pytest.mark.parametrize("slice_size", [1, 2, 5, 4096])
@pytest.mark.parametrize("bad", ["handle", "header"])
def test_every_slice_of_the_fast_checks_is_checked(tmp_path, monkeypatch, slice_size, bad):
    """The fast reader checks records by slices (``logread._SLICE``): a bad handle or a
    second header in any slice is refused as the strict decoder refuses it."""
    monkeypatch.setattr(logread, "_SLICE", slice_size)
    lines = DEMO.read_bytes().splitlines()
    if bad == "handle":
        body = _records("ok", "z 1")[1]
    else:
        body = {k: v for k, v in json.loads(lines[0]).items() if k not in ("seq", "grp")}
    middle = _line({**body, "seq": 9, "v": 1, "grp": 9, "at": ""}, True)
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"\n".join([*lines[:8], middle]) + b"\n")
    got, want = logfile.load(path), logread.load(path, STRICT_ONLY)
    assert want.problem is not None and want.problem.line == 9
    assert str(got.problem) == str(want.problem)
    assert len(got.records) == len(want.records) == 8


@pytest.mark.parametrize("blank", [b"", b"   ", b"\t", b" \r"])
def test_a_line_without_a_record_is_refused_even_when_another_holds_two(tmp_path, blank):
    """A spaces-only line decodes to no record and a line holding two records to two:
    together they kept the fast path's count of records per line right, and such a log
    opened with nine records where the careful path refuses it at the blank line."""
    lines = DEMO.read_bytes().splitlines()[:9]
    lines[6] = lines[6] + b" " + lines[7]  # lines 7 and 8 on one line
    lines[7] = blank
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    loaded = logfile.load(path)
    assert loaded.problem is not None and loaded.problem.line == 7, loaded.problem
    assert len(loaded.records) == 6  # everything before it kept
