"""Every record a camp campaign log can hold, one JSON line each.

The ``kind`` tag is an explicit string per record type, so renaming a class never
breaks an old log. Every record carries ``seq`` (gap-free from 1, the header), ``v``
(schema version) and ``grp``: the ``seq`` of the first record of the player input it
belongs to. One key press (a choice, or a die typed by hand) opens a group; the rolls
the program makes in answer join it, and undo/redo act on whole groups.

Dice results are stored, never re-rolled: replaying a log shows the same dice.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from stockade.core.camp.table import RuleTable
from stockade.core.model import bounds as b
from stockade.core.model import string_bounds as sb

SCHEMA_VERSION = 1

DiceMode = Literal["auto", "physical"]
RulesMode = Literal["house", "source"]
MonthDie = Literal["d12", "2d6"]


class Record(msgspec.Struct, tag_field="kind", kw_only=True, frozen=True):
    seq: b.Seq = 0
    v: b.Version = SCHEMA_VERSION
    grp: b.Seq = 0


class CampOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    seed: sb.Name = ""
    dice: DiceMode = "auto"
    rules: RulesMode = "house"
    month_die: MonthDie = "d12"


# -------------------------------------------------------------------------- header
class CampStarted(Record, tag="camp", frozen=True):
    """The header: the options and a copy of the house-rule table in force."""

    options: CampOptions
    table: RuleTable
    program: sb.Name = "stockade-camp"


# ---------------------------------------------------------------------------- rolls
class Roll(Record, frozen=True):
    """A roll: ``dice`` are the faces in the order the rule names them.

    ``hand`` is true when the player rolled real dice and typed the numbers.
    """

    dice: b.Dice
    hand: bool = False


class CaptureRolled(Roll, tag="capture", frozen=True):
    """d6 year, then the month die (one d12, or 2d6 "at a pinch")."""


class HealthRolled(Roll, tag="health", frozen=True):
    """d6; starting Health is the face + 3."""


class LiberationRolled(Roll, tag="liberation", frozen=True):
    """d12 at the start of a 1945 turn; at most the month number liberates."""


class ActionRolled(Roll, tag="action_roll", frozen=True):
    """The house-rule die for the action chosen this month."""


class EscapeRolled(Roll, tag="escape_roll", frozen=True):
    """One d6 per point of Escape Kit; any 6 escapes."""


class EscapeInjuryRolled(Roll, tag="escape_injury", frozen=True):
    """d3 Health lost after a failed escape."""


class AttritionRolled(Roll, tag="attrition", frozen=True):
    """2d6 against Health at the end of a 1945 turn; greater costs 1 Health."""


# -------------------------------------------------------------------------- choices
class ActionChosen(Record, tag="action", frozen=True):
    action: sb.Name  # "loiter" | "malinger" | "gather"


class OutcomeEntered(Record, tag="outcome", frozen=True):
    """Source-only play: the player applied the real rule and reports its effect."""

    health: b.SmallInt
    kit: b.SmallInt


class EscapeChosen(Record, tag="escape_choice", frozen=True):
    attempt: bool


# ------------------------------------------------------------------------- controls
class Undo(Record, tag="undo", frozen=True):
    """Takes group ``target`` out of the effective history; nothing is deleted."""

    target: b.Seq


class Redo(Record, tag="redo", frozen=True):
    """Puts the most recently undone group ``target`` back."""

    target: b.Seq


GameEvent = (
    CaptureRolled
    | HealthRolled
    | LiberationRolled
    | ActionRolled
    | EscapeRolled
    | EscapeInjuryRolled
    | AttritionRolled
    | ActionChosen
    | OutcomeEntered
    | EscapeChosen
)
# The nested union flattens: one tagged union for the decoder.
AnyRecord = CampStarted | GameEvent | Undo | Redo
ROLL_KINDS: dict[str, type[Roll]] = {
    "capture": CaptureRolled,
    "health": HealthRolled,
    "liberation": LiberationRolled,
    "action_roll": ActionRolled,
    "escape_roll": EscapeRolled,
    "escape_injury": EscapeInjuryRolled,
    "attrition": AttritionRolled,
}
CONTROL_TYPES = (Undo, Redo)
