"""A counter in play (``Unit``), its standings, and the ``ChangeTracker`` its sets report to.

Separate from ``core.model.state`` because this is the machinery under the state, not
the state: the ``__setattr__`` hooks that record pre-images for undo and list the units
the indexes must refile, the fast ``Unit.__init__``, and the copies that clones and
views make. ``GameState`` and ``Side`` are built on it; the indexes read its lists.
A unit as a snapshot's row lays it out is ``core.model.laid_out_unit``'s.
"""

from __future__ import annotations

import _thread  # threading's Lock itself, without importing threading (~2 M instructions)
import dataclasses
import operator
import weakref
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Protocol, TypeVar

from stockade.core.model.unit_layout import more_of, split_layout
from stockade.core.model.units import INFANTRY_KINDS, SMC_KINDS, us_number

# A unit's standing on the board.
ACTIVE = "active"  # on the board, armed (or an unarmed SMC? never: SMC rearm at once)
PRISONER = "prisoner"  # unarmed, above its Guard
UNARMED = "unarmed"  # unarmed, free: abandoned, escaped or freed
ELIMINATED = "eliminated"
ESCORTED = "escorted"  # left by a Friendly Board Edge (with its Guard, or as a prisoner)
EXITED = "exited"  # exited off a board edge for Exit VP
GONE = "gone"  # exchanged into another counter (merged, split, deployed)


# Units whose ``status`` or ``guard`` was set are listed in their tracker, in order: the
# state's prisoner index reads the entries after the last one it saw and refiles just
# those units (instead of rescanning every unit of a long campaign); likewise units
# whose ``status`` or ``location`` was set, for the Location index (two lists: units move
# all the time, and the prisoner index has no use for a move). Past this many entries
# the lists are trimmed, which bumps the epoch: the indexes rebuild once.
DIRTY_LIMIT = 200_000


class TrackedView(Protocol):
    """What the tracker needs of what read-only views share with the live state (the
    ``SharedTable`` of ``core.model.shared_table``): its unit table, and a word when a
    unit in it was replaced by its copy."""

    units: dict[str, Unit]

    def unit_replaced(self) -> None: ...


class ChangeTracker:
    """What the objects of one live state tell about their changes, in one place.

    Every Unit and Side of a state, and the state itself, point at the same tracker
    (their ``_tracker`` slot), so their ``__setattr__`` hooks can:

    * record pre-images for undo: while the projection (``core.book.projection``) folds an
      event it points ``rec`` at that event's undo entry (and back to None after), and
      every attribute set on a tracked object is appended to it as (object, name, old
      value);
    * list units whose ``status`` or ``guard`` changed (``dirty``, ``epoch``), read
      lazily by the state's prisoner index, and those whose ``status`` or ``location``
      changed (``moved``), read by its Location index;
    * keep read-only views made by ``state_at`` still: they share unchanged Unit
      objects with the live state (through a ``SharedTable``), and a unit about to
      change is first copied into every registered table that still holds it.

    Clones get a tracker of their own, so nothing passes between states.
    """

    __slots__ = ("rec", "dirty", "moved", "epoch", "views", "lock")

    def __init__(self) -> None:
        self.rec: list[Any] | None = None
        self.dirty: list[Unit] = []
        self.moved: list[Unit] = []
        self.epoch = 0
        self.views: list[weakref.ref[TrackedView]] = []
        self.lock = _thread.allocate_lock()  # views are made in a worker thread (TUI replay)

    def __deepcopy__(self, memo: dict[int, Any]) -> ChangeTracker:
        return ChangeTracker()  # a deep copy is a new state: it starts untracked-clean

    def register_view(self, view: TrackedView) -> None:
        with self.lock:
            self.views[:] = [ref for ref in self.views if ref() is not None]
            self.views.append(weakref.ref(view))

    def preserve(self, unit: Unit) -> None:
        """Give every view that still shares ``unit`` its own copy (before it changes)."""
        dead = False
        for ref in tuple(self.views):
            view = ref()
            if view is None:
                dead = True
                continue
            units = view.units
            if units.get(unit.handle) is unit:
                units[unit.handle] = clone_unit(unit)
                view.unit_replaced()  # indexes that held the old object rebuild
        if dead:
            with self.lock:
                self.views[:] = [ref for ref in self.views if ref() is not None]

    def trim(self) -> None:
        self.dirty.clear()
        self.moved.clear()
        self.epoch += 1


