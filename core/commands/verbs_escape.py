"""Verbs for escape (A20.55), Withdrawal and Infiltration (A11.2, A11.22), rearming
(A20.551) and Scrounging (A20.552)."""

from __future__ import annotations

from stockade.core.commands.grammar import REARM_HOWS
from stockade.core.commands.handles import Context
from stockade.core.commands.lexer import Sections
from stockade.core.commands.words import counter, number, one
from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal
from stockade.core.model.tracked_unit import UNARMED


def parse_escape(ctx: Context, sections: Sections) -> list[ev.Record]:
    units = ctx.units(sections.positional, "escaping prisoners")
    guard_dies, melee = sections.has("guard-dies"), sections.has("melee")
    if guard_dies and melee:
        raise InputRefusal("either the Guard dies (guard-dies) or a Melee forms (melee), not both")
    outcome: ev.EscapeOutcome = "escaped" if guard_dies else "melee" if melee else "no-effect"
    return [
        ev.EscapeAttempted(
            units=units,
            ntc_failed=[ctx.unit(w) for w in sections.many("ntcfail")],
            killed=[ctx.unit(w) for w in sections.many("killed")],
            guard_eliminated=guard_dies,
            outcome=outcome,
            own_borders=sections.has("own-borders"),
        )
    ]


def parse_withdraw(ctx: Context, sections: Sections) -> list[ev.Record]:
    return [
        ev.EscapedBy(
            units=ctx.units(sections.positional, "prisoners withdrawing"), route="withdrawal"
        )
    ]


def parse_infiltrate(ctx: Context, sections: Sections) -> list[ev.Record]:
    return [
        ev.EscapedBy(
            units=ctx.units(sections.positional, "prisoners infiltrating"), route="infiltration"
        )
    ]


def parse_guard_infiltrates(ctx: Context, sections: Sections) -> list[ev.Record]:
    guard = ctx.unit(one(sections.positional, "Guard", "guard-infiltrates"))
    return [ev.EscapedBy(units=[guard], route="guard-infiltrated")]


def parse_rearm(ctx: Context, sections: Sections) -> list[ev.Record]:
    """``rearm g1 cc a3 [as 4-3-6]``. An unarmed squad rearmed by a HS-size enemy
    becomes an armed HS and an unarmed HS (A20.551): both get new handles here."""
    words = sections.positional
    how = next((h for h in REARM_HOWS if h == words[1].lower()), None) if len(words) == 3 else None
    if how is None:
        raise InputRefusal(
            "write: rearm H cc|alone|surrender ENEMY [as COUNTER]", "e.g. rearm g1 cc a3"
        )
    handle, enemy = ctx.unit(words[0]), ctx.unit(words[2])
    as_counter = sections.one("as")
    unit, foe = ctx.state.units[handle], ctx.state.units[enemy]
    split_into: list[str] = []
    if unit.status == UNARMED and unit.unit_kind == "squad" and foe.us == 2:
        split_into = [ctx.new_handle(unit.side), ctx.new_handle(unit.side)]
    return [
        ev.Rearmed(
            handle=handle,
            how=how,
            enemy=enemy,
            counter=counter(as_counter) if as_counter else "",
            split_into=split_into,
        )
    ]


def parse_scrounge(ctx: Context, sections: Sections) -> list[ev.Record]:
    words = sections.positional
    if len(words) != 2:
        raise InputRefusal("write: scrounge H DR [wreck] [as COUNTER]", "e.g. scrounge g1 2")
    as_counter = sections.one("as")
    return [
        ev.Scrounged(
            handle=ctx.unit(words[0]),
            roll=number(words[1], "the Scrounging DR"),
            wreck=sections.has("wreck"),
            counter=counter(as_counter) if as_counter else "",
        )
    ]
