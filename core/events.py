"""Everything that can happen to a game, as records in its log.

Each record is one JSON line. The ``kind`` tag is an explicit string per record type,
so renaming a class never breaks an old log. Every record carries:

* ``seq``: gap-free sequence number, 1 for the game header;
* ``v``:   schema version of the record (older versions are upgraded on read);
* ``grp``: the command group: one player action may yield several events, and undo
  and redo act on the whole group. It is the ``seq`` of the group's first record.

Two families: *domain events* (what happened at the table) and *control records*
(undo, redo, strike, unstrike) which act on earlier records and are never folded.
"""

from __future__ import annotations

from typing import Literal, Union

import msgspec

SCHEMA_VERSION = 1

Phase = Literal["RPh", "PFPh", "MPh", "DFPh", "AFPh", "RtPh", "APh", "CCPh"]
PHASES: tuple[str, ...] = ("RPh", "PFPh", "MPh", "DFPh", "AFPh", "RtPh", "APh", "CCPh")


class Record(msgspec.Struct, tag_field="kind", kw_only=True, frozen=True):
    seq: int = 0
    v: int = SCHEMA_VERSION
    grp: int = 0
    at: str = ""  # wall-clock time of entry, for display only; never read by rules


# --------------------------------------------------------------------------- set-up
class SideSpec(msgspec.Struct, frozen=True):
    name: str
    nationality: str
    elr: int = 3


class GameCreated(Record, tag="game", frozen=True):
    scenario: str
    sides: list[SideSpec]
    program: str = "stockade"
    cvp: dict[str, int] = {}  # scenario overrides of normal CVP per kind
    first_attacker: str = ""


class UnitEntered(Record, tag="unit", frozen=True):
    handle: str
    side: str
    unit_kind: str
    counter: str
    location: str = ""
    traits: list[str] = []
    cvp: int | None = None  # the unit's own normal CVP, when not the table's
    broken: bool = False


class PhaseSet(Record, tag="phase", frozen=True):
    turn: int
    attacker: str
    phase: Phase


class StatusChanged(Record, tag="status", frozen=True):
    """Broken, pinned, berserk, Melee or Location of a unit, as seen on the board."""

    handle: str
    broken: bool | None = None
    pinned: bool | None = None
    berserk: bool | None = None
    melee: bool | None = None
    disrupted: bool | None = None
    location: str | None = None


class NoQuarterInvoked(Record, tag="nq", frozen=True):
    """A side is under No Quarter by scenario rule (A20.3), not by a rejection."""

    side: str
    reason: str = "SSR"


class GameEnded(Record, tag="end", frozen=True):
    pass


# ------------------------------------------------------------------------- captures
class Merge(msgspec.Struct, frozen=True):
    """Two prisoner HS/crew exchanged for one unarmed squad (A20.51)."""

    parts: list[str]
    into: str


SurrenderReason = Literal["rtph", "disrupted", "encircled", "hob", "mopup"]


class Surrendered(Record, tag="surrender", frozen=True):
    """A stack surrenders to ``guard`` (A20.21 RtPh; A19.12; A15.5; A12.153 Mopping Up).

    ``freed`` are the excess units the captor frees as Unarmed (A20.21); ``merges``
    exchange prisoner HS pairs into squads so the stack fits the Guard (A20.51).
    """

    units: list[str]
    guard: str
    reason: SurrenderReason = "rtph"
    freed: list[str] = []
    merges: list[Merge] = []
    # A20.21: why other broken units of the Location are not in this stack (e.g. a legal
    # rout path); empty when the stack is every broken unit there
    others_why: str = ""


class SurrenderRejected(Record, tag="reject", frozen=True):
    """The captor rejects a RtPh/Disrupted surrender: No Quarter (A20.3)."""

    units: list[str]
    by_side: str
    others_why: str = ""  # as in Surrendered (A20.21: rejected as a stack)