class Tracked:
    """The slot that ties an object to its state's ChangeTracker (unset: untracked,
    e.g. a temporary unit a rule builds to ask a question, or a view's own copy)."""

    __slots__ = ("_tracker",)
    _tracker: ChangeTracker | None

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        # The slot starts as None (untracked), not unset: a dataclass ``__init__`` sets
        # every field through ``__setattr__``, and reading an unset slot raises an
        # AttributeError each time (a new Unit cost 14 µs instead of 3).
        self = super().__new__(cls)
        object.__setattr__(self, "_tracker", None)
        return self

    def _track(self, tracker: ChangeTracker | None) -> None:
        object.__setattr__(self, "_tracker", tracker)


# One or more per unit: slotted, no ``__dict__`` each. Its methods are written here, as
# ``@dataclass`` would compile them from source (~1 M instructions at every start):
# the same arguments, repr, equality and ``__hash__`` (None), and a call as fast.
@dataclass(slots=True, init=False, repr=False, eq=False)
class Origin:
    """What a prisoner counter stands for, for VP: a crew stays a crew (A20.5)."""

    handle: str
    unit_kind: str
    counter: str
    cvp: int

    def __init__(self, handle: str, unit_kind: str, counter: str, cvp: int) -> None:
        self.handle = handle
        self.unit_kind = unit_kind
        self.counter = counter
        self.cvp = cvp

    def __repr__(self) -> str:
        return (
            f"{type(self).__qualname__}(handle={self.handle!r}, unit_kind={self.unit_kind!r}, "
            f"counter={self.counter!r}, cvp={self.cvp!r})"
        )

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.handle, self.unit_kind, self.counter, self.cvp) == (
            other.handle,
            other.unit_kind,
            other.counter,
            other.cvp,
        )

    __hash__ = None  # type: ignore[assignment]  # compared, mutable: as a dataclass's


class _Fields(Tracked):
    """A slotted object's fields read as a mapping: ``obj.__dict__`` is a read-only
    copy of them, in their order (readers written for a dataclass's ``__dict__`` keep
    working; a write through it raises, never lost silently).

    ``_named``: the unit's last name as the fold's name book made it (a
    ``core.model.names.Name``), unset or None when not made, or dropped because one of
    the fields the label is made of was set (``NAMED_BY``). Not a field: never
    copied, recorded, undone or kept in the snapshot; made again from the fields."""

    __slots__ = ("_named",)
    _named: tuple[str, str, str] | None
    # a Unit's slots besides its fields (``core.model.unit_layout``)
    _more: dict[str, Any] | None
    _origins: list[Origin] | None
    _field_names: ClassVar[tuple[str, ...]]  # every field, in order

    @property
    def __dict__(self) -> Mapping[str, Any]:  # type: ignore[override]
        names = type(self)._field_names
        return MappingProxyType(dict(zip(names, _GETTERS[names](self), strict=True)))


# The fields only a unit that was captured, freed, lost, in Melee or given a note sets:
# kept in one optional mapping (``core.model.unit_layout``), not a slot each. In the
# order they are declared in (fields 17-34, then the last): ``_fill`` reads them so.
RARELY_SET = (
    "unarmed_how",
    "abandoned_by",
    "captured_seq",
    "captured_how",
    "captured_at",
    "captured_clock",
    "captured_traits",
    "captured_broken",
    "surrendered_to",
    "rearm_spent",
    "cc_attackers",
    "lost_clock",
    "lost_in_cc",
    "melee_clock",
    "escape_clock",
    "melee_end_seq",
    "split_from",
    "ended_seq",
    "note",
)


