"""The ``add`` verb: counters entering the game, as the board reads them (a side, its
counters with their words, the Location of each run of them)."""

from __future__ import annotations

import re
from typing import Any, ClassVar, Self

import msgspec

from stockade.core.commands.command import Command, Counter, Handle, Location, Side, new_handle
from stockade.core.commands.handles import Context
from stockade.core.commands.lexer import Sections
from stockade.core.commands.lexer import words as split_words
from stockade.core.commands.verb_spec import Slot
from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal
from stockade.core.model.units import (
    KIND_WORDS,
    TRAITS,
    infer_kind,
    nationality_flags,
    parse_counter,
    vehicle_name,
)

_REPEAT = re.compile(r"^[x\*](\d+)$")
_CVP = re.compile(r"^cvp=(\d+)$")
# A hex as the board prints it (Q5, AA10): in ``add`` it may stand without ``at``.
_HEX = re.compile(r"^[A-Za-z]{1,2}\d{1,2}$")
MAX_REPEAT = 20  # a typo like x77 should be refused, not make 77 counters


class Draft(msgspec.Struct, frozen=True):
    """One counter as typed in ``add``: the words after it belong to it."""

    counter: Counter
    kind: str | None = None  # a unit kind (KIND_WORDS' values); None: from the counter
    count: int = 1
    handle: Handle | None = None
    traits: tuple[str, ...] = ()
    cvp: int | None = None
    # Its own Location and state when one ``add`` places counters in several Locations
    # (Add.at and Add.broken otherwise).
    at: Location = ""
    broken: bool = False

    def words(self) -> list[str]:
        out = [self.counter] + ([self.kind] if self.kind else [])
        out += [f"x{self.count}"] if self.count != 1 else []
        out += ["as", self.handle] if self.handle else []
        out += [f"+{t}" for t in self.traits]
        return out + ([f"cvp={self.cvp}"] if self.cvp is not None else [])

    @property
    def unit_kind(self) -> str:
        if self.kind == "vehicle":
            return "vehicle"  # a vehicle's "counter" is its name: nothing to read from it
        return infer_kind(parse_counter(self.counter), self.kind)


class Add(Command, frozen=True):
    """Counters entering the game: each at ``at``, or, when one line places counters in
    several Locations (``add British 4-5-8 x2 Q5 4-5-8 R6``), each at its own."""

    verb: ClassVar[str] = "add"
    whole_line: ClassVar[bool] = True
    side: Side
    counters: tuple[Draft, ...]
    at: Location = ""
    broken: bool = False

    def __post_init__(self) -> None:
        # One value per meaning, so that the line it prints reads back as itself: each
        # counter's own Location and state only when they differ, else the line's.
        places = [(d.at or self.at, d.broken or self.broken) for d in self.counters]
        if len(set(places)) == 1:
            at, broken = places[0]
            counters = tuple(msgspec.structs.replace(d, at="", broken=False) for d in self.counters)
        else:
            if any(not at for at, _ in places):
                raise InputRefusal(
                    "when an 'add' places counters in several Locations, each counter needs one",
                    "add British 4-5-8 x2 Q5 4-5-8 R6",
                )
            at, broken = "", False
            counters = tuple(
                msgspec.structs.replace(d, at=place, broken=state)
                for d, (place, state) in zip(self.counters, places, strict=True)
            )
        msgspec.structs.force_setattr(self, "counters", counters)
        msgspec.structs.force_setattr(self, "at", at)
        msgspec.structs.force_setattr(self, "broken", broken)

    @classmethod
    def read(cls, ctx: Context, sections: Sections) -> Self:
        words = sections.positional
        if not words:
            raise InputRefusal("'add' needs a side and a counter", "add German 4-6-7 at Q4")
        side = ctx.side(words[0])
        drafts, location, broken = _read_add_words(ctx, words[1:])
        drafts = _kinds_told_before(ctx, side, drafts)
        command = cls(side=side, counters=tuple(drafts), at=location, broken=broken)
        command.check(ctx)
        for draft in drafts:
            draft.unit_kind  # noqa: B018 -- refuses a counter that does not fit its kind
        return command

    def check(self, ctx: Context) -> None:
        for draft in self.counters:
            if draft.kind == "vehicle" and draft.cvp is None:
                # A26 values a vehicle by its counter, which the program does not know:
                # asked, never guessed (it would count 0)
                raise InputRefusal(
                    f"a vehicle's CVP is on its counter: give it, '{draft.counter} vehicle cvp=N'",
                    "A26: what the vehicle is worth when eliminated or captured",
                )

    @classmethod
    def read_field(cls, ctx: Context, slot: Slot, raw: object) -> Any:
        if slot.name == "counters":  # "4-6-7 x2 9-1 +commissar": counters and their words
            drafts, location, broken = _read_add_words(ctx, split_words(str(raw)))
            # a Location or ``broken`` typed among the counters is theirs, not dropped
            return tuple(
                msgspec.structs.replace(d, at=d.at or location, broken=d.broken or broken)
                for d in drafts
            )
        return super().read_field(ctx, slot, raw)

    def words(self) -> list[str]:
        out = [self.side]
        for index, draft in enumerate(self.counters):
            out += draft.words()
            following = self.counters[index + 1 :]
            run = (draft.at, draft.broken)
            if draft.at and (not following or (following[0].at, following[0].broken) != run):
                # closes the run of counters placed there
                out += ["at", draft.at] + (["broken"] if draft.broken else [])
        return out + (["at", self.at] if self.at else []) + (["broken"] if self.broken else [])

    def events(self, ctx: Context) -> list[ev.Record]:
        events: list[ev.Record] = []
        for draft in self.counters:
            kind = draft.unit_kind
            for _ in range(draft.count):
                events.append(
                    ev.UnitEntered(
                        handle=ctx.new_handle(self.side, draft.handle),
                        side=self.side,
                        unit_kind=kind,
                        counter=draft.counter,
                        location=draft.at or self.at,
                        traits=sorted(set(draft.traits)),
                        cvp=draft.cvp,
                        broken=draft.broken or self.broken,
                    )
                )
        return events


