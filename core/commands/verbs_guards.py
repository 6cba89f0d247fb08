"""Verbs for handling prisoners: transfer, exchange, split, deploy, abandon, escort."""

from __future__ import annotations

from typing import Any, ClassVar, Self

from stockade.core.commands.command import (
    Command,
    Counter,
    Handle,
    MergeSpec,
    Pair,
    merges,
    new_handle,
)
from stockade.core.commands.handles import Context
from stockade.core.commands.lexer import Sections
from stockade.core.commands.lexer import words as split_words
from stockade.core.commands.verb_spec import Slot
from stockade.core.commands.words import assignment, counter
from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal, RuleRefusal


class Transfer(Command, frozen=True):
    verb: ClassVar[str] = "transfer"
    units: tuple[Handle, ...]
    to: Handle
    merges: tuple[MergeSpec, ...] = ()

    def events(self, ctx: Context) -> list[ev.Record]:
        return [
            ev.Transferred(
                units=ctx.units(list(self.units)),
                to_guard=ctx.unit(self.to),
                merges=merges(ctx, self.merges),
            )
        ]


class Exchange(Command, frozen=True):
    verb: ClassVar[str] = "exchange"
    units: tuple[Handle, ...]
    as_: Handle | None = None

    def check(self, ctx: Context) -> None:
        if len(self.units) != 2:
            raise RuleRefusal(
                "A20.51", f"an exchange takes exactly two prisoner HS, not {len(self.units)}"
            )

    def events(self, ctx: Context) -> list[ev.Record]:
        parts = ctx.units(list(self.units))
        return [ev.Exchanged(parts=parts, into=ctx.new_handle(ctx.side_of(parts[0]), self.as_))]


def _two_new(ctx: Context, side: str, wanted: tuple[Handle, ...]) -> list[str]:
    names: list[str | None] = [*wanted] if wanted else [None, None]  # None: the next free handle
    return [ctx.new_handle(side, w) for w in names]


class Split(Command, frozen=True):
    verb: ClassVar[str] = "split"
    unit: Handle
    as_: tuple[Handle, ...] = ()

    def events(self, ctx: Context) -> list[ev.Record]:
        handle = ctx.unit(self.unit)
        return [ev.PrisonerSplit(handle=handle, into=_two_new(ctx, ctx.side_of(handle), self.as_))]


class Deploy(Command, frozen=True):
    """``deploy a1 [2-4-6 [2-4-6]] [g3=2 g4=a8] [as a7 a8]``: ``P=1|2`` (or a new
    handle) sends prisoner P to that half."""

    verb: ClassVar[str] = "deploy"
    unit: Handle
    counters: tuple[Counter, ...] = ()
    assign: tuple[Pair, ...] = ()
    as_: tuple[Handle, ...] = ()

    @classmethod
    def read(cls, ctx: Context, sections: Sections) -> Self:
        words = sections.positional
        if not words:
            raise InputRefusal("'deploy' needs the Guard squad", "deploy a1 2-4-6")
        squad = ctx.unit(words[0])
        counters: list[str] = []
        assign: list[Pair] = []
        # P=N pairs may also follow "as NEW NEW": the as-section runs to the end of the line
        named = [w for w in sections.many("as") if "=" not in w]
        if sections.has("as") and len(named) != 2:
            raise InputRefusal(f"'deploy ... as' names the two new HS, not {len(named)}")
        halves = tuple(new_handle(ctx, w) for w in named)
        for word in words[1:] + [w for w in sections.many("as") if "=" in w]:
            pair = assignment(word)
            if pair:
                assign.append(Pair(ctx.unit(pair[0]), _half(pair[1], halves)))
            else:
                counters.append(counter(word))
        if len(counters) > 2:
            raise InputRefusal("a squad deploys into two HS: give at most two counters")
        return cls(unit=squad, counters=tuple(counters), assign=tuple(assign), as_=halves)

    @classmethod
    def read_field(cls, ctx: Context, slot: Slot, raw: object) -> Any:
        if slot.name == "assign":  # "g3=2 g4=2": the prisoners the second half takes
            out = []
            for word in split_words(str(raw)):
                pair = assignment(word)
                if pair is None:
                    raise InputRefusal(f"'{word}' should read PRISONER=HALF, like g3=2")
                out.append(Pair(ctx.unit(pair[0]), _half(pair[1], ())))
            return tuple(out)
        if slot.name == "counters":
            return tuple(counter(w) for w in split_words(str(raw)))
        return super().read_field(ctx, slot, raw)

    def events(self, ctx: Context) -> list[ev.Record]:
        squad = ctx.unit(self.unit)
        into = _two_new(ctx, ctx.side_of(squad), self.as_)
        counters = list(self.counters) * (2 if len(self.counters) == 1 else 1)
        assign = {p.handle: _which_half(p.value, into) for p in self.assign}
        return [ev.Deployed(handle=squad, into=into, counters=counters, assign=assign)]


def _half(target: str, named: tuple[Handle, ...]) -> str:
    """``1``, ``2``, or one of the new handles (those named with ``as``, else the
    next free ones, known only when recorded)."""
    if target in ("1", "2"):
        return target
    if target.lower() in named or (not named and target[:1].isalpha()):
        return target.lower()
    hint = f"write 1 or 2 (or {named[0]} / {named[1]})" if named else "write 1 or 2"
    raise InputRefusal(f"'{target}' is not one of the new HS", hint)


def _which_half(target: str, into: list[str]) -> str:
    if target in ("1", "2"):
        return into[int(target) - 1]
    if target in into:
        return target
    raise InputRefusal(
        f"'{target}' is not one of the new HS", f"write 1 or 2 (or {into[0]} / {into[1]})"
    )


class Abandon(Command, frozen=True):
    verb: ClassVar[str] = "abandon"
    units: tuple[Handle, ...]

    def events(self, ctx: Context) -> list[ev.Record]:
        return [ev.Abandoned(units=ctx.units(list(self.units)))]


class Escort(Command, frozen=True):
    verb: ClassVar[str] = "escort"
    unit: Handle

    def events(self, ctx: Context) -> list[ev.Record]:
        return [ev.EscortedOff(guard=ctx.unit(self.unit))]
