"""Everything that can happen to a game, as records in its log.

Each record is one JSON line. The ``kind`` tag is an explicit string per record type,
so renaming a class never breaks an old log. Every record carries:

* ``seq``: gap-free sequence number, 1 for the game header;
* ``v``:   schema version of the record (older versions are upgraded on read);
* ``grp``: the command group: one player action may yield several events, and undo
  and redo act on the whole group. It is the ``seq`` of the group's first record.

Two families: *domain events* (what happened at the table) and *control records*
(undo, redo, strike, unstrike, amend) which act on earlier records and are never folded
themselves (an amendment's event is folded in the place of the entry it mends).
"""

# No ``from __future__ import annotations`` here: msgspec reads these classes'
# annotations to build their decoders, and each annotation written as a string costs
# it a compile and an eval (some 750 of them, a third of this module's import).
from typing import Annotated, Literal, TypeGuard, get_args

import msgspec
from msgspec import Meta

# The records' bounds without per-string patterns: a log is checked for those in bulk
# (core/model/record_bounds.py); ``STRICT`` is the same records with the patterns, per line.
from stockade.core.model import record_bounds as b
from stockade.core.model.record_decoder import RecordDecoder
from stockade.core.model.victory import Points, VictoryConditions

SCHEMA_VERSION = 1

Phase = Literal["RPh", "PFPh", "MPh", "DFPh", "AFPh", "RtPh", "APh", "CCPh"]
PHASES: tuple[Phase, ...] = ("RPh", "PFPh", "MPh", "DFPh", "AFPh", "RtPh", "APh", "CCPh")


class Record(msgspec.Struct, tag_field="kind", kw_only=True, frozen=True):
    seq: b.Seq = 0
    v: b.Version = SCHEMA_VERSION
    grp: b.Seq = 0
    at: b.Name = ""  # wall-clock time of entry, for display only; never read by rules


# --------------------------------------------------------------------------- set-up
class SideSpec(msgspec.Struct, frozen=True):
    name: b.Name
    nationality: b.Name
    elr: b.Elr = 3


class GameCreated(Record, tag="game", frozen=True):
    scenario: b.Name
    sides: Annotated[list[SideSpec], Meta(max_length=b.MAX_SIDES)]
    program: b.Name = "stockade"
    cvp: b.CvpTable = {}  # scenario overrides of normal CVP per kind
    first_attacker: b.Name = ""
    # the players record every board fact themselves: no entry implies one
    # (docs/rulings.md, "Implied board facts")
    strict: bool = False


class UnitEntered(Record, tag="unit", frozen=True):
    handle: b.Handle
    side: b.Name
    unit_kind: b.Name
    counter: b.Name
    location: b.Name = ""
    traits: b.Traits = []
    cvp: b.Cvp | None = None  # the unit's own normal CVP, when not the table's
    broken: bool = False


class PhaseSet(Record, tag="phase", frozen=True):
    turn: b.Turn
    attacker: b.Name
    phase: Phase


class StatusChanged(Record, tag="status", frozen=True):
    """Broken, pinned, berserk, Melee or Location of a unit, as seen on the board."""

    handle: b.Handle
    broken: bool | None = None
    pinned: bool | None = None
    berserk: bool | None = None
    melee: bool | None = None
    disrupted: bool | None = None
    location: b.Name | None = None
    # set when an A20 entry implied this board fact (recorded with it, in its group):
    # the rule and why, as the reply says it ("A20.21: only a broken unit surrenders")
    implied: b.Text = ""


class NoQuarterInvoked(Record, tag="nq", frozen=True):
    """A side is under No Quarter by scenario rule (A20.3), not by a rejection."""

    side: b.Name
    reason: b.Text = "SSR"


class GameEnded(Record, tag="end", frozen=True):
    pass


