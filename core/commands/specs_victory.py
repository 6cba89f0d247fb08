"""The Victory Conditions' verbs' declarations (``grammar.VERBS``): the conditions,
exits and control of Locations."""

from __future__ import annotations

from stockade.core.commands.verb_spec import Kind, Slot, VerbSpec, units_slot

VICTORY_SPECS: tuple[VerbSpec, ...] = (
    # -------------------------------------------------------- Victory Conditions
    VerbSpec(
        "vc",
        'vc CLAUSE[; CLAUSE...][; otherwise SIDE|draw] [card "THE CARD\'S WORDS"] | vc none',
        "set the scenario's Victory Conditions (judged live; see docs/commands.md)",
        'vc German wins at end if amassed >= 20 card "The Germans win at game end if '
        'they have amassed >= 20 CVP"',
        ("victory",),
        (
            Slot("conditions", Kind.TEXT, label="Victory Conditions (or none)", required=True),
            Slot("card", Kind.TEXT, "card", "The card's own words (optional)"),
        ),
    ),
    VerbSpec(
        "exit",
        "exit H... [off EDGE] [vp N]",
        "units exit off a board edge for Exit VP (a Guard takes its prisoners: A20.53)",
        "exit g1 g2 off east",
        (),
        (
            units_slot("units", "Units that exit", "active"),
            Slot("off", Kind.WORD, "off", "Off the board edge (optional)"),
            Slot("vp", Kind.NUMBER, "vp", "Exit VP of each (optional: their CVP)"),
        ),
    ),
    VerbSpec(
        "control",
        "control LOC... SIDE|nobody",
        "set who controls objective Locations (for the Victory Conditions)",
        "control P4 Q5 German",
        (),
        (
            Slot("locations", Kind.TEXT, label="Locations", required=True),
            Slot("side", Kind.SIDE, label="Controlled by (a side, or nobody)", required=True),
        ),
    ),
)
