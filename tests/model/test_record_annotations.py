"""The records' classes write their annotations as objects, not text: msgspec reads
every field's annotation when it builds a decoder (and ``record_bounds`` when it finds
the handles), and one written as text (``from __future__ import annotations``) costs it
a compile and an eval, some 750 of them at every start of a fold. This counts the
annotations written as text, never a time (bench/cli_startup.py measures that)."""

from __future__ import annotations

import typing

import msgspec

from stockade.core.model import events


def _structs(tp: object, seen: set[type]) -> None:
    for arg in typing.get_args(tp):
        _structs(arg, seen)
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct) and tp not in seen:
        seen.add(tp)
        for field in msgspec.structs.fields(tp):
            _structs(field.type, seen)


def test_no_record_annotation_is_written_as_text():
    seen: set[type] = set()
    _structs(events.AnyRecord, seen)
    assert len(seen) > 30  # every record, and the structs they hold
    as_text = [
        f"{cls.__module__}.{cls.__qualname__}.{name}"
        for cls in seen
        for base in cls.__mro__
        for name, written in vars(base).get("__annotations__", {}).items()
        if isinstance(written, str)
    ]
    assert as_text == []


def test_the_handle_finder_reads_each_field_as_msgspec_evaluates_it():
    """``record_bounds.field_types`` reads the annotations as written (no evaluation);
    for every record and every struct it holds, that is what msgspec evaluates."""
    from stockade.core.model import record_bounds

    seen: set[type] = set()
    _structs(events.AnyRecord, seen)
    for cls in seen:
        evaluated = [(f.name, f.type) for f in msgspec.structs.fields(cls)]
        assert record_bounds.field_types(cls) == evaluated, cls


def test_a_field_written_as_text_is_evaluated_by_msgspec():
    from stockade.core.model import record_bounds

    namespace: dict[str, object] = {}
    exec(
        "import msgspec\nclass Later(msgspec.Struct):\n    n: 'int'\n    names: list['str']\n",
        namespace,
    )
    later = namespace["Later"]
    assert record_bounds.field_types(later) == [("n", int), ("names", list[str])]