# ------------------------------------------------------------------------- captures
class Merge(msgspec.Struct, frozen=True):
    """Two prisoner HS/crew exchanged for one unarmed squad (A20.51)."""

    parts: b.Pair
    into: b.Handle


Merges = Annotated[list[Merge], Meta(max_length=b.MAX_UNITS)]

SurrenderReason = Literal["rtph", "disrupted", "encircled", "hob", "mopup"]


class Surrendered(Record, tag="surrender", frozen=True):
    """A stack surrenders to ``guard`` (A20.21 RtPh; A19.12; A15.5; A12.153 Mopping Up).

    ``freed`` are the excess units the captor frees as Unarmed (A20.21); ``merges``
    exchange prisoner HS pairs into squads so the stack fits the Guard (A20.51).
    """

    units: b.Handles
    guard: b.Handle
    reason: SurrenderReason = "rtph"
    freed: b.Handles = []
    merges: Merges = []
    # A20.21: why other broken units of the Location are not in this stack (e.g. a legal
    # rout path); empty when the stack is every broken unit there
    others_why: b.Text = ""


class SurrenderRejected(Record, tag="reject", frozen=True):
    """The captor rejects a RtPh/Disrupted surrender: No Quarter (A20.3)."""

    units: b.Handles
    by_side: b.Name
    others_why: b.Text = ""  # as in Surrendered (A20.21: rejected as a stack)


class Captured(Record, tag="capture", frozen=True):
    """A CC capture (A20.22): ``units`` all captured; or one HS of squad ``split``.

    For a one-HS result, ``split`` is the squad, ``hs_captured`` and ``hs_free`` the
    handles of its two halves, ``hs_counter`` the free half's counter.
    """

    guard: b.Handle
    units: b.Handles = []
    split: b.Handle | None = None
    hs_captured: b.Handle = ""
    hs_free: b.Handle = ""
    hs_counter: b.Name = ""
    merges: Merges = []
    # an unarmed captor is rearmed by its capture (A20.551): the counter it becomes,
    # when the nationality table has none
    rearm_as: b.Name = ""
    # an unarmed squad rearmed by a HS-size enemy it captures becomes a Green/Conscript
    # HS, the Guard, and an unarmed HS (A20.551, as ``Rearmed.split_into``)
    rearm_split: b.Pair = []
    # of ``units``, the excess the Guard cannot hold: captured, then free as Unarmed
    # (A20.22 takes every defender; A20.5 the Guard guards what it can handle)
    freed: b.Handles = []


class MutualCapture(Record, tag="mutual", frozen=True):
    """A20.221: all opposing units captured/eliminated each other; the rest rearm."""

    units: b.Handles  # every remaining unit and prisoner in the Location
    counters: b.HandleMap = {}  # handle -> the Green/Conscript counter it becomes


class Recaptured(Record, tag="recapture", frozen=True):
    """Unarmed units recaptured by CC or by entering their Location in the MPh (A20.54)."""

    units: b.Handles
    guard: b.Handle
    merges: Merges = []


# --------------------------------------------------------------------------- guards
class Transferred(Record, tag="transfer", frozen=True):
    units: b.Handles
    to_guard: b.Handle
    merges: Merges = []


class Exchanged(Record, tag="exchange", frozen=True):
    """Two prisoner HS/crew <-> one unarmed squad (A20.51). ``split`` reverses."""

    parts: b.Pair
    into: b.Handle


class PrisonerSplit(Record, tag="split", frozen=True):
    """A prisoner squad split into two prisoner HS ("Making Prisoners Work for You")."""

    handle: b.Handle
    into: b.Pair


class Deployed(Record, tag="deploy", frozen=True):
    """An unbroken Guard squad deploys into two HS at any time (A20.5)."""

    handle: b.Handle
    into: b.Pair
    counters: b.Counters
    # which new HS guards which prisoner; prisoners not named stay with into[0]
    assign: b.HandleMap = {}


class Abandoned(Record, tag="abandon", frozen=True):
    units: b.Handles


