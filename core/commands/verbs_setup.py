"""Verbs that set the table: the turn clock, board status, moves, NQ, end (``add`` is
in verbs_add.py)."""

from __future__ import annotations

from typing import ClassVar, Literal, Self, TypedDict

from stockade.core.commands import clock
from stockade.core.commands.command import Command, Handle, Location, Side
from stockade.core.commands.handles import Context
from stockade.core.commands.lexer import Sections
from stockade.core.commands.words import number
from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal


# ------------------------------------------------------------------------ clock
class Next(Command, frozen=True):
    verb: ClassVar[str] = "next"

    def events(self, ctx: Context) -> list[ev.Record]:
        return [clock.next_phase(ctx.state, ctx.first_attacker)]


class Prev(Command, frozen=True):
    verb: ClassVar[str] = "prev"

    def events(self, ctx: Context) -> list[ev.Record]:
        return [clock.previous_phase(ctx.state, ctx.first_attacker)]


class Skip(Command, frozen=True):
    """On to the next phase where A20 has something waiting, else the next Player Turn."""

    verb: ClassVar[str] = "skip"

    def events(self, ctx: Context) -> list[ev.Record]:
        return [clock.next_a20_phase(ctx.state, ctx.first_attacker)]


class Turn(Command, frozen=True):
    verb: ClassVar[str] = "turn"

    def events(self, ctx: Context) -> list[ev.Record]:
        return [clock.next_player_turn(ctx.state, ctx.first_attacker)]


class Phase(Command, frozen=True):
    """``phase RtPh``, ``phase ccph 3``, ``phase rph 4 American`` (any order after NAME);
    the Game Turn and ATTACKER left out stay as they are when it is recorded."""

    verb: ClassVar[str] = "phase"
    whole_line: ClassVar[bool] = True
    phase: ev.Phase
    turn: int | None = None
    attacker: Side | None = None

    @classmethod
    def read(cls, ctx: Context, sections: Sections) -> Self:
        words = sections.positional
        if not words:
            raise InputRefusal("'phase' needs a phase name", "one of " + ", ".join(ev.PHASES))
        phase = clock.phase_named(words[0])
        turn, attacker = None, None
        for word in words[1:]:
            if word.isdigit():
                turn = number(word, "the Game Turn")
            else:
                attacker = ctx.side(word)
        return cls(phase=phase, turn=turn, attacker=attacker)

    def events(self, ctx: Context) -> list[ev.Record]:
        return [
            ev.PhaseSet(
                turn=ctx.state.turn if self.turn is None else self.turn,
                attacker=self.attacker or ctx.state.attacker,
                phase=self.phase,
            )
        ]


class End(Command, frozen=True):
    verb: ClassVar[str] = "end"
    now: bool = False

    def events(self, ctx: Context) -> list[ev.Record]:
        return [ev.GameEnded()]

    @property
    def follows_clock(self) -> bool:
        return not self.now  # sudden death: it ends in the phase the clock shows


# ----------------------------------------------------------------- board status
StatusFlag = Literal["broken", "pinned", "berserk", "disrupted", "melee"]


class StatusFlags(TypedDict, total=False):
    """The on/off fields of StatusChanged that a status verb may set."""

    broken: bool
    pinned: bool
    berserk: bool
    disrupted: bool
    melee: bool


class SetStatus(Command, frozen=True):
    """A status verb: sets one flag of the units (``off``: the other way)."""

    flag: ClassVar[StatusFlag]
    sets: ClassVar[bool]
    units: tuple[Handle, ...]
    off: bool = False

    def events(self, ctx: Context) -> list[ev.Record]:
        flags: StatusFlags = {}
        flags[self.flag] = self.sets != self.off
        return [ev.StatusChanged(handle=ctx.unit(h), **flags) for h in self.units]


class Break(SetStatus, frozen=True):
    verb: ClassVar[str] = "break"
    flag: ClassVar[StatusFlag] = "broken"
    sets: ClassVar[bool] = True


class Rally(SetStatus, frozen=True):
    verb: ClassVar[str] = "rally"
    flag: ClassVar[StatusFlag] = "broken"
    sets: ClassVar[bool] = False


class Pin(SetStatus, frozen=True):
    verb: ClassVar[str] = "pin"
    flag: ClassVar[StatusFlag] = "pinned"
    sets: ClassVar[bool] = True


class Unpin(SetStatus, frozen=True):
    verb: ClassVar[str] = "unpin"
    flag: ClassVar[StatusFlag] = "pinned"
    sets: ClassVar[bool] = False


class Berserk(SetStatus, frozen=True):
    verb: ClassVar[str] = "berserk"
    flag: ClassVar[StatusFlag] = "berserk"
    sets: ClassVar[bool] = True


class Disrupt(SetStatus, frozen=True):
    verb: ClassVar[str] = "disrupt"
    flag: ClassVar[StatusFlag] = "disrupted"
    sets: ClassVar[bool] = True


class Melee(SetStatus, frozen=True):
    verb: ClassVar[str] = "melee"
    flag: ClassVar[StatusFlag] = "melee"
    sets: ClassVar[bool] = True


STATUS_COMMANDS: tuple[type[SetStatus], ...] = (Break, Rally, Pin, Unpin, Berserk, Disrupt, Melee)


class Move(Command, frozen=True):
    verb: ClassVar[str] = "move"
    units: tuple[Handle, ...]
    to: Location

    @classmethod
    def read(cls, ctx: Context, sections: Sections) -> Self:
        if len(sections.positional) < 2:
            raise InputRefusal("'move' needs units and a Location", "move a1 R5")
        return super().read(ctx, sections)

    def events(self, ctx: Context) -> list[ev.Record]:
        return [ev.StatusChanged(handle=ctx.unit(h), location=self.to) for h in self.units]


class NoQuarter(Command, frozen=True):
    verb: ClassVar[str] = "nq"
    side: Side
    reason: str = ""

    @classmethod
    def read(cls, ctx: Context, sections: Sections) -> Self:
        words = sections.positional
        if not words:
            raise InputRefusal("'nq' needs the side under No Quarter", "nq Russian")
        return cls(side=ctx.side(words[0]), reason=" ".join(words[1:]))

    def events(self, ctx: Context) -> list[ev.Record]:
        return [ev.NoQuarterInvoked(side=self.side, reason=self.reason or "SSR")]
