"""The plain guided forms: each is a verb's slots (``core.commands.grammar``), and the
core builds the verb's ``Command`` from what the fields hold.

Surrender and CC capture have their own screens (``surrender.py``, ``cc.py``); the
status and fire forms choose their verb from a list.
"""

from __future__ import annotations

from stockade.core.commands import COMMANDS
from stockade.core.commands.command import Command
from stockade.core.commands.fill import from_fields
from stockade.core.commands.verb_spec import Kind
from stockade.core.model.errors import InputRefusal
from stockade.core.model.state import GameState
from stockade.tui.forms.base import Field, FormSpec, FormValues
from stockade.tui.forms.choices import fill_of, of_verb, slot_fields, words

CAUSES = words(
    ("enemy fire", "enemy"),
    ("its own side's fire (prisoners: double CVP)", "own"),
    ("Close Combat", "cc"),
    ("a Sniper", "sniper"),
    ("failure to rout", "rout"),
    ("other", "other"),
)
FIRE = words(("enemy fire", "enemy"), ("its own side's fire", "own"))
STATUS = words(
    ("broken", "break"),
    ("rallied (no longer broken)", "rally"),
    ("pinned", "pin"),
    ("unpinned", "unpin"),
    ("berserk", "berserk"),
    ("no longer berserk", "berserk-off"),
    ("Disrupted (A19.12)", "disrupt"),
    ("no longer Disrupted", "disrupt-off"),
    ("Melee", "melee"),
    ("out of Melee", "melee-off"),
)
OFF = "-off"  # the verb's "off": it clears what the verb sets


def _status(values: FormValues, state: GameState) -> Command | None:
    """The status verb picked in the list, on the units picked."""
    word = values.text("verb")
    verb = word.removesuffix(OFF)
    if verb not in COMMANDS:
        raise InputRefusal("still to fill: Status")
    return from_fields(verb, {"units": values.get("units"), "off": word.endswith(OFF)}, state)


def _fire(values: FormValues, state: GameState) -> Command | None:
    """Casualty Reduction or elimination, as the Result field says."""
    verb = values.text("result")
    if verb not in ("reduce", "eliminate"):
        return None
    fields = {"unit": values.get("unit"), "by": values.get("by")}
    if verb == "reduce":
        fields["to"] = values.get("to")
    return from_fields(verb, fields, state)


def _end(values: FormValues, state: GameState) -> Command | None:
    return from_fields("end", {}, state) if values.get("sure") else None


