"""Verbs for handling prisoners: transfer, exchange, split, deploy, abandon, escort."""

from __future__ import annotations

from stockade.core.commands.handles import Context
from stockade.core.commands.lexer import Sections
from stockade.core.commands.verbs_capture import required
from stockade.core.commands.words import assignment, counter, merges, one
from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal, RuleRefusal


def parse_transfer(ctx: Context, sections: Sections) -> list[ev.Record]:
    units = ctx.units(sections.positional, "prisoners to transfer")
    to_guard = ctx.unit(required(sections, "to", "transfer g1 to a2"))
    return [
        ev.Transferred(units=units, to_guard=to_guard, merges=merges(ctx, sections.many("merge")))
    ]


def parse_exchange(ctx: Context, sections: Sections) -> list[ev.Record]:
    parts = ctx.units(sections.positional, "two prisoner HS")
    if len(parts) != 2:
        raise RuleRefusal("A20.51", f"an exchange takes exactly two prisoner HS, not {len(parts)}")
    into = ctx.new_handle(ctx.side_of(parts[0]), sections.one("as"))
    return [ev.Exchanged(parts=parts, into=into)]


def _two_new(ctx: Context, side: str, wanted: list[str], verb: str) -> list[str]:
    if wanted and len(wanted) != 2:
        raise InputRefusal(f"'{verb} ... as' names the two new HS, not {len(wanted)}")
    names: list[str | None] = [*wanted] if wanted else [None, None]  # None: the next free handle
    return [ctx.new_handle(side, w) for w in names]


def parse_split(ctx: Context, sections: Sections) -> list[ev.Record]:
    handle = ctx.unit(one(sections.positional, "prisoner squad", "split"))
    into = _two_new(ctx, ctx.side_of(handle), sections.many("as"), "split")
    return [ev.PrisonerSplit(handle=handle, into=into)]


def parse_deploy(ctx: Context, sections: Sections) -> list[ev.Record]:
    """``deploy a1 [2-4-6 [2-4-6]] [as a7 a8] [g3=2 g4=a8]``."""
    words = sections.positional
    if not words:
        raise InputRefusal("'deploy' needs the Guard squad", "deploy a1 2-4-6")
    squad = ctx.unit(words[0])
    counters: list[str] = []
    wanted_assign: list[tuple[str, str]] = []
    # P=N pairs may also follow "as NEW NEW": the as-section runs to the end of the line
    named_halves = [w for w in sections.many("as") if "=" not in w]
    for word in words[1:] + [w for w in sections.many("as") if "=" in w]:
        pair = assignment(word)
        if pair:
            wanted_assign.append((ctx.unit(pair[0]), pair[1]))
        else:
            counters.append(counter(word))
    if len(counters) > 2:
        raise InputRefusal("a squad deploys into two HS: give at most two counters")
    if len(counters) == 1:
        counters *= 2  # both halves of a squad are the same HS counter
    into = _two_new(ctx, ctx.side_of(squad), named_halves, "deploy")
    assign = {prisoner: _which_half(target, into) for prisoner, target in wanted_assign}
    return [ev.Deployed(handle=squad, into=into, counters=counters, assign=assign)]


def _which_half(target: str, into: list[str]) -> str:
    if target in ("1", "2"):
        return into[int(target) - 1]
    if target.lower() in into:
        return target.lower()
    raise InputRefusal(
        f"'{target}' is not one of the new HS", f"write 1 or 2 (or {into[0]} / {into[1]})"
    )


def parse_abandon(ctx: Context, sections: Sections) -> list[ev.Record]:
    return [ev.Abandoned(units=ctx.units(sections.positional, "prisoners to abandon"))]


def parse_escort(ctx: Context, sections: Sections) -> list[ev.Record]:
    return [ev.EscortedOff(guard=ctx.unit(one(sections.positional, "Guard", "escort")))]