class Captured(Record, tag="capture", frozen=True):
    """A CC capture (A20.22): ``units`` all captured; or one HS of squad ``split``.

    For a one-HS result, ``split`` is the squad, ``hs_captured`` and ``hs_free`` the
    handles of its two halves, ``hs_counter`` the free half's counter.
    """

    guard: str
    units: list[str] = []
    split: str | None = None
    hs_captured: str = ""
    hs_free: str = ""
    hs_counter: str = ""
    merges: list[Merge] = []
    # an unarmed captor is rearmed by its capture (A20.551): the counter it becomes,
    # when the nationality table has none
    rearm_as: str = ""


class MutualCapture(Record, tag="mutual", frozen=True):
    """A20.221: all opposing units captured/eliminated each other; the rest rearm."""

    units: list[str]  # every remaining unit and prisoner in the Location
    counters: dict[str, str] = {}  # handle -> the Green/Conscript counter it becomes


class Recaptured(Record, tag="recapture", frozen=True):
    """Unarmed units recaptured by CC or by entering their Location in the MPh (A20.54)."""

    units: list[str]
    guard: str
    merges: list[Merge] = []


# --------------------------------------------------------------------------- guards
class Transferred(Record, tag="transfer", frozen=True):
    units: list[str]
    to_guard: str
    merges: list[Merge] = []


class Exchanged(Record, tag="exchange", frozen=True):
    """Two prisoner HS/crew <-> one unarmed squad (A20.51). ``split`` reverses."""

    parts: list[str]
    into: str


class PrisonerSplit(Record, tag="split", frozen=True):
    """A prisoner squad split into two prisoner HS ("Making Prisoners Work for You")."""

    handle: str
    into: list[str]


class Deployed(Record, tag="deploy", frozen=True):
    """An unbroken Guard squad deploys into two HS at any time (A20.5)."""

    handle: str
    into: list[str]
    counters: list[str]
    # which new HS guards which prisoner; prisoners not named stay with into[0]
    assign: dict[str, str] = {}


class Abandoned(Record, tag="abandon", frozen=True):
    units: list[str]


class EscortedOff(Record, tag="escort", frozen=True):
    """Guard and prisoners leave by a Friendly Board Edge (A20.53)."""

    guard: str


# ------------------------------------------------------------------ fire and losses
EliminationCause = Literal[
    "fire-own", "fire-enemy", "cc", "escape", "sniper", "rout", "massacre", "other"
]
# How the player reads each cause (the history, the tally's "why" column).
CAUSE_WORDS: dict[str, str] = {
    "fire-own": "by its own side's fire",
    "fire-enemy": "by enemy fire",
    "cc": "in CC",
    "escape": "while escaping",
    "sniper": "by a sniper",
    "rout": "while routing",
    "massacre": "in a Massacre",
    "other": "",
}


class Eliminated(Record, tag="eliminate", frozen=True):
    """A unit is eliminated. A Guard's prisoners pass to ``takeover`` or are freed.

    ``cause`` says whose fire: for a prisoner, ``fire-own`` (its own side's fire)
    counts double at once (A20.54), ``escape`` normal (A20.55).
    ``keep`` lists the prisoners the new Guard keeps when it cannot take them all.
    """

    handle: str
    cause: EliminationCause = "other"
    by_side: str = ""
    takeover: str | None = None
    keep: list[str] = []


class CasualtyReduced(Record, tag="reduce", frozen=True):
    """Casualty Reduction (A7.302; for prisoners and unarmed units, A20.54).

    A squad becomes a HS (``lost`` names the part lost when the squad was formed from
    two); a HS or crew is eliminated.
    """

    handle: str
    cause: EliminationCause = "fire-enemy"
    counter: str = ""  # the HS counter a reduced armed squad becomes
    lost: str = ""
    by_side: str = ""  # whose fire: an abandoned unit reduced by its abandoner is a Massacre
    # a Guard squad reduced to a HS guards US# 10 at most: the prisoners it keeps
    # (the rest are freed, A20.5); by default as many as fit, in order
    keep: list[str] = []


