"""The forms of the verdict's verbs: the Victory Conditions as the ``vc`` verb reads them
(the card's own words kept beside them), units exiting for Exit VP, and who controls an
objective Location (docs/commands.md, "Victory Conditions"). Their fields are the
verbs' slots, like every plain form's."""

from __future__ import annotations

from stockade.tui.forms.base import FormSpec
from stockade.tui.forms.choices import of_verb, slot_fields

SPECS: list[FormSpec] = [
    FormSpec(
        "vc",
        "Victory Conditions",
        "The scenario card's Victory Conditions, judged as the game goes: one clause per "
        "';' (German wins at end if amassed >= 20; Russian wins immediately if amassed >= "
        "15). Entered again, they replace the old ones (undo brings those back).",
        slot_fields(
            "vc",
            placeholders={
                "conditions": "German wins at end if amassed >= 20; otherwise Russian",
                "card": "as printed on the card",
            },
        ),
        of_verb("vc"),
        key="w",
    ),
    FormSpec(
        "exit",
        "Exit off the board",
        "Units that exit off a board edge earn Exit VP: their CVP, or the card's value. A "
        "Guard exiting takes its prisoners off with it (A20.53): double CVP at once.",
        slot_fields("exit", placeholders={"off": "east", "vp": "the card's VP each"}),
        of_verb("exit"),
        key="q",
    ),
    FormSpec(
        "control",
        "Control of Locations",
        "Who controls objective Locations, as the players agree (the program does not "
        "work control out from moves).",
        slot_fields("control", placeholders={"locations": "P4 Q5"}),
        of_verb("control"),
        key="n",
    ),
]
