"""A scenario's Victory Conditions as data, and what the game keeps for judging them.

A card's Victory Conditions are a list of *clauses*: "the Germans win at game end if
...", "the Russians win immediately upon ...", "the Americans lose if they suffer ...".
Each clause's condition is an *or* of *and*s of tests (what "A and B or C" reads as,
``and`` binding tighter), each test one of:

* ``Compare``: a side's measure (CVP amassed or suffered, Exit VP, or both VP together)
  against a number or against another side's same measure;
* ``Controls``: a side controls all (or at least N) of some Locations.

``otherwise`` says who wins when no clause is met: a side, ``draw``, or "" (the other
side of the first clause's side when every clause names the same side; else a draw).
The card's own words are kept beside the data (``card``) and the clauses as typed
(``source``), so the player can read and re-enter them.

``VictoryBook`` is the game state's part for the verdict: the conditions in force, the
units exited (Exit VP) and the Location control the players have set. It is frozen and
replaced whole by each change, so undo restores it like any other field.
"""

# No ``from __future__ import annotations``: msgspec reads these classes' annotations
# (every game record holds the conditions), and one written as a string costs it a
# compile and an eval each.
from collections.abc import Iterator, Sequence
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from stockade.core.model import record_bounds as b
from stockade.core.model.book_rows import AppendRows, ControlRows

Measure = Literal["amassed", "suffered", "exit", "vp"]
Op = Literal[">=", ">", "<=", "<", "="]
When = Literal["immediately", "end"]
DRAW = "draw"

MAX_CLAUSES = 16
MAX_TERMS = 16
MAX_LOCATIONS = 64
MAX_POINTS = 9_999

Points = Annotated[int, Meta(ge=0, le=MAX_POINTS)]

# How each measure reads in a sentence: "German CVP amassed 22".
MEASURE_WORDS: dict[str, str] = {
    "amassed": "CVP amassed",
    "suffered": "CVP suffered",
    "exit": "Exit VP",
    "vp": "VP (CVP amassed + Exit VP)",
}


class Compare(msgspec.Struct, tag="compare", frozen=True, kw_only=True):
    side: b.Name
    measure: Measure
    op: Op
    number: Points | None = None  # compared with this number ...
    other: b.Name = ""  # ... or with this side's same measure
    edge: b.Name = ""  # Exit VP: only units exited off this edge ("" = any edge)


class Controls(msgspec.Struct, tag="controls", frozen=True, kw_only=True):
    side: b.Name
    locations: Annotated[list[b.Name], Meta(min_length=1, max_length=MAX_LOCATIONS)]
    at_least: Annotated[int, Meta(ge=0, le=MAX_LOCATIONS)] = 0  # 0: all of them


Term = Compare | Controls
Terms = Annotated[list[Term], Meta(min_length=1, max_length=MAX_TERMS)]


class Clause(msgspec.Struct, frozen=True, kw_only=True):
    side: b.Name  # the side the clause names
    loses: bool = False  # "the Americans lose if ...": the other side wins
    when: When = "end"
    any_of: Annotated[list[Terms], Meta(min_length=1, max_length=MAX_TERMS)]
    words: b.Text = ""  # the clause as typed


class VictoryConditions(msgspec.Struct, frozen=True, kw_only=True):
    clauses: Annotated[list[Clause], Meta(min_length=1, max_length=MAX_CLAUSES)]
    otherwise: b.Name = ""
    card: b.Text = ""  # the scenario card's own words
    source: b.Text = ""  # the whole set as typed (``vc`` reads it back)


class ExitLine(msgspec.Struct, frozen=True, kw_only=True):
    """One unit exited off a board edge: the Exit VP it earns its side."""

    seq: int
    unit: str
    counter: str
    side: str  # the side that exited it (earns the VP)
    edge: str
    vp: int
    rule: str
    why: str


# a list or tuple as read from a snapshot, or the rows the fold changes in place
Control = Sequence[tuple[str, str]]
Exits = Sequence[ExitLine]


class VictoryBook(msgspec.Struct, frozen=True, kw_only=True):
    conditions: VictoryConditions | None = None
    # The fold changes its exits and control in place (``core.model.book_rows``): whoever
    # keeps a book across a change keeps ``settled()``.
    exits: Exits = ()
    # (Location, side) in the order first set; a "nobody" row may stay, side "".
    control: Control = ()

    def held(self) -> Iterator[tuple[str, str]]:
        """(Location, side) of each Location some side controls, in the order first set."""
        return (row for row in self.control if row[1])

    def controller(self, location: str) -> str:
        rows = self.control
        if type(rows) is ControlRows:
            return rows.side_of(location)
        key = location.upper()
        return next((side for loc, side in rows if loc.upper() == key), "")

    def settled(self) -> "VictoryBook":
        """This book as it stands now, never changed after."""
        return msgspec.structs.replace(self, exits=tuple(self.exits), control=tuple(self.held()))

    def has_rows(self) -> bool:
        """Does the fold change this book's exits and control in place?"""
        return type(self.control) is ControlRows and type(self.exits) is AppendRows

    def with_rows(self) -> "VictoryBook":
        """This book with exits and control the fold may change in place (its own)."""
        return msgspec.structs.replace(
            self, exits=AppendRows(self.exits), control=ControlRows(self.control)
        )

    def rows(self) -> tuple[AppendRows[ExitLine], ControlRows]:
        """The rows of a book ``with_rows`` made."""
        exits, control = self.exits, self.control
        assert type(exits) is AppendRows and type(control) is ControlRows, "with_rows() first"
        return exits, control

    def exit_vp(self, side: str, edge: str = "") -> int:
        want = edge.lower()
        return sum(
            line.vp
            for line in self.exits
            if line.side == side and (not want or line.edge.lower() == want)
        )
