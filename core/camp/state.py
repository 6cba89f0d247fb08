"""What the camp looks like at one point of a campaign, and what it waits for next.

``CampState`` is immutable; :mod:`core.camp.fold` derives each state from the previous
one and a record. ``phase`` names the record kind the game waits for, so "what can
happen now" is one look-up (:func:`need`) shared by the screen, the CLI and the
simulator.
"""

from __future__ import annotations

import msgspec

from stockade.core.camp.events import CampOptions
from stockade.core.camp.table import ACTION_IDS, RuleTable

MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
LIBERATION_YEAR = 1945  # the source: liberation "if the POW survives to 1945"
FIRST_YEAR = 1938  # d6 year: 1 = 1939 ... 6 = 1944

# phase -> what the game waits for. Roll phases list the faces of each die.
PHASE_PROMPTS = {
    "capture": "Roll for the capture date",
    "health": "Roll for starting Health (d6 + 3)",
    "liberation": "1945: roll d12 for liberation (at most the month number frees you)",
    "action": "Choose this month's action",
    "action_roll": "Roll for the action",
    "outcome": "Source rules: what did the action do?",
    "escape_choice": "End of turn: attempt an escape?",
    "escape_roll": "Escape: one d6 per point of kit, any 6 escapes",
    "escape_injury": "The escape failed: roll d3 Health lost",
    "attrition": "1945: roll 2d6 against Health (greater costs 1 Health)",
    "over": "The war is over for this POW",
}
ENDINGS = ("escaped", "liberated", "dead")


class MonthEntry(msgspec.Struct, frozen=True):
    year: int
    month: int
    notes: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return f"{MONTH_NAMES[self.month - 1][:3]} {self.year}"


class CampState(msgspec.Struct, frozen=True):
    options: CampOptions
    table: RuleTable
    phase: str = "capture"
    capture_year: int = 0
    capture_month: int = 0
    year: int = 0
    month: int = 0
    health: int = 0
    kit: int = 0
    hospitalised: bool = False
    ending: str = ""
    action: str = ""  # this month's action, once chosen
    current: MonthEntry | None = None  # the month being played
    history: tuple[MonthEntry, ...] = ()  # months already over, oldest first
    last_roll: str = ""  # the latest dice, in words, for "the dice as they fall"
    narrate: bool = True  # keep notes and history; the simulator turns it off

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def started(self) -> bool:
        return self.year > 0

    @property
    def months_in_captivity(self) -> int:
        """Calendar months since capture: 0 during the month of capture."""
        if not self.started:
            return 0
        return (self.year - self.capture_year) * 12 + self.month - self.capture_month

    @property
    def max_health(self) -> int | None:
        # The ceiling is part of the house rule; source-only play has none.
        return self.table.meta.max_health if self.options.rules == "house" else None

    @property
    def allowed_actions(self) -> tuple[str, ...]:
        return ("malinger",) if self.hospitalised else ACTION_IDS

    @property
    def can_escape(self) -> bool:
        return self.kit >= 1 and not self.hospitalised


class Need(msgspec.Struct, frozen=True):
    """What the game waits for: a roll of ``sides`` dice, or a choice of ``choices``."""

    phase: str
    prompt: str
    sides: tuple[int, ...] = ()
    choices: tuple[str, ...] = ()

    @property
    def is_roll(self) -> bool:
        return bool(self.sides)


def dice_sides(state: CampState) -> tuple[int, ...]:
    """The dice the current phase rolls, in the order the record stores them."""
    phase = state.phase
    if phase == "capture":
        return (6, 12) if state.options.month_die == "d12" else (6, 6, 6)
    if phase == "health":
        return (6,)
    if phase == "liberation":
        return (12,)
    if phase == "action_roll":
        return (state.table.action(state.action).die,)
    if phase == "escape_roll":
        return (6,) * state.kit
    if phase == "escape_injury":
        return (3,)
    if phase == "attrition":
        return (6, 6)
    return ()


def need(state: CampState) -> Need:
    phase = state.phase
    prompt = PHASE_PROMPTS[phase]
    if phase == "action":
        return Need(phase, prompt, choices=state.allowed_actions)
    if phase == "escape_choice":
        return Need(phase, prompt, choices=("attempt", "stay"))
    return Need(phase, prompt, sides=dice_sides(state))


def describe_dice(sides: tuple[int, ...]) -> str:
    """(6, 6) -> '2d6'; (6, 12) -> 'd6 + d12'."""
    groups: list[str] = []
    for s in dict.fromkeys(sides):
        n = sides.count(s)
        groups.append(f"{n if n > 1 else ''}d{s}")
    return " + ".join(groups)


def month_label(year: int, month: int) -> str:
    return f"{MONTH_NAMES[month - 1]} {year}"
