"""A form's fields from a verb's declaration, and what they offer to pick from.

Each field is a slot of the verb (``core.commands.grammar``): its name, label, kind and
the core query that fills its picker come from there; a form only chooses which slots
it shows, in which order, and how a list's words read at the table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from stockade.core.commands import VERBS, Kind
from stockade.core.commands.command import Command
from stockade.core.commands.fill import Filled, filled, from_fields
from stockade.core.model.events import PHASES
from stockade.core.model.state import GameState
from stockade.tui.forms.base import PICK_MANY, PICK_ONE, Build, Field, Fill, FormValues, UnitChoices

Choices = Callable[[GameState], list[tuple[str, str]]]


def sides(state: GameState) -> list[tuple[str, str]]:
    return [(f"{name} ({side.nationality})", name) for name, side in state.sides.items()]


def words(*pairs: tuple[str, str]) -> Choices:
    return lambda state: list(pairs)


def slot_fields(
    verb: str,
    names: tuple[str, ...] = (),
    *,
    labels: Mapping[str, str] | None = None,
    lists: Mapping[str, Choices] | None = None,
    placeholders: Mapping[str, str] | None = None,
    auto: tuple[str, ...] = (),
    values: Mapping[str, str] | None = None,
    required: tuple[str, ...] = (),
) -> list[Field]:
    """The fields of ``verb``'s slots ``names`` (all of them by default), in that order.

    ``labels`` and ``lists`` say a field or a list's words as the table reads them;
    ``auto`` names the unit fields that pick the only legal unit by themselves;
    ``required`` the fields the form asks for though the verb may go without.
    """
    spec = VERBS[verb]
    out = []
    for slot in [spec.slot(n) for n in names] if names else spec.slots:
        choices: Choices | UnitChoices | None
        if slot.kind in PICK_ONE or slot.kind in PICK_MANY:  # ASSIGN: typed
            choices = slot.offers()
        elif lists and slot.name in lists:
            choices = lists[slot.name]
        elif slot.kind is Kind.SIDE:
            choices = sides
        elif slot.kind is Kind.PHASE:
            choices = words(*((p, p) for p in PHASES))
        else:
            choices = words(*((c, c) for c in slot.choices)) if slot.choices else None
        out.append(
            Field(
                slot.name,
                (labels or {}).get(slot.name, slot.label),
                slot.kind,
                choices,
                (placeholders or {}).get(slot.name, ""),
                (values or {}).get(slot.name, False if slot.kind is Kind.FLAG else ""),
                slot.name in auto,
                required=slot.required or slot.name in required,
                asked=slot.asked,
            )
        )
    return out


def of_verb(verb: str) -> Build:
    """The form's values are the verb's slots: the core builds its command from them."""

    def build(values: FormValues, state: GameState) -> Command | None:
        return from_fields(verb, values, state)

    return build


def fill_of(verb: str) -> Fill:
    """The fields of ``verb`` the core fills when the game allows one value (its slots
    declared ``fill_when_single``), as the command bar fills them when left out."""

    def fill(values: FormValues, state: GameState) -> Filled | None:
        return filled(verb, values, state)

    return fill
