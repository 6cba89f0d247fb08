"""The handle finders a log read makes (``record_bounds.Strict.handles_of``, one per
record type read) look into each field type once: the records share their field types
(the same ``Seq``, ``Name``, ``Handle`` objects), and walking each again for every
record type was ~2.5 M instructions of every folding tally. Counted here by the
``typing`` calls made, never a time; and the finders made so find the same handles as
a finder made alone."""

from __future__ import annotations

import typing
from pathlib import Path

from stockade.core.model import events
from stockade.core.model import record_bounds as b

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"


def test_the_finders_of_every_record_type_look_into_each_field_type_once(monkeypatch):
    calls = 0
    get_origin = typing.get_origin

    def counted(tp: object) -> object:
        nonlocal calls
        calls += 1
        return get_origin(tp)

    monkeypatch.setattr(typing, "get_origin", counted)
    strict = b.Strict(events.AnyRecord)
    members = typing.get_args(events.AnyRecord)
    assert len(members) > 30
    for cls in members:
        strict.handles_of(cls)
    # each distinct field type looked into once, for ``_evaluated`` and for
    # ``_handles_in``: 226 calls; a walk per record type and field made 2,153
    assert 0 < calls <= 300, calls


def test_the_finders_made_together_find_what_each_finds_alone():
    strict = b.Strict(events.AnyRecord)
    records = [
        events.decode(line)
        for path in sorted(SAMPLES.glob("*.jsonl"))
        for line in path.read_bytes().splitlines()
        if line.strip()
    ]
    kinds = {type(r) for r in records}
    assert len(records) > 100 and len(kinds) > 15
    for record in records:
        together = strict.handles_of(type(record))
        alone = b._struct_handles(type(record))
        assert (together is None) == (alone is None), type(record)
        if together is not None and alone is not None:
            assert list(together([record])) == list(alone([record])), record
    # a handle-holding record of each shape: its handles are found
    found = [h for r in records if (f := strict.handles_of(type(r))) for h in f([r])]
    assert found and all(isinstance(h, str) for h in found)
