"""Verbs for losses: eliminate (with the Guard's takeover), Casualty Reduction, Massacre."""

from __future__ import annotations

from stockade.core.commands.handles import Context
from stockade.core.commands.lexer import Sections
from stockade.core.commands.verbs_capture import required
from stockade.core.commands.words import counter, one
from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal

# ``by WORD`` -> the event's cause, and whose side the act was (relative to the unit)
_CAUSES: dict[str, tuple[ev.EliminationCause, str]] = {
    "own": ("fire-own", "own"),
    "enemy": ("fire-enemy", "enemy"),
    "cc": ("cc", "enemy"),
    "sniper": ("sniper", "enemy"),
    "rout": ("rout", ""),
    "other": ("other", ""),
}
NO_TAKEOVER = "-"


def read_cause(
    ctx: Context, handle: str, word: str | None, default: ev.EliminationCause
) -> tuple[ev.EliminationCause, str]:
    """The cause and the acting side for ``by WORD``: a cause word or a side's name.

    The acting side matters: eliminating an unarmed unit one's own side abandoned is
    a Massacre (A20.53), so ``by enemy`` on an abandoned unit names the abandoner.
    """
    owner = ctx.side_of(handle)
    if word is None:
        return default, ""
    if word.lower() in _CAUSES:
        cause, whose = _CAUSES[word.lower()]
        side = {"own": owner, "enemy": ctx.state.enemy_of(owner)}.get(whose, "")
        return cause, side
    side = ctx.side(word)
    return ("fire-own" if side == owner else "fire-enemy"), side


def parse_eliminate(ctx: Context, sections: Sections) -> list[ev.Record]:
    handle = ctx.unit(one(sections.positional, "unit", "eliminate"))
    cause, by_side = read_cause(ctx, handle, sections.one("by"), "other")
    takeover = sections.one("takeover")
    if takeover is not None and takeover != NO_TAKEOVER:
        takeover = ctx.unit(takeover)
    keep = [ctx.unit(w) for w in sections.many("keep")]
    if keep and takeover in (None, NO_TAKEOVER):
        raise InputRefusal("'keep' names what the new Guard keeps: add 'takeover G'")
    return [
        ev.Eliminated(handle=handle, cause=cause, by_side=by_side, takeover=takeover, keep=keep)
    ]


def parse_reduce(ctx: Context, sections: Sections) -> list[ev.Record]:
    handle = ctx.unit(one(sections.positional, "unit", "reduce"))
    cause, side = read_cause(ctx, handle, sections.one("by"), "fire-enemy")
    if cause not in ("fire-own", "fire-enemy"):
        raise InputRefusal("Casualty Reduction comes from fire: 'by own' or 'by enemy'")
    to = sections.one("to")
    lost = sections.one("lost") or ""
    if lost:
        origins = {o.handle.lower(): o.handle for o in ctx.state.units[handle].origins}
        lost = origins.get(lost.lower(), lost)
    return [
        ev.CasualtyReduced(
            handle=handle,
            cause=cause,
            counter=counter(to) if to else "",
            lost=lost,
            by_side=side or "",
        )
    ]


def parse_massacre(ctx: Context, sections: Sections) -> list[ev.Record]:
    units = ctx.units(sections.positional, "unarmed units massacred")
    by = ctx.unit(required(sections, "by", "massacre g1 by r2"))
    return [ev.Massacred(units=units, by=by)]