class _Typing(msgspec.Struct):
    """A draft while its words are read."""

    counter: str
    kind: str | None = None
    count: int = 1
    handle: str | None = None
    traits: list[str] | None = None
    cvp: int | None = None

    at: str = ""
    broken: bool = False

    def draft(self) -> Draft:
        return Draft(
            self.counter,
            self.kind,
            self.count,
            self.handle,
            tuple(self.traits or ()),
            self.cvp,
            self.at,
            self.broken,
        )


def _read_add_words(ctx: Context, words: list[str]) -> tuple[list[Draft], str, bool]:
    """The counters of an ``add`` line, the Location of them all ("" when the line
    names several: each counter then has its own), and ``broken`` (of them all).

    A Location, with ``at`` or bare, places the counters typed since the previous one
    (a run); ``broken`` marks the run it stands in, or the run just placed when it
    follows a Location. A line with one Location places every counter there, wherever
    it stands, and ``broken`` then marks them all."""
    runs = _Runs()
    drafts = runs.drafts
    i = 0
    while i < len(words):
        word, low = words[i], words[i].lower()
        if word[:1].isdigit() or word.startswith("("):
            drafts.append(_Typing(parse_counter(word).text))
        elif _is_vehicle_word(words[i + 1] if i + 1 < len(words) else "") and low not in (
            "at",
            "as",
            "broken",
        ):
            # a vehicle is entered by its name (add German StuG vehicle cvp=4): it blocks
            # a rearm (A20.551) and, manned, cannot be captured (A20.22)
            drafts.append(_Typing(vehicle_name(word), kind="vehicle"))
            i += 1
        elif low == "at" or low == "as":
            if i + 1 >= len(words):
                raise InputRefusal(f"'{low}' needs a value in 'add'")
            i += 1
            if low == "at":
                runs.place(ctx.location(words[i]))
            else:
                _last(drafts, "as").handle = new_handle(ctx, words[i])
        elif low == "broken":
            runs.mark_broken()
        elif low in KIND_WORDS:
            _last(drafts, low).kind = KIND_WORDS[low]
        elif match := _REPEAT.match(low):
            _last(drafts, low).count = _repeat(int(match.group(1)))
        elif low.startswith("+"):
            last = _last(drafts, low)
            if _trait(low[1:]) in (last.traits or []):
                raise InputRefusal(f"'{low}' is given twice for {last.counter}")
            last.traits = [*(last.traits or []), low[1:]]
        elif match := _CVP.match(low):
            _last(drafts, low).cvp = int(match.group(1))
        elif _HEX.match(word):
            runs.place(ctx.location(word))
        else:
            raise InputRefusal(
                f"'{word}' is out of place in 'add'",
                "add SIDE COUNTER [kind] [xN] [as H] [+trait] [cvp=N] [at LOC] [broken]"
                + ("; a vehicle: NAME vehicle cvp=N" if word[:1].isalpha() else ""),
            )
        i += 1
    if not drafts:
        raise InputRefusal("'add' needs at least one counter", "like 4-6-7 or 9-2")
    for draft in drafts:
        if draft.handle and draft.count > 1:
            raise InputRefusal(f"'as {draft.handle}' names one counter, not {draft.count}")
    return runs.result()


