"""``from_fields``: a verb's ``Command`` from a form's fields, never from command text.

A form holds one value per slot of the verb's declaration (``core.commands.grammar``):
a handle or handles from a picker, a word from a list, a tick, or what the player typed
in a text field (a counter, a Location, merges like ``g1+g2``). Each value is read by
its slot's kind, as the parser reads the same words on a line, so a form and the
command bar refuse alike.

``filled`` is the bar's ``fill_left_out`` for a form: a required slot declared
``fill_when_single`` that the form leaves empty takes the one value the game allows,
so the form can show it in its field (and the player may still change it).
"""

from __future__ import annotations

from typing import Any

import msgspec

from stockade.core.commands.command import Command, fill_left_out
from stockade.core.commands.handles import Context
from stockade.core.commands.parser import COMMANDS
from stockade.core.commands.picks import Values
from stockade.core.model.errors import InputRefusal, Refusal
from stockade.core.model.state import GameState


def from_fields(verb: str, values: Values, state: GameState) -> Command:
    """The ``verb`` command the form's ``values`` (slot name -> field value) say.

    An empty field leaves its slot to its default; a required one still empty is
    refused ("input", naming the fields), as is a value its slot cannot read.
    """
    cls = COMMANDS[verb]
    ctx = Context(state)
    fields: dict[str, Any] = {}
    missing = []
    for slot in cls.spec().slots:
        raw = values.get(slot.name)
        if _empty(raw):
            if slot.required:
                missing.append(slot.label)
            continue
        fields[slot.name] = cls.read_field(ctx, slot, raw)
    if missing:
        raise InputRefusal("still to fill: " + ", ".join(missing))
    command = cls(**fields)
    command.check(ctx)
    return command


class Filled(msgspec.Struct, frozen=True):
    """What ``filled`` filled in: field values by slot name, and the note saying so."""

    values: dict[str, str | list[str]]
    note: str  # as the bar's reply says it: "filled in: how cc, armed enemy b1 (...)"


def filled(verb: str, values: Values, state: GameState) -> Filled | None:
    """The ``fill_when_single`` slots the form's ``values`` leave empty, filled when the
    game allows exactly one combination of them given the other fields (the rule the
    bar applies to a line that leaves them out: ``command.fill_left_out``).

    None while the game allows none or several (the form keeps asking), while another
    required field is empty or cannot be read, or when nothing is left to fill.
    """
    cls = COMMANDS[verb]
    ctx = Context(state)
    given: dict[str, Any] = {}
    left_out = []
    for slot in cls.spec().slots:
        raw = values.get(slot.name)
        if _empty(raw):
            if slot.required and slot.fill_when_single:
                left_out.append(slot)
            elif slot.required:
                return None  # the bar too fills only once the words before are given
            continue
        try:
            given[slot.name] = cls.read_field(ctx, slot, raw)
        except Refusal:
            return None
    if not left_out:
        return None
    try:
        way = fill_left_out(ctx, cls, left_out, given)
    except InputRefusal:  # none fits, or several: the player chooses
        return None
    return Filled({name: _field_value(v) for name, v in way.items()}, ctx.notes[-1])


def _empty(raw: object) -> bool:
    return raw is None or raw == "" or raw == [] or raw == ()


def _field_value(value: object) -> str | list[str]:
    """A slot's value as a form's field holds it: a word, or handles."""
    return [str(v) for v in value] if isinstance(value, (list, tuple)) else str(value)
