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
    captured_at: str = ""  # the Location it stood in when it surrendered/was captured
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

    def __setattr__(self, name: str, value) -> None:
        if name == "status" or name == "guard":
            _CHANGES[0] += 1  # invalidates GameState's prisoner index
        object.__setattr__(self, name, value)


# Bumped whenever any unit's status or guard is set: GameState.prisoners_of keeps an
# index of the prisoners and rebuilds it only after such a change (instead of scanning
# every unit of a long campaign on every call).
_CHANGES = [0]


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

    def _prisoners(self) -> list[Unit]:
        """Every prisoner, in unit order; cached until a unit's status/guard is set."""
        key = (_CHANGES[0], id(self.units), len(self.units))
        cached = self.__dict__.get("_prisoner_index")
        if cached is None or cached[0] != key:
            cached = (key, [u for u in self.units.values() if u.status == PRISONER])
            self.__dict__["_prisoner_index"] = cached
        return cached[1]

    def prisoners_of(self, guard: str) -> list[Unit]:
        return [u for u in self._prisoners() if u.guard == guard]

    def guards(self) -> list[Unit]:
        held = {u.guard for u in self._prisoners()}
        return [self.units[h] for h in self.units if h in held]

    def prisoner_load(self, guard: str) -> int:
        return sum(p.us for p in self.prisoners_of(guard))

    def clone(self) -> "GameState":
        """An independent copy (snapshots, previews), written out by hand: ~20x faster
        than ``copy.deepcopy``. Every mutable container a field holds is copied here;
        tests/test_durability_clone.py fails if a new one is added and not copied.
        Casualty lines are shared: they are never changed once booked."""
        new = copy.copy(self)
        new.__dict__.pop("_prisoner_index", None)
        new.sides = {name: _copy_obj(side) for name, side in self.sides.items()}
        new.cvp_overrides = dict(self.cvp_overrides)
        new.units = {handle: _clone_unit(u) for handle, u in self.units.items()}
        new.casualties = list(self.casualties)
        new.scrounged = set(self.scrounged)
        return new


_new = object.__new__


def _copy_obj(obj):
    clone = _new(type(obj))
    clone.__dict__.update(obj.__dict__)
    return clone


def _clone_unit(u: Unit) -> Unit:
    clone = _new(Unit)
    clone.__dict__.update(u.__dict__)
    clone.origins = [_copy_obj(o) for o in u.origins]
    return clone
