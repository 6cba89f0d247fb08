"""What a verb's declaration is made of: each ``Slot`` (one field of the verb's
``Command``, ``core.commands.command``), the ``Kind`` of what it holds, and the
``VerbSpec`` that lists them with the verb's usage, summary, example and aliases.

A ``Slot`` is one field of the verb's ``Command``: its name, what it holds (``Kind``),
the keyword that introduces it ("" for the words right after the verb), which units it
offers first, its label in a form and the core query that fills its picker. The parser
splits a line by these keywords and reads each slot by its kind; ``str(command)``
writes the slots back in this order; ``help``, completion and the TUI's forms read the
same declarations (every verb's: ``grammar.VERBS``).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum

import msgspec

from stockade.core.commands import picks as p
from stockade.core.commands.lexer import FLAG, MANY, ONE
from stockade.core.model import events as ev
from stockade.core.model.state import GameState

# ``by WORD`` of an elimination; "fire" is the players' word for enemy fire
CAUSES = ("own", "enemy", "fire", "cc", "sniper", "rout", "other")
SURRENDER_REASONS: tuple[ev.SurrenderReason, ...] = ("disrupted", "encircled", "hob", "mopup")
REARM_HOWS: tuple[ev.RearmHow, ...] = ("cc", "alone", "surrender")
NO_TAKEOVER = "-"
# A word "@P4" in a units slot (H...) names the stack in P4: every unit there the slot
# offers. "@" marks it, so a Location never reads as a handle ("p4" of the Poles).
STACK_MARK = "@"


class Kind(Enum):
    """What a slot holds, so that each reader, writer, completer and form knows it."""

    UNIT = "unit"  # one handle of a unit in the game
    UNITS = "units"  # one or more handles
    SIDE = "side"  # a side's name
    COUNTER = "counter"  # a counter as printed: 4-6-7
    COUNTERS = "counters"  # add's counters with their words; deploy's HS counters
    LOCATION = "loc"  # a hex or Location as the board names it
    NUMBER = "int"  # a whole number
    TEXT = "text"  # free words
    WORD = "word"  # one word as typed
    FLAG = "flag"  # a keyword alone: on or off
    ONE_OF = "one-of"  # one of ``choices``, each a keyword alone (surrender's reason)
    CHOICE = "choice"  # one word of ``choices`` in its place
    CAUSE = "cause"  # a cause word or a side's name
    TAKEOVER = "takeover"  # a unit, or "-" for nobody
    PHASE = "phase"  # a phase's name
    MERGES = "merge"  # H+H[=NEW] pairs
    NEW_HANDLE = "new"  # a handle for a counter the command makes
    NEW_HANDLES = "news"  # two of them
    PAIR = "pair"  # one H or H=COUNTER
    ASSIGN = "assign"  # H or H=COUNTER, one or more
    VERB = "verb"  # a verb, a rule or "rulings" (help's topic)


_MANY_KINDS = frozenset(
    {Kind.UNITS, Kind.COUNTERS, Kind.TEXT, Kind.MERGES, Kind.NEW_HANDLES, Kind.ASSIGN}
)
_UNIT_KINDS = frozenset({Kind.UNIT, Kind.UNITS, Kind.TAKEOVER, Kind.PAIR, Kind.ASSIGN})


class Slot(msgspec.Struct, frozen=True):
    name: str  # the Command's field
    kind: Kind
    keyword: str = ""  # "" = the words right after the verb
    label: str = ""  # what a form calls it; "(optional)" in it when it may stay empty
    which: str = "any"  # the units offered first (a key of ``picks.UNIT_FILTERS``)
    picks: p.Picks | None = None  # the core query for its picker; None: the ``which`` filter
    required: bool = False
    choices: tuple[str, ...] = ()  # CHOICE / ONE_OF: the words it takes
    meanings: tuple[str, ...] = ()  # what each of ``choices`` says happened, in order
    # Required, yet a line may leave it out when the game allows only one value: the
    # parser fills it from ``choices`` / ``picks`` (``command.fill_left_out``). Only a
    # trailing positional slot can be seen to be missing, so only those take it.
    fill_when_single: bool = False
    # ``@LOC`` in this units slot takes the units of both sides there (a Melee is
    # between both sides' units in one Location, A11); else those of one side
    both_sides: bool = False
    # Whether the slot's question applies to this game at all (None: always); a form
    # shows the field only where it does.
    asked: Callable[[GameState], bool] | None = None
    # where ``asked`` holds, as help out of a game says it ("an Axis Minor side ...")
    applies: str = ""

    def stack_fits(self, sides: int) -> bool:
        """Whether ``@LOC`` may take the units of ``sides`` sides this slot fits there:
        both for a Melee (A11), else one (the bar offers, and the parser takes, only
        such a Location)."""
        return sides == 2 if self.both_sides else sides == 1

    @property
    def arity(self) -> str:
        if self.kind in (Kind.FLAG, Kind.ONE_OF):
            return FLAG
        return MANY if self.kind in _MANY_KINDS else ONE

    @property
    def is_unit(self) -> bool:
        return self.kind in _UNIT_KINDS

    @property
    def keywords(self) -> tuple[str, ...]:
        """The words that introduce this slot on a line."""
        if self.kind is Kind.ONE_OF:
            return self.choices
        return (self.keyword,) if self.keyword else ()

    @property
    def called(self) -> str:
        """The slot as a reply or help names it: "how", "armed enemy"."""
        return (self.label.split(" (")[0] or self.name).lower().removeprefix("the ")

    @property
    def usage_words(self) -> str:
        """The slot as a usage writes it, for one asked only in some games: [own-borders]."""
        return "[" + "|".join(self.keywords) + "]"

    def offers(self) -> p.Picks:
        """The list a picker shows for this slot (a unit slot)."""
        return self.picks or p.plain(self.which)


class VerbSpec(msgspec.Struct, frozen=True):
    name: str
    usage: str
    summary: str
    example: str
    aliases: tuple[str, ...] = ()
    slots: tuple[Slot, ...] = ()

    def usage_in(self, state: GameState | None = None) -> str:
        """The usage as ``state``'s game asks it: ``usage`` (the slots every game asks),
        then each slot asked only in some games where this one asks it; out of a game
        (``None``), every such slot."""
        extra = [slot.usage_words for slot in self.slots_in(state) if slot.asked is not None]
        return " ".join([self.usage, *extra])

    def slots_in(self, state: GameState | None = None) -> list[Slot]:
        """The slots ``state``'s game asks (out of a game, ``None``: every one)."""
        return [
            slot for slot in self.slots if slot.asked is None or state is None or slot.asked(state)
        ]

    def where_asked(self) -> list[str]:
        """For help out of a game: each slot asked only in some games, and where."""
        return [
            f"{'/'.join(slot.keywords)}: asked only in a game with {slot.applies}"
            for slot in self.slots
            if slot.asked is not None
        ]

    @property
    def arity(self) -> dict[str, str]:
        """How many words each keyword takes, for splitting a line into sections."""
        return {word: slot.arity for slot in self.slots for word in slot.keywords}

    @property
    def keyword_slots(self) -> dict[str, Slot]:
        return {word: slot for slot in self.slots for word in slot.keywords}

    @property
    def positional(self) -> tuple[Slot, ...]:
        """The slots read from the words right after the verb, in order."""
        return tuple(s for s in self.slots if not s.keywords)

    def slot(self, name: str) -> Slot:
        return next(s for s in self.slots if s.name == name)


def units_slot(name: str, label: str, which: str, picks: p.Picks | None = None) -> Slot:
    return Slot(name, Kind.UNITS, label=label, which=which, picks=picks, required=True)


def unit_slot(name: str, label: str, which: str, picks: p.Picks | None = None) -> Slot:
    return Slot(name, Kind.UNIT, label=label, which=which, picks=picks, required=True)
