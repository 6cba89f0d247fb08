"""Verbs for losses: eliminate (with the Guard's takeover), Casualty Reduction, Massacre."""

from __future__ import annotations

from typing import ClassVar

from stockade.core.commands.command import Command, Counter, Handle
from stockade.core.commands.handles import Context
from stockade.core.commands.verb_spec import NO_TAKEOVER
from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal, RuleRefusal
from stockade.core.rules.losses import sole_takeover
from stockade.core.rules.timing import FIRE_PHASES

# ``by WORD`` -> the event's cause, and whose side the act was (relative to the unit)
_CAUSES: dict[str, tuple[ev.EliminationCause, str]] = {
    "own": ("fire-own", "own"),
    "enemy": ("fire-enemy", "enemy"),
    "fire": ("fire-enemy", "enemy"),
    "cc": ("cc", "enemy"),
    "sniper": ("sniper", "enemy"),
    "rout": ("rout", ""),
    "other": ("other", ""),
}
# A cause word ("own", "sniper"...) or the full name of the side that acted.
Cause = str


def read_cause(
    ctx: Context, handle: str, word: Cause | None, default: ev.EliminationCause
) -> tuple[ev.EliminationCause, str]:
    """The cause and the acting side for ``by WORD``: a cause word or a side's name.

    The acting side matters: eliminating an unarmed unit one's own side abandoned is
    a Massacre (A20.53), so ``by enemy`` on an abandoned unit names the abandoner.
    """
    owner = ctx.side_of(handle)
    if word is None:
        return default, ""
    if word in _CAUSES:
        cause, whose = _CAUSES[word]
        side = {"own": owner, "enemy": ctx.state.enemy_of(owner)}.get(whose, "")
        return cause, side
    return ("fire-own" if word == owner else "fire-enemy"), word


class Eliminate(Command, frozen=True):
    verb: ClassVar[str] = "eliminate"
    unit: Handle
    by: Cause | None = None
    takeover: Handle | None = None  # NO_TAKEOVER ("-"): nobody takes the prisoners
    keep: tuple[Handle, ...] = ()

    def check(self, ctx: Context) -> None:
        if self.keep and self.takeover in (None, NO_TAKEOVER):
            raise InputRefusal("'keep' names what the new Guard keeps: add 'takeover G'")
        cause, _side = read_cause(ctx, ctx.unit(self.unit), self.by, "other")
        later = ev.PHASES[ev.PHASES.index(ctx.state.phase) :]
        if cause in ("fire-own", "fire-enemy") and not set(later) & set(FIRE_PHASES):
            raise RuleRefusal(
                "A7",
                f"no fire attack is made in the {ctx.state.phase} nor later in this Player "
                "Turn (fire: " + ", ".join(FIRE_PHASES) + ")",
                "if it was eliminated in CC: by cc; else by other",
            )

    def events(self, ctx: Context) -> list[ev.Record]:
        handle = ctx.unit(self.unit)
        cause, by_side = read_cause(ctx, handle, self.by, "other")
        takeover = self.takeover
        guard = ctx.state.units.get(handle)
        sole = sole_takeover(ctx.state, guard) if takeover is None and guard else None
        if sole is not None:  # no choice to ask for: the entry names it
            takeover = sole.handle
            ctx.notes.append(
                f"implied: {takeover} takes over the prisoners of {handle}, the only unit "
                "there able to (A20.5)"
            )
        return [
            ev.Eliminated(
                handle=handle,
                cause=cause,
                by_side=by_side,
                takeover=takeover,
                keep=list(self.keep),
            )
        ]


class Reduce(Command, frozen=True):
    verb: ClassVar[str] = "reduce"
    unit: Handle
    by: Cause | None = None
    to: Counter = ""
    lost: str = ""  # the origin HS lost, of a squad merged from two

    def check(self, ctx: Context) -> None:
        cause, _side = read_cause(ctx, self.unit, self.by, "fire-enemy")
        if cause not in ("fire-own", "fire-enemy"):
            raise InputRefusal("Casualty Reduction comes from fire: 'by own' or 'by enemy'")

    def events(self, ctx: Context) -> list[ev.Record]:
        handle = ctx.unit(self.unit)
        cause, side = read_cause(ctx, handle, self.by, "fire-enemy")
        origins = {o.handle.lower(): o.handle for o in ctx.state.units[handle].origins}
        return [
            ev.CasualtyReduced(
                handle=handle,
                cause=cause,
                counter=self.to,
                lost=origins.get(self.lost.lower(), self.lost),
                by_side=side or "",
            )
        ]


class Massacre(Command, frozen=True):
    verb: ClassVar[str] = "massacre"
    units: tuple[Handle, ...]
    by: Handle

    def events(self, ctx: Context) -> list[ev.Record]:
        return [ev.Massacred(units=ctx.units(list(self.units)), by=ctx.unit(self.by))]