class EscortedOff(Record, tag="escort", frozen=True):
    """Guard and prisoners leave by a Friendly Board Edge (A20.53)."""

    guard: b.Handle


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

    handle: b.Handle
    cause: EliminationCause = "other"
    by_side: b.Name = ""
    takeover: b.Handle | None = None
    keep: b.Handles = []


class CasualtyReduced(Record, tag="reduce", frozen=True):
    """Casualty Reduction (A7.302; for prisoners and unarmed units, A20.54).

    A squad becomes a HS (``lost`` names the part lost when the squad was formed from
    two); a HS or crew is eliminated.
    """

    handle: b.Handle
    cause: EliminationCause = "fire-enemy"
    counter: b.Name = ""  # the HS counter a reduced armed squad becomes
    lost: b.Handle = ""
    by_side: b.Name = ""  # whose fire: an abandoned unit reduced by its abandoner is a Massacre
    # a Guard squad reduced to a HS guards US# 10 at most: the prisoners it keeps
    # (the rest are freed, A20.5); by default as many as fit, in order
    keep: b.Handles = []


class Massacred(Record, tag="massacre", frozen=True):
    """A20.4: ``by`` eliminates unarmed units in its Location in its fire phase."""

    units: b.Handles
    by: b.Handle


# ---------------------------------------------------------------- escape and rearm
EscapeOutcome = Literal["no-effect", "melee", "escaped"]


class EscapeAttempted(Record, tag="escape", frozen=True):
    """Prisoners attack their Guard in the CCPh (A20.55).

    ``ntc_failed``: prisoners that failed the NTC and so did not attack (outside Melee).
    ``killed``: prisoners eliminated while escaping (normal CVP, A20.55).
    ``guard_eliminated``: the prisoners eliminated their Guard.
    ``outcome``: ``escaped`` only when no enemy but prisoners remains in the Location.
    """

    units: b.Handles
    ntc_failed: b.Handles = []
    killed: b.Handles = []
    guard_eliminated: bool = False
    outcome: EscapeOutcome = "no-effect"
    own_borders: bool = False  # A20.55 EXC: Axis Minors in own borders vs Russians


EscapeRoute = Literal["withdrawal", "infiltration", "guard-infiltrated"]


class EscapedBy(Record, tag="escaped", frozen=True):
    """Escape by Withdrawal from Melee (A11.2) or Infiltration (A11.22)."""

    units: b.Handles
    route: EscapeRoute
    own_borders: bool = False  # A20.55 EXC: Axis Minors in own borders vs Russians


RearmHow = Literal["cc", "alone", "surrender", "smc-escaped"]


class Rearmed(Record, tag="rearm", frozen=True):
    """An unarmed unit becomes a Green/Conscript unit of its size (A20.551)."""

    handle: b.Handle
    how: RearmHow
    enemy: b.Handle = ""  # the armed enemy unit eliminated/captured/surrendered
    counter: b.Name = ""  # the counter it becomes
    split_into: b.Pair = []  # unarmed squad + HS enemy: [armed HS, unarmed HS]


class Scrounged(Record, tag="scrounge", frozen=True):
    """A Scrounging DR (A20.552): a 2 rearms; vs a wreck (D10.5) a dr 1-3 up to HS size."""

    handle: b.Handle
    roll: b.Roll
    wreck: bool = False
    counter: b.Name = ""
    # an unarmed squad that scrounges a wreck arms only a HS (article, Example 19):
    # [armed HS, unarmed HS], as in A20.551
    split_into: b.Pair = []


# ------------------------------------------------------------ victory conditions
class VictorySet(Record, tag="vc", frozen=True):
    """The scenario's Victory Conditions from here on (``None``: none kept)."""

    conditions: VictoryConditions | None = None


