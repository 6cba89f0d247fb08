"""The game as it stands: the fold of the effective history.

Plain mutable objects, cloned for snapshots. Nothing here checks a rule; see
``core.rules``. Every casualty that is worth CVP is kept as a ``Casualty`` line so the
tally can explain each point.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from core.events import PHASES
from core.units import INFANTRY_KINDS, SMC_KINDS, us_number

# A unit's standing on the board.
ACTIVE = "active"          # on the board, armed (or an unarmed SMC? never: SMC rearm at once)
PRISONER = "prisoner"      # unarmed, above its Guard
UNARMED = "unarmed"        # unarmed, free: abandoned, escaped or freed
ELIMINATED = "eliminated"
ESCORTED = "escorted"      # left by a Friendly Board Edge (with its Guard, or as a prisoner)
GONE = "gone"              # exchanged into another counter (merged, split, deployed)


@dataclass
class Origin:
    """What a prisoner counter stands for, for VP: a crew stays a crew (A20.5)."""

    handle: str
    unit_kind: str
    counter: str
    cvp: int


@dataclass
class Unit:
    handle: str
    side: str  # the side that owns it (for a prisoner: its original side)
    unit_kind: str
    counter: str
    created: int  # seq of the event that brought this counter into play
    cvp: int  # normal CVP of this counter as it stands
    origins: list[Origin]
    traits: frozenset[str] = frozenset()
    status: str = ACTIVE
    armed: bool = True
    broken: bool = False
    pinned: bool = False
    berserk: bool = False
    melee: bool = False
    disrupted: bool = False
    location: str = ""
    guard: str | None = None  # prisoner: the handle of its Guard
    unarmed_how: str = ""  # abandoned / escaped / freed
    abandoned_by: str = ""  # the side that abandoned it (A20.53 protection)
    captured_seq: int = 0
    captured_how: str = ""
    surrendered_to: str = ""  # side it surrendered to (A20.551 rearm by surrender)
    rearm_spent: bool = False  # this enemy already rearmed one unarmed unit (A20.551)
    ended_seq: int = 0  # seq that eliminated/escorted/merged it
    note: str = ""

    @property
    def us(self) -> int:
        return us_number(self.unit_kind)

    @property
    def is_smc(self) -> bool:
        return self.unit_kind in SMC_KINDS

    @property
    def is_infantry(self) -> bool:
        return self.unit_kind in INFANTRY_KINDS

    @property
    def on_board(self) -> bool:
        return self.status in (ACTIVE, PRISONER, UNARMED)

    @property
    def origin_cvp(self) -> int:
        return sum(o.cvp for o in self.origins)


@dataclass
class Side:
    name: str
    nationality: str
    elr: int
    no_quarter: bool = False  # this side has invoked No Quarter (A20.3)
    no_quarter_seq: int = 0
    massacred: bool = False  # this side has committed a Massacre (A20.4)
    massacre_seq: int = 0
    elr_raised: bool = False  # this side's ELR was raised by an enemy Massacre (once only)


@dataclass
class Casualty:
    """One line of the CVP tally: who, what, which event, which rule, how many times."""

    seq: int
    turn: int
    credited: str  # the side that scores
    unit: str  # handle
    counter: str
    unit_kind: str
    base: int
    multiplier: int
    rule: str
    why: str

    @property
    def points(self) -> int:
        return self.base * self.multiplier


@dataclass
class GameState:
    scenario: str = ""
    sides: dict[str, Side] = field(default_factory=dict)
    cvp_overrides: dict[str, int] = field(default_factory=dict)
    turn: int = 1
    attacker: str = ""
    phase: str = PHASES[0]
    ended: bool = False
    units: dict[str, Unit] = field(default_factory=dict)
    casualties: list[Casualty] = field(default_factory=list)
    scrounged: set[tuple[int, str, str]] = field(default_factory=set)  # (turn, attacker, hex)
    last_seq: int = 0

    # -- lookups ----------------------------------------------------------------
    def side_names(self) -> list[str]:
        return list(self.sides)

    def enemy_of(self, side: str) -> str:
        for name in self.sides:
            if name != side:
                return name
        return ""

    @property
    def defender(self) -> str:
        return self.enemy_of(self.attacker)

    def prisoners_of(self, guard: str) -> list[Unit]:
        return [u for u in self.units.values() if u.status == PRISONER and u.guard == guard]

    def guards(self) -> list[Unit]:
        held = {u.guard for u in self.units.values() if u.status == PRISONER}
        return [self.units[h] for h in self.units if h in held]

    def prisoner_load(self, guard: str) -> int:
        return sum(p.us for p in self.prisoners_of(guard))

    def clone(self) -> "GameState":
        return copy.deepcopy(self)