# A Unit's fields are slots: a campaign holds one per counter, and a ``__dict__`` of its
# 39 fields is past what CPython shares between instances (30 keys), so each unit paid
# a table of its own (~1.6 KB); slots cost 8 bytes a field, and the rarely set fields
# (``RARELY_SET``) share one slot. ``origins`` is kept in the slot ``_origins``: None
# while it is the one counter the unit entered as (``entered_origin``), as most are.
@split_layout(rare=RARELY_SET, own=("origins",))
class Unit(_Fields):
    """A counter in play: who owns it, what it is, where it is and what became of it."""

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
    # A20.221: when (turn/attacker/phase) a CC capture took it, and what it was, so a
    # capture voided by simultaneous CC can give the unit back as it was
    captured_clock: str = ""
    captured_traits: frozenset[str] = frozenset()
    captured_broken: bool = False
    surrendered_to: str = ""  # side it surrendered to (A20.551 rearm by surrender)
    rearm_spent: bool = False  # this enemy already rearmed one unarmed unit (A20.551)
    # A20.551 "for each armed enemy unit it eliminated ... in CC": the units whose CC
    # attack eliminated it, when the log names them (an escape); only one of them rearms
    cc_attackers: frozenset[str] = frozenset()
    # A20.551 "rearmed immediately": the phase ("turn/ATTACKER/phase") in which this
    # unit was eliminated, captured or surrendered; a rearm from it is made in that phase
    lost_clock: str = ""
    # A20.551 "it eliminated/captured in CC": the log proves the loss was in CC (an
    # escape's CC, an elimination "by cc" or with no cause in a CCPh, a CC capture)
    lost_in_cc: bool = False
    # A20.55 "Withdrawal ... in a subsequent CCPh": the phase its Melee began in
    melee_clock: str = ""
    # A20.55 "This attack can only occur during the CCPh": the CCPh in which it last
    # attempted escape (attacked, or failed its NTC); one attempt per CCPh
    escape_clock: str = ""
    melee_end_seq: int = 0  # the entry whose outcome ended its Melee (none left to fight)
    split_from: str = ""  # the squad a one-HS CC capture split it from (A20.221 undoes it)
    ended_seq: int = 0  # seq that eliminated/escorted/merged it
    # How the book knows its board facts (docs/rulings.md, "Implied board facts"): the
    # phase ("turn/ATTACKER/phase") in which a board entry the players typed (break,
    # rally, move) last set its broken state / its Location, "" when the value comes
    # from the set-up or was implied by an A20 entry; and the phase its Location was
    # last set in by any entry (a unit moves once into a CC, not twice in one phase).
    broken_told: str = ""
    location_told: str = ""
    placed_clock: str = ""
    note: str = ""

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return bool(unit_values(self) == unit_values(other))

    __hash__ = None  # type: ignore[assignment]  # mutable: as a dataclass's

    def __repr__(self) -> str:
        pairs = zip(UNIT_FIELDS, unit_values(self), strict=True)
        return "Unit(" + ", ".join(f"{n}={v!r}" for n, v in pairs) + ")"

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

    def __setattr__(self, name: str, value: Any) -> None:
        try:
            t = self._tracker
        except AttributeError:  # untracked: being built, or a temporary
            t = None
        if t is not None:
            try:
                old = _get_field(self, name)
            except AttributeError:  # not set yet: no pre-image
                pass
            else:
                if t.views:
                    t.preserve(self)  # a state_at view still shares this unit: give it a copy
                rec = t.rec
                if rec is not None and old is not value:
                    rec.extend((self, name, old))  # pre-image, for undo (core.book.projection)
            # the state's prisoner and Location indexes refile it lazily
            if name == "location":
                t.moved.append(self)
            elif name == "status":
                t.dirty.append(self)
                t.moved.append(self)
            elif name == "guard":
                t.dirty.append(self)
        if name in NAMED_BY:
            _set_field(self, "_named", None)  # its label is made again when next named
        if name in ORIGIN_OF:
            try:
                kept = _get_field(self, "_origins")
            except AttributeError:  # being built (a copy module's copy): nothing to keep
                kept = ()
            if kept is None:
                _set_field(self, "_origins", [entered_origin(self)])  # what it stood for stays
        _set_field(self, name, value)


