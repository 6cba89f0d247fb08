"""A form's fields are the grammar's slots: the same ``Kind``, and optional exactly when
the slot is (never because a label says "optional"). No app runs here."""

from __future__ import annotations

from stockade.core.commands import VERBS, Kind
from stockade.tui.forms import all_specs
from stockade.tui.forms.base import Field, FormValues
from stockade.tui.forms.choices import slot_fields


def test_every_field_of_every_form_has_a_grammar_kind():
    fields = [(spec.name, f) for spec in all_specs() for f in spec.fields]
    assert len(fields) > 30
    assert [(name, f.name) for name, f in fields if not isinstance(f.kind, Kind)] == []


def test_a_verbs_fields_take_kind_and_optional_from_its_slots():
    for verb, spec in VERBS.items():
        for field in slot_fields(verb):
            slot = spec.slot(field.name)
            assert field.kind is slot.kind, (verb, field.name)
            assert field.optional is (not slot.required), (verb, field.name)


def test_a_label_saying_optional_makes_nothing_optional():
    assert not Field("at", "Location (optional)", Kind.LOCATION).optional
    assert Field("at", "Location", Kind.LOCATION, required=False).optional


def test_form_values_read_as_their_kinds():
    values = FormValues(unit="a1", units=["g1", "g2"], hth=True, odds="", by=["a2"])
    assert values.units("unit") == ["a1"] and values.units("units") == ["g1", "g2"]
    assert values.units("odds") == [] and values.text("by") == "" and values.text("unit") == "a1"
    assert values.ticked("hth") and not values.ticked("unit") and values.text("missing") == ""