class _Runs:
    """The runs of counters of an ``add`` line as they are read: each run ends with the
    Location it is placed in."""

    def __init__(self) -> None:
        self.drafts: list[_Typing] = []
        self.places: list[tuple[str, int, int]] = []  # (Location, first, end) of each run
        self.placed = 0  # drafts[:placed] have their Location
        self.open_broken = False  # ``broken`` seen in the run not yet placed
        self.any_broken = False

    def place(self, location: str) -> None:
        """Place the counters typed since the last Location at ``location``."""
        for draft in self.drafts[self.placed :]:
            draft.at, draft.broken = location, self.open_broken
        self.places.append((location, self.placed, len(self.drafts)))
        self.placed, self.open_broken = len(self.drafts), False

    def mark_broken(self) -> None:
        self.any_broken = True
        if self.placed == len(self.drafts) and self.places:  # right after a Location
            for draft in self.drafts[self.places[-1][1] : self.places[-1][2]]:
                draft.broken = True
        else:
            self.open_broken = True

    def result(self) -> tuple[list[Draft], str, bool]:
        drafts = self.drafts
        if len(self.places) <= 1:
            for draft in drafts:
                draft.at, draft.broken = "", False
            location = self.places[0][0] if self.places else ""
            return [d.draft() for d in drafts], location, self.any_broken
        for location, first, end in self.places:
            if first == end:
                raise InputRefusal(
                    f"'{location}' has no counter before it: this 'add' places counters in "
                    "several Locations, so each Location ends the counters placed there",
                    "add British 4-5-8 x2 Q5 4-5-8 R6",
                )
        if self.placed < len(drafts):
            raise InputRefusal(
                f"'{drafts[self.placed].counter}' has no Location after it: this 'add' places "
                "counters in several, so each run of counters ends with its Location",
                "add British 4-5-8 x2 Q5 4-5-8 R6",
            )
        return [d.draft() for d in drafts], "", False


def _kinds_told_before(ctx: Context, side: str, drafts: list[Draft]) -> list[Draft]:
    """A counter the player left without a kind where its print is ambiguous (a 2-4-7
    may be a HS, a crew or a hero) takes the kind it was given earlier, in this line
    or for this side's units already in the game, when that was one kind: told once,
    never guessed. A print the side's nationality has only as a HS (an American
    3-3-6, ``half_squads`` in core/data/nationalities.toml) is told by the table."""
    told: dict[str, set[str]] = {}
    nationality = ctx.state.sides[side].nationality if side in ctx.state.sides else ""
    for print_ in nationality_flags(nationality).get("half_squads", ()):
        told[print_] = {"hs"}  # the nationality's own HS print: nothing else reads so
    for unit in ctx.state.units.values():
        if unit.side == side:
            told.setdefault(unit.counter, set()).add(unit.unit_kind)
    out: list[Draft] = []
    for draft in drafts:
        if draft.kind:
            told.setdefault(draft.counter, set()).add(KIND_WORDS[draft.kind.lower()])
        elif len(kinds := told.get(draft.counter, set())) == 1 and _ambiguous(draft.counter):
            draft = msgspec.structs.replace(draft, kind=next(iter(kinds)))
        out.append(draft)
    return out


def _ambiguous(counter: str) -> bool:
    try:
        infer_kind(parse_counter(counter), None)
    except InputRefusal:
        return True
    return False


def _is_vehicle_word(word: str) -> bool:
    return KIND_WORDS.get(word.lower()) == "vehicle"


def _last(drafts: list[_Typing], word: str) -> _Typing:
    if not drafts:
        raise InputRefusal(f"'{word}' must follow the counter it is about", "add German 2-4-7 hs")
    return drafts[-1]


def _repeat(count: int) -> int:
    if not 1 <= count <= MAX_REPEAT:
        raise InputRefusal(f"x{count}: add between 1 and {MAX_REPEAT} counters at once")
    return count


def _trait(name: str) -> str:
    if name not in TRAITS:
        raise InputRefusal(
            f"unknown trait '+{name}'", "traits: " + ", ".join("+" + t for t in TRAITS)
        )
    return name