def entered_origin(u: Unit) -> Origin:
    """The one counter a unit stands for while it is what it entered as."""
    return Origin(u.handle, u.unit_kind, u.counter, u.cvp)


def _get_origins(u: Unit) -> list[Origin]:
    origins = u._origins
    return [entered_origin(u)] if origins is None else origins


def _set_origins(u: Unit, origins: list[Origin]) -> None:
    # kept as given (no test against the fields): a view's copy sets its fields back
    # without the hooks, in any order, and a list kept is right in every order
    _set_field(u, "_origins", origins)


Unit.origins = property(_get_origins, _set_origins)  # type: ignore[assignment]

# The fields ``entered_origin`` is made of: setting one first keeps the origin.
ORIGIN_OF = frozenset(("handle", "unit_kind", "counter", "cvp"))


def _as_entered(origins: Any, handle: str, unit_kind: str, counter: str, cvp: int) -> bool:
    """Is ``origins`` the one the fields make (``entered_origin``)?"""
    if type(origins) is not list or len(origins) != 1:
        return False
    o = origins[0]
    return (
        type(o) is Origin
        and o.handle == handle
        and o.unit_kind == unit_kind
        and o.counter == counter
        and o.cvp == cvp
    )


# The fields a unit's label (``core.model.names.label``) is made of: setting one drops
# the name kept on the unit (a set, even of an equal value, makes it again).
NAMED_BY = frozenset(("side", "counter", "origins"))


# A new Unit is untracked, so a dataclass ``__init__`` setting each of its 39 fields
# through ``__setattr__`` paid 39 Python calls (a campaign's fold makes one per
# counter). This one fills a list of every field (the defaults, then the given ones) and
# sets the slots from it with ``set_fields``: the same fields, defaults and errors
# (tests/log/test_core_fast_open.py holds it to the dataclass).
UNIT_FIELDS = tuple(f.name for f in dataclasses.fields(Unit))  # every field, in order
_UNIT_FIELD_SET = frozenset(UNIT_FIELDS)
_AT = {name: i for i, name in enumerate(UNIT_FIELDS)}
_NO_VALUE = object()
assert all(f.default_factory is dataclasses.MISSING for f in dataclasses.fields(Unit)), (
    "a factory default: not made here"
)
_DEFAULTS: tuple[Any, ...] = tuple(
    _NO_VALUE if f.default is dataclasses.MISSING else f.default for f in dataclasses.fields(Unit)
)
_N_REQUIRED = sum(value is _NO_VALUE for value in _DEFAULTS)  # the first ones
# the required fields from the n-th on, which keyword arguments must give
_REQUIRED_FROM = [frozenset(UNIT_FIELDS[n:_N_REQUIRED]) for n in range(_N_REQUIRED + 1)]
_GETTERS = {UNIT_FIELDS: operator.attrgetter(*UNIT_FIELDS)}
_set_field = object.__setattr__
_get_field = object.__getattribute__


class BareUnit(_Fields):
    """A Unit's slots without its hooks: a unit is filled as one (plain slot stores,
    ~6x faster than calling each slot's setter) and then made a Unit (the same
    layout, so ``__class__`` may be set)."""

    __slots__ = Unit.__slots__


_RARE_DEFAULTS = tuple(_DEFAULTS[_AT[name]] for name in RARELY_SET)
_N_RARE = len(RARELY_SET)


