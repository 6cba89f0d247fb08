"""``from_fields``: a verb's ``Command`` from a form's fields, never from command text.

A form holds one value per slot of the verb's declaration (``core.commands.grammar``):
a handle or handles from a picker, a word from a list, a tick, or what the player typed
in a text field (a counter, a Location, merges like ``g1+g2``). Each value is read by
its slot's kind, as the parser reads the same words on a line, so a form and the
command bar refuse alike.
"""

from __future__ import annotations

from typing import Any

from stockade.core.commands.command import Command
from stockade.core.commands.handles import Context
from stockade.core.commands.parser import COMMANDS
from stockade.core.commands.picks import Values
from stockade.core.model.errors import InputRefusal
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
        if raw is None or raw == "" or raw == [] or raw == ():
            if slot.required:
                missing.append(slot.label)
            continue
        fields[slot.name] = cls.read_field(ctx, slot, raw)
    if missing:
        raise InputRefusal("still to fill: " + ", ".join(missing))
    command = cls(**fields)
    command.check(ctx)
    return command
