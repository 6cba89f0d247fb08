"""Verbs for escape (A20.55), Withdrawal and Infiltration (A11.2, A11.22), rearming
(A20.551) and Scrounging (A20.552)."""

from __future__ import annotations

from typing import ClassVar, Self

from stockade.core.commands.command import Command, Counter, Handle
from stockade.core.commands.handles import Context
from stockade.core.commands.lexer import Sections
from stockade.core.commands.verb_spec import REARM_HOWS
from stockade.core.commands.words import number
from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal, Refusal
from stockade.core.model.tracked_unit import UNARMED, Unit
from stockade.core.rules.rearming import rearmed_as


class Escape(Command, frozen=True):
    verb: ClassVar[str] = "escape"
    units: tuple[Handle, ...]
    ntcfail: tuple[Handle, ...] = ()
    killed: tuple[Handle, ...] = ()
    guard_dies: bool = False
    melee: bool = False
    own_borders: bool = False

    def check(self, ctx: Context) -> None:
        if self.guard_dies and self.melee:
            raise InputRefusal(
                "either the Guard dies (guard-dies) or a Melee forms (melee), not both"
            )

    def events(self, ctx: Context) -> list[ev.Record]:
        outcome: ev.EscapeOutcome = (
            "escaped" if self.guard_dies else "melee" if self.melee else "no-effect"
        )
        return [
            ev.EscapeAttempted(
                units=ctx.units(list(self.units)),
                ntc_failed=list(self.ntcfail),
                killed=list(self.killed),
                guard_eliminated=self.guard_dies,
                outcome=outcome,
                own_borders=self.own_borders,
            )
        ]


class Withdraw(Command, frozen=True):
    verb: ClassVar[str] = "withdraw"
    units: tuple[Handle, ...]

    def events(self, ctx: Context) -> list[ev.Record]:
        return [ev.EscapedBy(units=ctx.units(list(self.units)), route="withdrawal")]


class Infiltrate(Command, frozen=True):
    verb: ClassVar[str] = "infiltrate"
    units: tuple[Handle, ...]

    def events(self, ctx: Context) -> list[ev.Record]:
        return [ev.EscapedBy(units=ctx.units(list(self.units)), route="infiltration")]


class GuardInfiltrates(Command, frozen=True):
    verb: ClassVar[str] = "guard-infiltrates"
    unit: Handle

    def events(self, ctx: Context) -> list[ev.Record]:
        return [ev.EscapedBy(units=[ctx.unit(self.unit)], route="guard-infiltrated")]


class Rearm(Command, frozen=True):
    """``rearm g1 cc a3 [as 4-3-6]``: the unarmed unit becomes a Green/Conscript unit
    of its own size (A20.551)."""

    verb: ClassVar[str] = "rearm"
    unit: Handle
    how: ev.RearmHow
    enemy: Handle
    as_: Counter = ""

    @classmethod
    def read(cls, ctx: Context, sections: Sections) -> Self:
        # how and ENEMY may be left out (the grammar fills them when only one fits),
        # but a second word is always the how: "rearm g4 a2" is refused, not guessed
        words = sections.positional
        if not 1 <= len(words) <= 3 or (len(words) > 1 and words[1].lower() not in REARM_HOWS):
            raise InputRefusal(
                "write: rearm H cc|alone|surrender ENEMY [as COUNTER] (or just rearm H "
                "when only one way and one enemy fit)",
                "e.g. rearm g1 cc a3, or rearm g1",
            )
        return super().read(ctx, sections)

    def events(self, ctx: Context) -> list[ev.Record]:
        handle, enemy = ctx.unit(self.unit), ctx.unit(self.enemy)
        unit, foe = ctx.state.units[handle], ctx.state.units[enemy]
        return [
            ev.Rearmed(
                handle=handle,
                how=self.how,
                enemy=enemy,
                counter=self.as_ or _table_counter(ctx, unit, foe),
            )
        ]


def _table_counter(ctx: Context, unit: Unit, foe: Unit) -> str:
    """The counter the nationality table rearms ``unit`` as, kept in the entry so that
    its sentence says what the unit became ("rearmed as 4-3-6"), now and in any later
    version of the table; "" where it has none or the rearm is refused anyway (the
    check says why)."""
    if unit.status != UNARMED or unit.is_smc:
        return ""
    try:
        return rearmed_as(ctx.state, unit, foe)
    except Refusal:
        return ""


class Scrounge(Command, frozen=True):
    verb: ClassVar[str] = "scrounge"
    unit: Handle
    roll: int
    wreck: bool = False
    as_: Counter = ""

    @classmethod
    def read(cls, ctx: Context, sections: Sections) -> Self:
        words = sections.positional
        if len(words) != 2:
            raise InputRefusal("write: scrounge H DR [wreck] [as COUNTER]", "e.g. scrounge g1 2")
        number(words[1], "the Scrounging DR")
        return super().read(ctx, sections)

    def events(self, ctx: Context) -> list[ev.Record]:
        return [
            ev.Scrounged(
                handle=ctx.unit(self.unit), roll=self.roll, wreck=self.wreck, counter=self.as_
            )
        ]