def _fill(o: Any, values: Iterable[Any]) -> None:
    """One unpacking store of every field (in order, written out: a test checks it
    against the dataclass's): the slots, ``_origins`` (None when ``entered_origin``
    would make it) and ``_more`` (the rarely set fields not at their default)."""
    (
        o.handle,
        o.side,
        o.unit_kind,
        o.counter,
        o.created,
        o.cvp,
        origins,
        o.traits,
        o.status,
        o.armed,
        o.broken,
        o.pinned,
        o.berserk,
        o.melee,
        o.disrupted,
        o.location,
        o.guard,
        *rare,
        o.broken_told,
        o.location_told,
        o.placed_clock,
        note,
    ) = values
    rare.append(note)
    if len(rare) != _N_RARE:
        raise ValueError(f"{len(rare) - _N_RARE:+} values for a unit's fields")
    o._more = more_of(RARELY_SET, _RARE_DEFAULTS, tuple(rare))
    o._origins = None if _as_entered(origins, o.handle, o.unit_kind, o.counter, o.cvp) else origins


def unit_values(u: Unit) -> tuple[Any, ...]:
    """Every field of ``u``, in the dataclass's order."""
    values: tuple[Any, ...] = _GETTERS[UNIT_FIELDS](u)
    return values


def make_unit(values: Iterable[Any]) -> Unit:
    """An untracked Unit with ``values`` as its fields (in the dataclass's order),
    made without the hooks (no one else holds it yet)."""
    bare: Any = BareUnit.__new__(BareUnit)
    _fill(bare, values)  # ValueError unless there is one value a field
    bare.__class__ = Unit
    unit: Unit = bare
    return unit


def set_fields(u: Unit, values: Iterable[Any]) -> None:
    """Set every field of ``u`` from ``values`` (in the dataclass's order), without
    the hooks: for a unit being made, which no one else holds yet."""
    _set_field(u, "__class__", BareUnit)
    try:
        _fill(u, values)
    finally:
        _set_field(u, "__class__", Unit)


def _unit_init(self: Unit, *args: Any, **kwargs: Any) -> None:
    values = list(_DEFAULTS)
    if args:
        if len(args) > len(UNIT_FIELDS) or not kwargs.keys().isdisjoint(UNIT_FIELDS[: len(args)]):
            raise TypeError(f"Unit() got {len(args)} positional arguments or one twice")
        values[: len(args)] = args
    if not kwargs.keys() <= _UNIT_FIELD_SET:
        raise TypeError(f"Unit() got unexpected fields {sorted(kwargs.keys() - _UNIT_FIELD_SET)}")
    for name, value in kwargs.items():
        values[_AT[name]] = value
    if not _REQUIRED_FROM[min(len(args), _N_REQUIRED)] <= kwargs.keys():
        missing = [n for n, value in zip(UNIT_FIELDS, values, strict=True) if value is _NO_VALUE]
        raise TypeError(f"Unit() missing required arguments {missing}")
    set_fields(self, values)


Unit.__init__ = _unit_init  # type: ignore[method-assign]  # callers see the dataclass's


def record_set(obj: Tracked, name: str, value: Any) -> None:
    """Set ``name`` on a Side or the state, recording the pre-image while an event
    folds. The slot is read directly (a ``getattr`` with a default cost a fifth of
    every set, and the fold sets the state's ``last_seq`` once an event)."""
    d = obj.__dict__
    if name in d:
        old = d[name]
        if old is not value:
            try:
                t = obj._tracker
            except AttributeError:  # made without __new__ (read from the snapshot cache)
                t = None
            if t is not None:
                rec = t.rec
                if rec is not None:
                    rec.extend((obj, name, old))
    d[name] = value


_T = TypeVar("_T")


def copy_obj(obj: _T) -> _T:
    """A shallow copy of a dataclass's fields, without ``__init__``; the copy is
    untracked (its ``_tracker`` slot is not copied)."""
    clone: _T = object.__new__(type(obj))
    clone.__dict__.update(obj.__dict__)
    return clone


def clone_unit(u: Unit) -> Unit:
    """An untracked copy of ``u`` with copies of its origins, kept as ``u`` keeps them
    (a view's copy has its fields set back without the hooks)."""
    clone = make_unit(_GETTERS[UNIT_FIELDS](u))
    kept = u._origins
    if kept is not None:
        copies = [Origin(o.handle, o.unit_kind, o.counter, o.cvp) for o in kept]
        _set_field(clone, "_origins", copies)
    return clone
