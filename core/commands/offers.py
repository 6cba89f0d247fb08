"""``offers``: the A20 entries that may happen now in this game, as commands ready to
complete: what ``core.reads.may`` finds allowed in this phase (the side panels'
"may" lines), each turned into the ``Command`` that records it.

A unit the entry needs and the book can choose is chosen as a picker would offer it
first (``core.reads.queries``: legal first, then in the same Location); what only
the board can tell (a DR) is left for the player: the offer's line stops before it.
The TUI shows the lines; the player picks one, edits it if the board went another
way, and enters it like any other line.
"""

from __future__ import annotations

from dataclasses import dataclass

from stockade.core.commands import verbs_capture as capture
from stockade.core.commands import verbs_escape as escape
from stockade.core.commands import verbs_guards as guards
from stockade.core.commands import verbs_losses as losses
from stockade.core.commands.command import Command
from stockade.core.commands.handles import Context
from stockade.core.model.errors import Refusal
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import Unit
from stockade.core.reads import may as m
from stockade.core.reads import queries as q
from stockade.core.rules.implying import Judge


@dataclass(frozen=True)
class Offer:
    """One entry the game allows now: its command, the rule that allows it, and the
    slot the player still has to give ("" when the line is whole)."""

    command: Command
    rule: str
    left: str = ""  # a slot only the board can fill (scrounge's DR); the line stops there

    @property
    def line(self) -> str:
        """The line for the bar: whole, or up to what the player gives (ending in a space)."""
        return self.command.line_before(self.left) if self.left else str(self.command)


def _handles(units: tuple[Unit, ...]) -> tuple[str, ...]:
    return tuple(u.handle for u in units)


def _by_location(units: tuple[Unit, ...]) -> list[tuple[Unit, ...]]:
    """The units split by Location (a stack surrenders as one: A20.21), in order."""
    stacks: dict[str, list[Unit]] = {}
    for u in units:
        stacks.setdefault(u.location, []).append(u)
    return [tuple(stack) for stack in stacks.values()]


def _first_legal(choices: list[q.Choice]) -> str:
    """The handle a picker offers first (legal, then in the same Location)."""
    return next((c.handle for c in choices if c.legal), "")


def _surrender(state: GameState, fact: m.MaySurrender) -> list[Offer]:
    out = []
    for stack in _by_location(fact.units):
        units = _handles(stack)
        # among the captors A20.21 allows (Good Order, armed, may guard), the first the
        # surrender's own check accepts for this stack (capacity, No Quarter)
        captor = (
            _first_legal(q.surrender_captors(state, list(units), among=fact.captors))
            or fact.captors[0].handle
        )
        out.append(Offer(capture.Surrender(units=units, to=captor), "A20.21"))
        out.append(Offer(capture.Reject(units=units, by=fact.enemy), "A20.3"))
    return out


def _transfer(state: GameState, fact: m.MayTransfer) -> list[Offer]:
    """A transfer only to a unit the transfer's own check accepts (A20.5: a friendly,
    armed, unbroken unit in the prisoners' Location takes them "as a SW"): with no
    such taker, no transfer line is offered at all, only the abandonment."""
    prisoners = _handles(fact.prisoners)
    to = (
        _first_legal(q.transfer_guards(state, list(prisoners), among=fact.takers))
        if fact.takers
        else ""
    )
    transfer = [Offer(guards.Transfer(units=prisoners, to=to), "A20.5")] if to else []
    return [*transfer, Offer(guards.Abandon(units=prisoners), "A20.5")]


def _escape(fact: m.MayEscape) -> list[Offer]:
    """How the attack ended only the board knows: one whole line per outcome, the
    likeliest first (the NTC failed: no attack); ``offers`` keeps those the escape's
    own check accepts. A line stopping before the outcome word would be refused."""
    units = _handles(fact.units)
    outcomes = [escape.Escape(units=units, ntcfail=units)] if fact.ntc else []
    outcomes += [
        escape.Escape(units=units, melee=True),
        escape.Escape(units=units, guard_dies=True),
    ]
    return [Offer(command, "A20.55") for command in outcomes]


def _recapture(state: GameState, fact: m.MayRecapture) -> list[Offer]:
    out = []
    for stack in _by_location(fact.free):
        units = _handles(stack)
        # one of the side already there, if the check accepts it; else the board says who
        here = [
            u
            for u in state.units.values()
            if u.side == fact.side and u.location and u.location == stack[0].location
        ]
        by = _first_legal(q.recapture_guards(state, list(units), among=here)) if here else ""
        out.append(Offer(capture.Recapture(units=units, by=by), "A20.54", left="" if by else "by"))
    return out


def _offers(state: GameState, fact: m.May) -> list[Offer]:
    match fact:
        case m.MaySurrender():
            return _surrender(state, fact)
        case m.MayTransfer():
            return _transfer(state, fact)
        case m.MayEscape():
            return _escape(fact)
        case m.MayCaptureBack(unit=p, targets=targets):
            return [Offer(capture.Capture(units=targets, by=p.handle), "A20.221")]
        case m.MayRearm(unit=u, enemy=enemy, how=how):
            return [Offer(escape.Rearm(unit=u.handle, how=how, enemy=enemy.handle), "A20.551")]
        case (
            m.MayMassacre(units=units, victims=victims)
            | m.MustMassacre(units=units, victims=victims)
        ):
            return [Offer(losses.Massacre(units=victims, by=units[0].handle), "A20.4")]
        case m.MayScrounge(units=units):
            return [Offer(escape.Scrounge(unit=u.handle, roll=0), "A20.552", "roll") for u in units]
        case m.MayRecapture():
            return _recapture(state, fact)
        case m.MayEscort(guards=escorts):
            return [Offer(guards.Escort(unit=g.handle), "A20.53") for g in escorts]
    return []  # nothing to enter: Melee, never surrenders, the game's end


def offers(state: GameState, facts: list[m.May] | None = None) -> list[Offer]:
    """The entries that may happen now, in the order the status line names them
    (from ``facts``, ``may_now(state)`` when the caller has them already)."""
    seen: set[str] = set()
    out = []
    judge = Judge(state)
    for fact in m.may_now(state) if facts is None else facts:
        for offer in _offers(state, fact):
            if offer.line not in seen and (offer.left or _accepted(state, judge, offer.command)):
                seen.add(offer.line)
                out.append(offer)
    return out


def _accepted(state: GameState, judge: Judge, command: Command) -> bool:
    """Would ``command``, entered as offered, be recorded? Asked of the judge the
    command itself answers to (``core.rules.implying``): with the board facts it
    implies, in the phase the clock's move would take it to."""
    try:
        events = command.events(Context(state))
    except Refusal:
        return False
    return judge(events, follow_clock=command.follows_clock).accepted
