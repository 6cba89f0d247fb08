"""Verbs for the verdict: ``vc`` (the scenario's Victory Conditions), ``exit`` (Exit VP)
and ``control`` (who holds a Location), with their grammar entries.

The Victory Conditions are typed as the card reads, one clause per ``;``::

    German wins at end if amassed >= 20
    Russian wins immediately if amassed >= 15
    American loses immediately if suffered >= 12          (a Casualty Cap)
    German wins if amassed > Russian; Russian wins if amassed > German; otherwise draw
    German wins if exit >= 15 off east                    (Exit VP)
    Russian wins if controls P4 Q5 / controls 2 of P4 Q5 R6
    German wins if amassed >= 10 and controls P4 or exit >= 12

A clause: SIDE ``wins``|``loses`` [``immediately``|``at [game] end``] ``if``|``upon``
CONDITION (a card's "Germans", "they have", "amassing" read as typed too). A
condition is tests joined by ``and``/``or`` (``and`` binds tighter). A test is
[SIDE] MEASURE OP (N | SIDE) [``off`` EDGE], MEASURE one of ``amassed`` (CVP it
inflicted; also ``cvp``), ``suffered``, ``exit`` (Exit VP), ``vp`` (CVP amassed + Exit
VP); or [SIDE] ``controls`` [N ``of``] LOC... The side left out is the clause's.
``otherwise SIDE|draw`` says who wins when nothing is met.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import ClassVar, Self

from stockade.core.commands.command import Command, Handle, Side
from stockade.core.commands.handles import Context
from stockade.core.commands.lexer import Sections
from stockade.core.model import events as ev
from stockade.core.model import victory as vic
from stockade.core.model.errors import InputRefusal, Refusal

# A side from a typed word (``Context.side``).
SideOf = Callable[[str], str]

_OPS: dict[str, vic.Op] = {">=": ">=", ">": ">", "<=": "<=", "<": "<", "=": "=", "==": "="}
_MEASURES: dict[str, vic.Measure] = {
    "amassed": "amassed",
    "amasses": "amassed",
    "cvp": "amassed",
    "inflicted": "amassed",
    "suffered": "suffered",
    "suffers": "suffered",
    "exit": "exit",
    "exits": "exit",
    "exited": "exit",
    "vp": "vp",
    "amassing": "amassed",
    "suffering": "suffered",
    "exiting": "exit",
}
_CONTROLS = ("controls", "control")
# words a card puts in a test that say nothing: "if they have amassed >= 20 CVP"
_FILLERS = frozenset({"they", "have", "has", "it"})
_OP_SPLIT = re.compile(r"(>=|<=|==|>|<|=)")
_EXAMPLE = "e.g. 'vc German wins at end if amassed >= 20'"


# --------------------------------------------------------------------- reading
def read_conditions(text: str, side_of: SideOf, card: str = "") -> vic.VictoryConditions:
    """The Victory Conditions typed in ``text`` (clauses split by ``;``); ``side_of``
    reads a side's name (``Context.side``)."""
    sides = _Sides(side_of)
    clauses: list[vic.Clause] = []
    otherwise = ""
    for part in text.split(";"):
        # quotes group nothing here (the verb's line has been split already; --vc
        # arrives whole): a quoted Location is that Location
        words = [w.strip("\"'") for w in _OP_SPLIT.sub(r" \1 ", part).split()]
        words = [w for w in words if w]
        if not words:
            continue
        if words[0].lower() == "otherwise":
            otherwise = _otherwise(sides, words[1:])
            continue
        clauses.append(_clause(sides, words))
    if not clauses:
        raise InputRefusal("no Victory Condition given", _EXAMPLE)
    return vic.VictoryConditions(
        clauses=clauses, otherwise=otherwise, card=card, source=" ".join(text.split())
    )