SPECS: list[FormSpec] = [
    FormSpec(
        "add",
        "Add units",
        "Enter counters as they matter: a side, the counters as "
        "printed (4-6-7, 9-2; add hs/crew/hero where a counter could be several).",
        slot_fields(
            "add",
            labels={"at": "Location (optional)"},
            placeholders={"counters": "4-6-7 2-4-7 hs 9-1", "at": "Q4"},
        ),
        of_verb("add"),
        key="a",
    ),
    FormSpec(
        "status",
        "Unit status",
        "What the board shows now: broken, rallied, pinned, berserk, Disrupted, in Melee "
        "(a broken or Melee Guard is what lets its prisoners attempt escape, A20.55).",
        [
            *slot_fields("break", ("units",), labels={"units": "Units"}),
            Field("verb", "Status", Kind.CHOICE, STATUS),
        ],
        _status,
        key="u",
    ),
    FormSpec(
        "move",
        "Move units",
        "Where units are now, as the board shows (an advance, a rout): "
        "prisoners move with their Guard.",
        slot_fields("move", placeholders={"to": "R5"}),
        of_verb("move"),
        key="v",
    ),
    FormSpec(
        "transfer",
        "Transfer prisoners",
        "RPh/APh: hand prisoners to another unit "
        "in the Location (A20.5). merge: two HS become a squad, like g1+g2.",
        slot_fields("transfer", auto=("to",), placeholders={"merges": "g1+g2"}),
        of_verb("transfer"),
        key="t",
    ),
    FormSpec(
        "abandon",
        "Abandon prisoners",
        "RPh/APh: free prisoners as abandoned Unarmed "
        "units; if their captor later eliminates them it is a Massacre (A20.5, A20.53).",
        slot_fields("abandon"),
        of_verb("abandon"),
        key="b",
    ),
    FormSpec(
        "recapture",
        "Recapture unarmed units",
        "Free unarmed units are retaken by an armed enemy entering or "
        "ending in their Location (A20.54).",
        slot_fields("recapture", placeholders={"merges": "g1+g2"}),
        of_verb("recapture"),
        key="y",
    ),
    FormSpec(
        "exchange",
        "Exchange two HS for a squad",
        "A Guard may exchange two prisoner HS/crews for one unarmed squad at any time (A20.51).",
        slot_fields(
            "exchange",
            labels={"as_": "New handle (optional)"},
            placeholders={"as_": "leave empty for the next free"},
        ),
        of_verb("exchange"),
        key="x",
    ),
    FormSpec(
        "split",
        "Split a prisoner squad",
        "A prisoner squad becomes two prisoner HS.",
        slot_fields("split", ("unit",)),
        of_verb("split"),
        key="p",
    ),
    FormSpec(
        "deploy",
        "Deploy a Guard squad",
        "An unbroken Guard squad deploys into two "
        "HS at any time (A20.5); prisoners stay with the first unless sent (g3=2).",
        slot_fields(
            "deploy",
            ("unit", "counters", "assign"),
            placeholders={"counters": "2-4-7", "assign": "g3=2"},
        ),
        of_verb("deploy"),
        key="d",
    ),
    FormSpec(
        "escape",
        "Escape attempt",
        "CCPh: prisoners attack their broken Guard (or any "
        "Guard in Melee) after a NTC (A20.55). Record who failed the NTC, who died.",
        slot_fields(
            "escape",
            ("units", "guard_dies", "melee", "ntcfail", "killed", "own_borders"),
            labels={"own_borders": "Axis Minor within own borders vs Russians"},
        ),
        of_verb("escape"),
        key="e",
    ),
    FormSpec(
        "rearm",
        "Rearm an unarmed unit",
        "A20.551: by eliminating/capturing an armed "
        "enemy in CC, alone in a Location with one, or when one surrenders to a friend.",
        slot_fields(
            "rearm",
            labels={"as_": "Counter it becomes (optional: if the book does not know)"},
            lists={
                "how": words(
                    ("in CC", "cc"), ("alone with it", "alone"), ("it surrendered", "surrender")
                )
            },
            placeholders={"as_": "4-3-6"},
        ),
        of_verb("rearm"),
        key="r",
        # How and the enemy: the core's, when the game allows one way (as "rearm g1")
        fill=fill_of("rearm"),
    ),
    FormSpec(
        "scrounge",
        "Scrounge",
        "End of its MPh, all MF spent: a DR of 2 rearms; vs a "
        "wreck a dr 1-3 up to HS size. One DR per hex per MPh (A20.552).",
        slot_fields("scrounge", placeholders={"as_": "4-3-6"}),
        of_verb("scrounge"),
        key="g",
    ),
    FormSpec(
        "massacre",
        "Massacre",
        "A20.4: eliminating unarmed units in the Location, as "
        "if using a SW: enemy ELR +1 (once) and No Quarter.",
        slot_fields("massacre", auto=("by",)),
        of_verb("massacre"),
        key="m",
    ),
    FormSpec(
        "fire",
        "Fire result on prisoners",
        "A Location with prisoners was hit: Casualty "
        "Reduction or elimination (A7.302, A20.54). Own side's fire on prisoners "
        "counts double CVP at once.",
        [
            Field(
                "result",
                "Result",
                Kind.CHOICE,
                words(("Casualty Reduction", "reduce"), ("eliminated", "eliminate")),
            ),
            *slot_fields(
                "reduce",
                ("unit", "by", "to"),
                labels={"by": "Whose fire", "to": "Counter after reduction (armed squad)"},
                lists={"by": FIRE},
                placeholders={"to": "2-4-7"},
                required=("by", "to"),
            ),
        ],
        _fire,
        key="i",
    ),
    FormSpec(
        "eliminate",
        "Eliminate a unit",
        "A Guard's prisoners pass to a unit that can "
        "take them (takeover), or go free if none can (A20.5).",
        slot_fields(
            "eliminate",
            labels={"by": "Cause"},
            lists={"by": CAUSES},
            auto=("takeover",),
            required=("by", "takeover"),
        ),
        of_verb("eliminate"),
        key="l",
    ),
    FormSpec(
        "escort",
        "Escort off the board",
        "A Guard leaves by a Friendly Board Edge "
        "with its prisoners: they still count double (A20.53).",
        slot_fields("escort"),
        of_verb("escort"),
        key="o",
    ),
    FormSpec(
        "end",
        "End the game",
        "The last entry: prisoners still guarded count double (A20.1). Undo takes it back.",
        [Field("sure", "the scenario is over", Kind.FLAG)],
        _end,
        key="z",
    ),
]
