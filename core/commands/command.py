"""``Command``: one typed value per verb, between every caller and the rules.

A command is read from a line (``Command.read``, by the verb's slots in
``core.commands.grammar``), built by a form field by field, or made in code; it
writes itself back as the canonical line (``str(command)``), and turns into the
events it records (``command.events(context)``) only when asked: reading a line
never allocates a handle or touches the log.

The fields hold what the line means, resolved against the game: handles as the
game spells them, sides by their full names, counters as printed. What depends on
the moment of recording (the next free handle, the current turn) is left to
``events``.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar, Self

import msgspec

from stockade.core.commands.grammar import VERBS
from stockade.core.commands.handles import Context, check_new_handle, reference
from stockade.core.commands.lexer import Sections
from stockade.core.commands.lexer import words as split_words
from stockade.core.commands.picks import Values
from stockade.core.commands.verb_spec import CAUSES, NO_TAKEOVER, STACK_MARK, Kind, Slot, VerbSpec
from stockade.core.commands.words import assignment, counter, number, one
from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal
from stockade.core.model.tracked_unit import Unit

if TYPE_CHECKING:
    from stockade.core.reads.queries import Choice

Handle = str  # a unit's handle as the game spells it
Side = str  # a side's full name
Counter = str  # a counter as printed
Location = str  # a hex or Location as the board names it


class MergeSpec(msgspec.Struct, frozen=True):
    """``g2+g3`` or ``g2+g3=g9``: two prisoner HS to be exchanged for a squad."""

    parts: tuple[Handle, Handle]
    into: Handle | None = None

    def __str__(self) -> str:
        return "+".join(self.parts) + (f"={self.into}" if self.into else "")


class Pair(msgspec.Struct, frozen=True):
    """``H=VALUE``: a unit and a counter (mutual, capture's hs) or a target (deploy)."""

    handle: Handle
    value: str = ""

    def __str__(self) -> str:
        return f"{self.handle}={self.value}" if self.value else self.handle


class Command(msgspec.Struct, frozen=True, kw_only=True):
    """One verb with its fields. Subclasses set ``verb`` and declare one field per slot."""

    verb: ClassVar[str]
    # Read every word after the verb itself (add, phase): no keyword sections.
    whole_line: ClassVar[bool] = False

    @classmethod
    def spec(cls) -> VerbSpec:
        return VERBS[cls.verb]

    # ---------------------------------------------------------------- reading
    @classmethod
    def read(cls, ctx: Context, sections: Sections) -> Self:
        """The command a line's sections mean, read slot by slot; Refusal if it cannot be."""
        spec = cls.spec()
        values: dict[str, Any] = {}
        # units slots naming a stack (@P4), read once the other slots are known: which
        # units there fit may depend on them (capture's defenders on its attacker)
        stacks: list[tuple[Slot, list[str]]] = []
        left_out: list[Slot] = []  # required slots the line leaves to the game to fill

        def take(slot: Slot, words: list[str]) -> None:
            if slot.kind is Kind.UNITS and any(is_stack(w) for w in words):
                stacks.append((slot, words))
            else:
                values[slot.name] = read_slot(ctx, spec, slot, words)

        positional = spec.positional
        words = list(sections.positional)
        if not positional and words:
            raise InputRefusal(f"'{spec.name}' takes nothing more; '{words[0]}' is out of place")
        for index, slot in enumerate(positional):
            later = len(positional) - index - 1
            # the last slot takes what is left: "escort a1 a2" is told it takes one
            size = max(0, len(words) - later) if slot.arity == "many" or not later else 1
            taken, words = words[:size], words[size:]
            if not taken and slot.required and slot.fill_when_single:
                left_out.append(slot)  # the words ran out: only trailing slots get here
            elif taken or slot.required:
                take(slot, taken)
        if words:
            raise InputRefusal(f"'{words[0]}' is out of place in '{spec.name}'", spec.usage)
        for slot in spec.slots:
            if not slot.keywords:
                continue
            if slot.kind is Kind.ONE_OF:
                given = [w for w in slot.choices if sections.has(w)]
                if len(given) > 1:
                    raise InputRefusal(
                        f"give one {slot.name} for the {spec.name}, not " + " and ".join(given),
                    )
                if given:
                    values[slot.name] = given[0]
            elif sections.has(slot.keyword):
                take(slot, sections.many(slot.keyword))
            elif slot.required:
                raise InputRefusal(f"'{spec.name}' needs '{slot.keyword}'", spec.example)
        for slot, words in stacks:  # in slot order: escape's ntcfail picks among its units
            values[slot.name] = read_units(ctx, slot, words, values)
        if left_out:
            values.update(fill_left_out(ctx, cls, left_out, values))
        command = cls(**values)
        command.check(ctx)
        return command

    def check(self, ctx: Context) -> None:
        """What the slots alone cannot say (two flags that exclude each other)."""

    @classmethod
    def read_field(cls, ctx: Context, slot: Slot, raw: object) -> Any:
        """One slot's value from a form's field: a tick, handles, or typed words."""
        if slot.kind is Kind.FLAG:
            return bool(raw)
        if slot.kind is Kind.TEXT:
            return str(raw)
        if isinstance(raw, (list, tuple)):
            given = [str(w) for w in raw]
        else:
            given = split_words(str(raw))
        if slot.kind is Kind.ONE_OF:
            choice = one(given, slot.label.lower(), cls.verb).lower()
            default = next(f.default for f in msgspec.structs.fields(cls) if f.name == slot.name)
            if choice != default and choice not in slot.choices:
                raise InputRefusal(f"'{choice}' is not one of: " + ", ".join(slot.choices))
            return choice
        return read_slot(ctx, cls.spec(), slot, given)

    # ---------------------------------------------------------------- writing
    def words(self) -> list[str]:
        """The words after the verb, slot by slot, as ``read`` takes them back."""
        return [word for slot in self.spec().slots for word in self.slot_words(slot)]

    def slot_words(self, slot: Slot) -> list[str]:
        """One slot's words as the line writes them (none when it is left empty)."""
        value = getattr(self, slot.name)
        if slot.kind is Kind.ONE_OF:
            return [value] if value in slot.choices else []
        if slot.kind is Kind.FLAG:
            return [slot.keyword] if value else []
        if value is None or value == "" or value == ():
            return []
        shown = [str(v) for v in value] if isinstance(value, tuple) else [str(value)]
        return ([slot.keyword] if slot.keyword else []) + shown

    def line_before(self, name: str) -> str:
        """The line up to the slot ``name``, left for the player to give (a DR): the
        verb and the words of the slots before it, and a space."""
        slots = self.spec().slots
        before = slots[: [s.name for s in slots].index(name)]
        words = [w for slot in before for w in self.slot_words(slot)]
        return " ".join([self.verb, *(shlex.quote(w) for w in words)]) + " "

    def __str__(self) -> str:
        return " ".join([self.verb, *(shlex.quote(w) for w in self.words())])

    # ----------------------------------------------------------------- events
    def events(self, ctx: Context) -> list[ev.Record]:
        """The records this command writes, new handles taken from ``ctx``."""
        raise NotImplementedError(f"'{self.verb}' records nothing by itself")

    @property
    def follows_clock(self) -> bool:
        """Whether the clock moves on to the later phase of this Player Turn that the
        records belong to (``core.commands.clock.follow_entries``), or stays."""
        return True

    @classmethod
    def field_names(cls) -> list[str]:
        return [f.name for f in msgspec.structs.fields(cls)]


def read_slot(ctx: Context, spec: VerbSpec, slot: Slot, words: list[str]) -> Any:
    """One slot's value from its words, by its kind."""
    what = slot.label.split(" (")[0] or slot.name
    kind = slot.kind
    if kind is Kind.UNITS:
        return tuple(ctx.units(words, what.lower()))
    if kind is Kind.TEXT:
        return " ".join(words)
    if kind is Kind.MERGES:
        return tuple(merge_spec(ctx, w) for w in words)
    if kind is Kind.NEW_HANDLES:
        if len(words) != 2:
            raise InputRefusal(f"'{spec.name} ... as' names the two new HS, not {len(words)}")
        return tuple(new_handle(ctx, w) for w in words)
    if kind is Kind.FLAG:
        return True
    if kind is Kind.ASSIGN:
        return tuple(read_pair(ctx, w) for w in words)
    word = one(words, what, spec.name)
    if kind is Kind.UNIT:
        return ctx.unit(word)
    if kind is Kind.TAKEOVER:
        return NO_TAKEOVER if word == NO_TAKEOVER else ctx.unit(word)
    if kind is Kind.SIDE:
        return ctx.side(word)
    if kind is Kind.COUNTER:
        return counter(word)
    if kind is Kind.NUMBER:
        return number(word, f"the {what.lower()}")
    if kind is Kind.NEW_HANDLE:
        return new_handle(ctx, word)
    if kind is Kind.CAUSE:
        low = word.lower()
        if low in slot.choices or low in CAUSES:
            return low
        try:
            return ctx.side(word)
        except InputRefusal as refusal:
            raise InputRefusal(
                f"'{word}' is neither a cause ({', '.join(slot.choices or CAUSES)}) nor a side "
                "in this game",
                refusal.hint,
            ) from None
    if kind is Kind.CHOICE:
        if word.lower() not in slot.choices:
            raise InputRefusal(f"'{word}' is not one of: " + ", ".join(slot.choices))
        return word.lower()
    if kind is Kind.PAIR:
        return read_pair(ctx, word)
    if kind is Kind.LOCATION:
        # as the board names it: p4 is P4, and @P4 (a stack's spelling) the hex P4
        return ctx.location(word[1:] if is_stack(word) else word)
    return word  # a word as typed


def is_stack(word: str) -> bool:
    """``@P4``: a Location alone, naming the stack there in a units slot."""
    return word.startswith(STACK_MARK) and len(word) > 1 and STACK_MARK not in word[1:]


def read_units(ctx: Context, slot: Slot, words: list[str], values: Values) -> tuple[Handle, ...]:
    """A units slot's handles, each ``@LOC`` standing for the units there that the slot's
    picks offer as legal (given ``values``, the slots read so far); once each, in order."""
    out: list[Handle] = []
    for word in words:
        for handle in stack(ctx, slot, word[1:], values) if is_stack(word) else [ctx.unit(word)]:
            if handle not in out:
                out.append(handle)
    return tuple(out)


def stack(ctx: Context, slot: Slot, place: str, values: Values) -> list[Handle]:
    """The units in ``place`` the slot may take: all of one side, else refused naming
    them; none, refused saying why those there do not fit."""
    units = ctx.state.units
    what = (slot.label.split(" (")[0] or slot.name).lower()
    here = [
        c
        for c in slot.offers()(ctx.state, values)
        if c.handle in units and units[c.handle].location.lower() == place.lower()
    ]
    fit = as_the_book_stands(here)
    if not fit:
        there = [u for u in units.values() if u.on_board and u.location.lower() == place.lower()]
        if not there:
            raise InputRefusal(
                f"no unit stands in {place}",
                "@LOC names the units in that Location; check the Location, or type handles",
            )
        whys = list(dict.fromkeys(c.why for c in here if c.why))[:3]
        raise InputRefusal(
            f"none of the units in {there[0].location} fits {what}: "
            + _listed(units[u.handle] for u in there),
            "; ".join(whys) or f"{what} are not among them",
        )
    sides: dict[str, list[Handle]] = {}
    for handle in fit:
        sides.setdefault(units[handle].side, []).append(handle)
    if slot.both_sides and not slot.stack_fits(len(sides)):
        (side,) = sides
        raise InputRefusal(
            f"A11: a Melee is between both sides' units in one Location; in "
            f"{units[fit[0]].location} only {side} units fit {what}: "
            + _listed(units[h] for h in fit),
            "type the handles of the units in Melee, of both sides",
        )
    if not slot.stack_fits(len(sides)):
        raise InputRefusal(
            f"{STACK_MARK}{place} holds {what} of both sides: "
            + "; ".join(f"{side} {_listed(units[h] for h in hs)}" for side, hs in sides.items()),
            "type the handles of the ones you mean",
        )
    # the Location as the board names it, however it was typed; a unit of a side taken
    # there that the rules keep out is named with why, never dropped silently
    left: dict[tuple[str, str], list[Handle]] = {}
    for c in here:
        u = units[c.handle]
        if c.handle not in fit and not c.legal and u.side in sides and u.on_board:
            left.setdefault((c.reason, c.rule), []).append(c.handle)
    said = "".join(
        f"; {' '.join(hs)} left out: {why}" + (f" ({rule})" if rule else "")
        for (why, rule), hs in left.items()
    )
    ctx.notes.append(f"{STACK_MARK}{units[fit[0]].location}: " + " ".join(fit) + said)
    return fit


def as_the_book_stands(choices: list[Choice]) -> list[Handle]:
    """The handles of ``queries.book_picks``: the legal picks implying no board fact
    (those that do only when no other is legal)."""
    from stockade.core.reads.queries import book_picks

    return [c.handle for c in book_picks(choices)]


def _listed(units: Iterable[Unit]) -> str:
    return ", ".join(f"{u.handle} ({reference(u)})" for u in units)


def fill_left_out(
    ctx: Context, cls: type[Command], slots: list[Slot], values: Values
) -> dict[str, Any]:
    """The values of ``slots``, left out of the line, when the game allows exactly one
    combination of them (the unit slots' picks judge which are legal); else refused,
    naming the lines the player may type."""
    whys: list[str] = []
    ways = _ways(ctx, slots, dict(values), whys)
    names = " and ".join(s.called for s in slots)
    if len(ways) == 1:
        ctx.notes.append(
            "filled in: "
            + ", ".join(f"{s.called} {ways[0][s.name]}" for s in slots)
            + " (the only choice the game allows)"
        )
        return ways[0]
    so_far = str(cls(**{**_defaults(cls, slots), **values}))
    if not ways:
        raise InputRefusal(
            f"'{so_far}': nothing fits the {names} left out",
            whys[0] if whys else cls.spec().usage,
        )
    lines = [str(cls(**{**values, **way})) for way in ways]
    more = f" (and {len(lines) - 8} more)" if len(lines) > 8 else ""
    raise InputRefusal(
        f"'{so_far}': {len(lines)} ways fit: " + " or ".join(lines[:8]) + more,
        "type the one you mean",
    )


def _ways(
    ctx: Context, slots: list[Slot], values: dict[str, Any], whys: list[str]
) -> list[dict[str, Any]]:
    """Every legal combination of values for ``slots``, the first varying slowest."""
    if not slots:
        return [{}]
    slot, rest = slots[0], slots[1:]
    if slot.is_unit:
        offered = slot.offers()(ctx.state, values)
        whys += [c.why for c in offered if not c.legal and c.same_location and c.why][:1]
        options: list[Any] = as_the_book_stands(offered)
    else:
        options = list(slot.choices)
    return [
        {slot.name: option, **tail}
        for option in options
        for tail in _ways(ctx, rest, {**values, slot.name: option}, whys)
    ]


def _defaults(cls: type[Command], slots: list[Slot]) -> dict[str, Any]:
    """Placeholders for required slots left out, to print the line as typed so far."""
    return {s.name: "" for s in slots}


def read_pair(ctx: Context, word: str) -> Pair:
    """``g5`` or ``g5=2-4-7``: a unit, and the counter it becomes."""
    pair = assignment(word)
    return Pair(ctx.unit(pair[0]), counter(pair[1])) if pair else Pair(ctx.unit(word))


def new_handle(ctx: Context, word: str) -> Handle:
    """A handle asked for a new counter: well formed and not in use."""
    return ctx.free(check_new_handle(word))


def merge_spec(ctx: Context, word: str) -> MergeSpec:
    """``g2+g3`` / ``g2+g3=g9``: the parts exist; the new handle is well formed."""
    left, plus, rest = word.partition("+")
    right, _, into = rest.partition("=")
    if not plus or not left or not right or "+" in rest or "=" in into or "=" in left:
        raise InputRefusal(f"'{word}' is not a merge", "write HS+HS, like g2+g3 (or g2+g3=g9)")
    return MergeSpec((ctx.unit(left), ctx.unit(right)), new_handle(ctx, into) if into else None)


def merges(ctx: Context, specs: tuple[MergeSpec, ...]) -> list[ev.Merge]:
    """The merges' events: each new squad gets its handle (the one asked for, or the next)."""
    return [
        ev.Merge(parts=list(m.parts), into=ctx.new_handle(ctx.side_of(m.parts[0]), m.into))
        for m in specs
    ]


class Blank(Command, frozen=True):
    """A blank line or a ``#`` comment: a no-op in the bar and in scripts."""

    verb: ClassVar[str] = ""

    def words(self) -> list[str]:
        return []

    def __str__(self) -> str:
        return ""

    def events(self, ctx: Context) -> list[ev.Record]:
        return []