class _Sides:
    """Reads a side as the card writes it: "German", "Germans"."""

    def __init__(self, side_of: SideOf):
        self.side_of = side_of

    def __call__(self, word: str) -> str:
        try:
            return self.side_of(word)
        except Refusal:
            if word.lower().endswith("s") and len(word) > 1:  # "Germans win"
                return self.side_of(word[:-1])
            raise


def _number(word: str, what: str) -> int:
    if not word.isdigit():
        raise InputRefusal(f"{what} must be a whole number, not '{word}'")
    return int(word)


def _otherwise(sides: _Sides, words: list[str]) -> str:
    if len(words) != 1:
        raise InputRefusal("'otherwise' takes one side or 'draw'", "e.g. 'otherwise draw'")
    return vic.DRAW if words[0].lower() == vic.DRAW else sides(words[0])


def _clause(sides: _Sides, words: list[str]) -> vic.Clause:
    side = sides(words[0])
    rest = [w.lower() for w in words[1:]]
    if not rest or rest[0] not in ("wins", "win", "loses", "lose"):
        raise InputRefusal(f"after '{words[0]}' say 'wins' or 'loses'", _EXAMPLE)
    loses = rest[0].startswith("lose")
    i = 1
    when: vic.When = "end"
    if i < len(rest) and rest[i] == "immediately":
        when, i = "immediately", i + 1
    elif rest[i : i + 2] == ["at", "end"]:
        i += 2
    elif rest[i : i + 3] == ["at", "game", "end"]:
        i += 3
    if i >= len(rest) or rest[i] not in ("if", "upon"):
        raise InputRefusal(f"'{' '.join(words)}': the condition starts with 'if'", _EXAMPLE)
    tests = words[1 + i + 1 :]
    any_of = [
        [_test(sides, side, group) for group in _split(branch, "and")]
        for branch in _split(tests, "or")
    ]
    return vic.Clause(side=side, loses=loses, when=when, any_of=any_of, words=" ".join(words))


def _split(words: list[str], joint: str) -> list[list[str]]:
    out: list[list[str]] = [[]]
    for w in words:
        if w.lower() == joint:
            out.append([])
        else:
            out[-1].append(w)
    if any(not part for part in out):
        raise InputRefusal(f"a test is missing around '{joint}'", _EXAMPLE)
    return out


def _test(sides: _Sides, clause_side: str, words: list[str]) -> vic.Compare | vic.Controls:
    side = clause_side
    words = [w for w in words if w.lower() not in _FILLERS]
    if words and words[0].lower() not in _MEASURES and words[0].lower() not in _CONTROLS:
        try:
            side = sides(words[0])
        except Refusal:
            raise InputRefusal(
                f"'{words[0]}' is neither a side nor a measure "
                "(amassed, suffered, exit, vp, controls)",
                _EXAMPLE,
            ) from None
        words = words[1:]
    if not words:
        raise InputRefusal("a test needs what it measures", _EXAMPLE)
    head = words[0].lower()
    if head in _CONTROLS:
        return _controls(side, words[1:])
    if head not in _MEASURES:
        raise InputRefusal(
            f"'{words[0]}' is not a measure: amassed, suffered, exit, vp or controls",
            _EXAMPLE,
        )
    measure = _MEASURES[head]
    rest = words[1:]
    edge = ""
    lowered = [w.lower() for w in rest]
    if "off" in lowered:
        at = lowered.index("off")
        if at + 1 >= len(rest):
            raise InputRefusal("'off' needs the board edge", "e.g. 'exit >= 15 off east'")
        edge = rest[at + 1]
        rest = rest[:at] + rest[at + 2 :]
    if rest and rest[-1].lower() in ("cvp", "vp"):  # "amassed >= 20 CVP"
        rest = rest[:-1]
    if len(rest) not in (2, 3) or rest[0] not in _OPS:
        raise InputRefusal(
            f"'{' '.join(words)}': say MEASURE OP NUMBER or SIDE", "e.g. 'amassed >= 20'"
        )
    op = _OPS[rest[0]]
    if rest[1].isdigit():
        if len(rest) != 2:
            raise InputRefusal(f"'{' '.join(rest[1:])}': one number, please")
        value = _number(rest[1], "the number")
        if value > vic.MAX_POINTS:
            raise InputRefusal(f"{value} is more VP than any scenario ({vic.MAX_POINTS})")
        return vic.Compare(side=side, measure=measure, op=op, number=value, edge=edge)
    other = sides(rest[1])
    if len(rest) == 3 and _MEASURES.get(rest[2].lower()) not in (None, measure):
        raise InputRefusal("a side's measure is compared with the same measure of the other")
    return vic.Compare(side=side, measure=measure, op=op, other=other, edge=edge)


