"""Verbs that take prisoners: surrender, reject (No Quarter), CC capture, mutual
capture (A20.221) and recapture of unarmed units (A20.54)."""

from __future__ import annotations

from stockade.core.commands.grammar import SURRENDER_REASONS
from stockade.core.commands.handles import Context
from stockade.core.commands.lexer import Sections
from stockade.core.commands.words import assignment, counter, merges
from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal
from stockade.core.model.tracked_unit import UNARMED


def required(sections: Sections, keyword: str, example: str) -> str:
    value = sections.one(keyword)
    if value is None:
        raise InputRefusal(f"'{sections.verb}' needs '{keyword}'", example)
    return value


def parse_surrender(ctx: Context, sections: Sections) -> list[ev.Record]:
    units = ctx.units(sections.positional, "surrendering units")
    guard = ctx.unit(required(sections, "to", "surrender g1 g2 to a1"))
    reasons = [r for r in SURRENDER_REASONS if sections.has(r)]
    if len(reasons) > 1:
        raise InputRefusal("give one reason for the surrender, not " + " and ".join(reasons))
    freed = [ctx.unit(w) for w in sections.many("free")]
    return [
        ev.Surrendered(
            units=units,
            guard=guard,
            reason=reasons[0] if reasons else "rtph",
            freed=freed,
            merges=merges(ctx, sections.many("merge")),
            others_why=" ".join(sections.many("because")),
        )
    ]


def parse_reject(ctx: Context, sections: Sections) -> list[ev.Record]:
    units = ctx.units(sections.positional, "units whose surrender is rejected")
    by_side = ctx.side(required(sections, "by", "reject g1 by Russian"))
    return [
        ev.SurrenderRejected(
            units=units, by_side=by_side, others_why=" ".join(sections.many("because"))
        )
    ]


def parse_capture(ctx: Context, sections: Sections) -> list[ev.Record]:
    units = [ctx.unit(w) for w in sections.positional]
    guard = ctx.unit(required(sections, "by", "capture g4 by a2"))
    split = hs_captured = hs_free = hs_counter = ""
    word = sections.one("hs")  # "hs" takes one word: None only when it is absent
    if word is not None:
        pair = assignment(word)
        split = ctx.unit(pair[0] if pair else word)
        hs_counter = counter(pair[1]) if pair else ""
        side = ctx.side_of(split)
        hs_captured, hs_free = ctx.new_handle(side), ctx.new_handle(side)
    if not units and not split:
        raise InputRefusal("name the captured units (or 'hs SQUAD' for one HS of a squad)")
    rearm_as = sections.one("as")
    return [
        ev.Captured(
            rearm_split=_rearm_split(ctx, guard, units),
            guard=guard,
            units=units,
            split=split or None,
            hs_captured=hs_captured,
            hs_free=hs_free,
            hs_counter=hs_counter,
            merges=merges(ctx, sections.many("merge")),
            rearm_as=counter(rearm_as) if rearm_as is not None else "",
        )
    ]


def _rearm_split(ctx: Context, guard: str, units: list[str]) -> list[str]:
    """An unarmed squad capturing only HS-size armed enemies splits on rearming
    (A20.551, as ``rearm``): the two new HS get their handles here."""
    captor, state = ctx.state.units[guard], ctx.state
    armed = [state.units[h] for h in units if state.units[h].armed]
    if captor.status != UNARMED or captor.unit_kind != "squad" or not armed:
        return []
    if any(t.us >= captor.us for t in armed) or not any(t.us == 2 for t in armed):
        return []
    return [ctx.new_handle(captor.side), ctx.new_handle(captor.side)]


def parse_mutual(ctx: Context, sections: Sections) -> list[ev.Record]:
    """``mutual g7 a3=5-4-6``: every unit left in the Location; H=COUNTER says what it
    rearms as where the nationality table has no Green/Conscript counter."""
    units: list[str] = []
    counters: dict[str, str] = {}
    for word in sections.positional:
        pair = assignment(word)
        handle = ctx.unit(pair[0] if pair else word)
        if handle in units:
            raise InputRefusal(f"'{handle}' is named twice")
        units.append(handle)
        if pair:
            counters[handle] = counter(pair[1])
    if not units:
        raise InputRefusal("name every unit left in the Location", "mutual g7 a3")
    return [ev.MutualCapture(units=units, counters=counters)]


def parse_recapture(ctx: Context, sections: Sections) -> list[ev.Record]:
    units = ctx.units(sections.positional, "unarmed units recaptured")
    guard = ctx.unit(required(sections, "by", "recapture g6 by a3"))
    return [ev.Recaptured(units=units, guard=guard, merges=merges(ctx, sections.many("merge")))]