class Massacred(Record, tag="massacre", frozen=True):
    """A20.4: ``by`` eliminates unarmed units in its Location in its fire phase."""

    units: list[str]
    by: str


# ---------------------------------------------------------------- escape and rearm
EscapeOutcome = Literal["no-effect", "melee", "escaped"]


class EscapeAttempted(Record, tag="escape", frozen=True):
    """Prisoners attack their Guard in the CCPh (A20.55).

    ``ntc_failed``: prisoners that failed the NTC and so did not attack (outside Melee).
    ``killed``: prisoners eliminated while escaping (normal CVP, A20.55).
    ``guard_eliminated``: the prisoners eliminated their Guard.
    ``outcome``: ``escaped`` only when no enemy but prisoners remains in the Location.
    """

    units: list[str]
    ntc_failed: list[str] = []
    killed: list[str] = []
    guard_eliminated: bool = False
    outcome: EscapeOutcome = "no-effect"
    own_borders: bool = False  # A20.55 EXC: Axis Minors in own borders vs Russians


EscapeRoute = Literal["withdrawal", "infiltration", "guard-infiltrated"]


class EscapedBy(Record, tag="escaped", frozen=True):
    """Escape by Withdrawal from Melee (A11.2) or Infiltration (A11.22)."""

    units: list[str]
    route: EscapeRoute
    own_borders: bool = False  # A20.55 EXC: Axis Minors in own borders vs Russians


RearmHow = Literal["cc", "alone", "surrender", "smc-escaped"]


class Rearmed(Record, tag="rearm", frozen=True):
    """An unarmed unit becomes a Green/Conscript unit of its size (A20.551)."""

    handle: str
    how: RearmHow
    enemy: str = ""  # the armed enemy unit eliminated/captured/surrendered
    counter: str = ""  # the counter it becomes
    split_into: list[str] = []  # unarmed squad + HS enemy: [armed HS, unarmed HS]


class Scrounged(Record, tag="scrounge", frozen=True):
    """A Scrounging DR (A20.552): a 2 rearms; vs a wreck (D10.5) a dr 1-3 up to HS size."""

    handle: str
    roll: int
    wreck: bool = False
    counter: str = ""
    # an unarmed squad that scrounges a wreck arms only a HS (article, Example 19):
    # [armed HS, unarmed HS], as in A20.551
    split_into: list[str] = []


# ----------------------------------------------------------------- control records
class Undo(Record, tag="undo", frozen=True):
    target: int  # the grp undone


class Redo(Record, tag="redo", frozen=True):
    target: int


class Strike(Record, tag="strike", frozen=True):
    target: int  # the seq struck
    reason: str = ""


class Unstrike(Record, tag="unstrike", frozen=True):
    target: int


DomainEvent = Union[
    GameCreated,
    UnitEntered,
    PhaseSet,
    StatusChanged,
    NoQuarterInvoked,
    GameEnded,
    Surrendered,
    SurrenderRejected,
    Captured,
    MutualCapture,
    Recaptured,
    Transferred,
    Exchanged,
    PrisonerSplit,
    Deployed,
    Abandoned,
    EscortedOff,
    Eliminated,
    CasualtyReduced,
    Massacred,
    EscapeAttempted,
    EscapedBy,
    Rearmed,
    Scrounged,
]
ControlRecord = Union[Undo, Redo, Strike, Unstrike]
AnyRecord = Union[DomainEvent, ControlRecord]
CONTROL_TYPES = (Undo, Redo, Strike, Unstrike)

KIND_TAGS: tuple[str, ...] = tuple(
    cls.__struct_config__.tag
    for cls in AnyRecord.__args__  # type: ignore[attr-defined]
)

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(AnyRecord)


def encode(record: Record) -> bytes:
    return _encoder.encode(record)


def decode(line: bytes) -> Record:
    return _decoder.decode(line)


def is_control(record: Record) -> bool:
    return isinstance(record, CONTROL_TYPES)