def _controls(side: str, words: list[str]) -> vic.Controls:
    at_least = 0
    if len(words) >= 2 and words[0].isdigit() and words[1].lower() == "of":
        at_least = _number(words[0], "how many Locations")
        words = words[2:]
    if not words:
        raise InputRefusal("'controls' needs the Locations", "e.g. 'controls P4 Q5'")
    if at_least > len(words):
        raise InputRefusal(f"{at_least} of {len(words)} Locations cannot be met")
    return vic.Controls(side=side, locations=list(words), at_least=at_least)


# ---------------------------------------------------------------------- verbs
NONE = "none"  # ``vc none``: the game has no Victory Conditions (again)


class VictoryConditionsSet(Command, frozen=True):
    """``vc CLAUSES [card WORDS]`` or ``vc none``: the clauses as typed (read into
    conditions when checked, so a line that does not read is refused at once)."""

    verb: ClassVar[str] = "vc"
    conditions: str
    card: str = ""

    def check(self, ctx: Context) -> None:
        self.read_conditions(ctx)

    def read_conditions(self, ctx: Context) -> vic.VictoryConditions | None:
        text = self.conditions.strip()
        if not text:
            raise InputRefusal("'vc' needs the Victory Conditions", _EXAMPLE)
        if text.lower() == NONE:
            return None
        return read_conditions(text, ctx.side, self.card)

    def events(self, ctx: Context) -> list[ev.Record]:
        return [ev.VictorySet(conditions=self.read_conditions(ctx))]


class Exit(Command, frozen=True):
    verb: ClassVar[str] = "exit"
    units: tuple[Handle, ...]
    off: str = ""
    vp: int | None = None

    def events(self, ctx: Context) -> list[ev.Record]:
        return [ev.Exited(units=[ctx.unit(h) for h in self.units], edge=self.off, vp=self.vp)]


class Control(Command, frozen=True):
    """``control P4 Q5 German``: the Locations, then the side (or ``nobody``)."""

    verb: ClassVar[str] = "control"
    locations: str  # the Locations, as typed, one word each
    side: Side = ""  # "" = nobody

    @classmethod
    def read(cls, ctx: Context, sections: Sections) -> Self:
        words = sections.positional
        if len(words) < 2:
            raise InputRefusal("'control' needs the Locations, then a side", "control P4 German")
        who, places = words[-1], _bounded(words[:-1])
        side = "" if who.lower() in _NOBODY else ctx.side(who)
        return cls(locations=" ".join(places), side=side)

    def words(self) -> list[str]:
        return [*self.locations.split(), self.side or "nobody"]

    def events(self, ctx: Context) -> list[ev.Record]:
        return [
            ev.LocationControlled(location=loc, side=self.side)
            for loc in _bounded(self.locations.split())
        ]


def _bounded(places: list[str]) -> list[str]:
    """The Locations of one ``control``, refused past the most a Victory Condition
    names: one command is one group of entries, written and taken back whole."""
    if len(places) > vic.MAX_LOCATIONS:
        raise InputRefusal(
            f"'control' names {len(places)} Locations: at most {vic.MAX_LOCATIONS} at once"
            " (MAX_LOCATIONS, the most a Victory Condition names); set the rest in"
            " another 'control'",
            "control P4 Q5 German",
        )
    return places


_NOBODY = ("nobody", "none", "-")
