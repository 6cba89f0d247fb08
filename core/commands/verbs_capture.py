"""Verbs that take prisoners: surrender, reject (No Quarter), CC capture, mutual
capture (A20.221) and recapture of unarmed units (A20.54)."""

from __future__ import annotations

from typing import ClassVar, Self

from stockade.core.commands.command import (
    Command,
    Counter,
    Handle,
    MergeSpec,
    Pair,
    Side,
    merges,
    read_pair,
)
from stockade.core.commands.handles import Context
from stockade.core.commands.lexer import Sections
from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal


class Surrender(Command, frozen=True):
    verb: ClassVar[str] = "surrender"
    units: tuple[Handle, ...]
    to: Handle
    reason: ev.SurrenderReason = "rtph"
    free: tuple[Handle, ...] = ()
    merges: tuple[MergeSpec, ...] = ()
    because: str = ""

    def events(self, ctx: Context) -> list[ev.Record]:
        return [
            ev.Surrendered(
                units=ctx.units(list(self.units)),
                guard=ctx.unit(self.to),
                reason=self.reason,
                freed=list(self.free),
                merges=merges(ctx, self.merges),
                others_why=self.because,
            )
        ]


class Reject(Command, frozen=True):
    verb: ClassVar[str] = "reject"
    units: tuple[Handle, ...]
    by: Side
    because: str = ""

    def events(self, ctx: Context) -> list[ev.Record]:
        return [
            ev.SurrenderRejected(
                units=ctx.units(list(self.units)), by_side=self.by, others_why=self.because
            )
        ]


class Capture(Command, frozen=True):
    """All the named units, or one HS of a squad (``hs g5=2-4-7``): its two halves get
    new handles when recorded."""

    verb: ClassVar[str] = "capture"
    by: Handle
    units: tuple[Handle, ...] = ()
    hs: Pair | None = None
    free: tuple[Handle, ...] = ()
    as_: Counter = ""
    merges: tuple[MergeSpec, ...] = ()

    def check(self, ctx: Context) -> None:
        if not self.units and self.hs is None:
            raise InputRefusal("name the captured units (or 'hs SQUAD' for one HS of a squad)")

    def events(self, ctx: Context) -> list[ev.Record]:
        hs_captured = hs_free = ""
        if self.hs is not None:
            side = ctx.side_of(self.hs.handle)
            hs_captured, hs_free = ctx.new_handle(side), ctx.new_handle(side)
        guard, units = ctx.unit(self.by), list(self.units)
        return [
            ev.Captured(
                guard=guard,
                units=units,
                split=self.hs.handle if self.hs else None,
                hs_captured=hs_captured,
                hs_free=hs_free,
                hs_counter=self.hs.value if self.hs else "",
                merges=merges(ctx, self.merges),
                rearm_as=self.as_,
                freed=list(self.free),
            )
        ]


class Mutual(Command, frozen=True):
    """``mutual g7 a3=5-4-6``: every unit left in the Location; H=COUNTER says what it
    rearms as where the nationality table has no Green/Conscript counter."""

    verb: ClassVar[str] = "mutual"
    units: tuple[Pair, ...]

    @classmethod
    def read(cls, ctx: Context, sections: Sections) -> Self:
        pairs: list[Pair] = []
        for word in sections.positional:
            pair = read_pair(ctx, word)
            if pair.handle in [p.handle for p in pairs]:
                raise InputRefusal(f"'{pair.handle}' is named twice")
            pairs.append(pair)
        if not pairs:
            raise InputRefusal("name every unit left in the Location", "mutual g7 a3")
        return cls(units=tuple(pairs))

    def events(self, ctx: Context) -> list[ev.Record]:
        return [
            ev.MutualCapture(
                units=[p.handle for p in self.units],
                counters={p.handle: p.value for p in self.units if p.value},
            )
        ]


class Recapture(Command, frozen=True):
    verb: ClassVar[str] = "recapture"
    units: tuple[Handle, ...]
    by: Handle
    merges: tuple[MergeSpec, ...] = ()

    def events(self, ctx: Context) -> list[ev.Record]:
        return [
            ev.Recaptured(
                units=ctx.units(list(self.units)),
                guard=ctx.unit(self.by),
                merges=merges(ctx, self.merges),
            )
        ]