class Exited(Record, tag="exit", frozen=True):
    """Units exit off a board edge for Exit VP. ``vp``: each unit's Exit VP when the
    player gives it; else the standard value (its CVP). A Guard exits with its
    prisoners, who count as escorted off (A20.53, A20.1)."""

    units: b.Handles
    edge: b.Name = ""
    vp: Points | None = None


class LocationControlled(Record, tag="control", frozen=True):
    """The players set who controls a Location ("" = nobody)."""

    location: b.Name
    side: b.Name = ""


# ----------------------------------------------------------------- control records
class Undo(Record, tag="undo", frozen=True):
    target: b.Seq  # the grp undone


class Redo(Record, tag="redo", frozen=True):
    target: b.Seq


class Strike(Record, tag="strike", frozen=True):
    target: b.Seq  # the seq struck
    reason: b.Text = ""


class Unstrike(Record, tag="unstrike", frozen=True):
    target: b.Seq


# What an amendment may put in an entry's place: any event but the game header.
AmendableEvent = (
    UnitEntered
    | PhaseSet
    | StatusChanged
    | NoQuarterInvoked
    | GameEnded
    | Surrendered
    | SurrenderRejected
    | Captured
    | MutualCapture
    | Recaptured
    | Transferred
    | Exchanged
    | PrisonerSplit
    | Deployed
    | Abandoned
    | EscortedOff
    | Eliminated
    | CasualtyReduced
    | Massacred
    | EscapeAttempted
    | EscapedBy
    | Rearmed
    | Scrounged
    | VictorySet
    | Exited
    | LocationControlled
)
# msgspec decodes a tagged union of Structs; the tag is each class's ``tag=``.
DomainEvent = GameCreated | AmendableEvent


class Amend(Record, tag="amend", frozen=True):
    """Entry ``target`` is mended where it stands: ``event`` takes its place in the
    effective history, carrying the target's ``seq`` and ``grp``, so every later entry
    is folded after it as if it had been typed so at first. The amendment is its own
    command group: one undo takes it back and the entry reads as it was. Nothing is
    deleted: the original record stays in the log, and a later amendment of the same
    entry stands over an earlier one."""

    target: b.Seq
    event: AmendableEvent
    reason: b.Text = ""


ControlRecord = Undo | Redo | Strike | Unstrike | Amend
AnyRecord = DomainEvent | ControlRecord
CONTROL_TYPES = (Undo, Redo, Strike, Unstrike, Amend)

KIND_TAGS: tuple[str, ...] = tuple(cls.__struct_config__.tag for cls in get_args(AnyRecord))

_encoder = msgspec.json.Encoder()
# Every record, with the bounds but the string patterns: the one decoder a game log is
# read with (``core.log.game_log``), made on first use (~9 M instructions: msgspec reads
# every record class's annotations), a short log's with its own kinds only
# (``core.model.record_decoder``). A union is not a ``type[T]``, so mypy cannot infer
# the decoder's type from it: say it (a ``Record``, as the log's format reads them).
DECODER: RecordDecoder[Record] = RecordDecoder(AnyRecord)
# The same records with every string pattern of core/model/bounds.py: what a line must pass
# (its ValidationError is the refusal a player reads). The classes above are declared
# without the patterns, which a log reader checks in bulk (``STRICT.vouch``).
STRICT = b.Strict(AnyRecord)


def encode(record: Record) -> bytes:
    return _encoder.encode(record)


def decode(line: bytes) -> Record:
    """One record, held to every bound (the strict decoder first, for its refusal)."""
    STRICT.decoder.decode(line)
    return DECODER.decode(line)


def is_control(record: Record) -> TypeGuard[ControlRecord]:
    return isinstance(record, CONTROL_TYPES)


def kind_of(record: Record) -> str:
    """The record's ``kind`` tag (msgspec types tags as str | int | None; every record
    class here is tagged with a string)."""
    tag = record.__struct_config__.tag
    assert isinstance(tag, str), f"{type(record).__name__} has no string tag"
    return tag
