"""Board facts an entry implies: recorded with it, in its group, and said in the reply.

The board is the truth for board facts. When an A20 entry needs one that the book
does not hold (``core.rules.board_facts``: a RtPh surrender needs its units broken),
the entry records it with itself, unless:

* the game is ``strict`` (the players record every board fact: the entry is refused
  as it always was);
* the book set that fact in this same phase (it cannot have changed since), or moved
  the unit in this phase already: the entry's own check refuses it;
* the players themselves recorded it in an earlier phase (``break``, ``rally``,
  ``move``): the board may have changed since, but a fact the players typed is not
  overwritten unasked. If that fact is the only obstacle, the refusal
  (``StaleBoardFact``) holds the entry that records the change, ready to accept.

What the book holds for A20 (a prisoner, a unit in Melee, No Quarter, capacity) is
refused by the checks, the implied facts' own included: a unit in Melee does not
move, an unarmed unit never breaks nor enters a Known enemy-occupied Location.
"""

from __future__ import annotations

from stockade.core import rules
from stockade.core.commands.command import Command
from stockade.core.commands.verbs_setup import Break, Move, Rally
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal, RuleRefusal
from stockade.core.model.state import GameState
from stockade.core.rules.board_facts import NEEDS, Fact, Wanted, held_refusal, needed
from stockade.core.rules.lookup import clock, raise_reason
from stockade.core.rules.timing import judged_in

IMPLIED = "implied"


class StaleBoardFact(RuleRefusal):
    """Refused only for a board fact the players recorded in an earlier phase, which
    the board may since have changed: ``offers`` are the entries that record the
    change; with them, the refused entry would be accepted."""

    def __init__(self, rule: str, text: str, hint: str = "", offers: tuple[Command, ...] = ()):
        self.offers = offers
        super().__init__(rule, text, hint)

    def __reduce__(self) -> tuple[object, ...]:
        return (StaleBoardFact, (self.rule, self.text, self.hint, self.offers))

    @property
    def lines(self) -> list[str]:
        """The offered entries as typed lines, ready to paste."""
        return [str(c) for c in self.offers]


def with_board_facts(state: GameState, events: list[ev.Record]) -> tuple[list[ev.Record], int]:
    """``events`` with the board facts they imply recorded before them (after the
    clock's move, if they lead with one), and how many were added.

    Raises ``StaleBoardFact`` when a fact the players recorded earlier is the only
    obstacle; leaves the rest to the checks (the entry is then refused as it is)."""
    lead = 1 if events and isinstance(events[0], ev.PhaseSet) else 0
    body = events[lead:]
    if state.strict or not any(type(e) in NEEDS for e in body):
        return events, 0
    # judged where the entry is recorded: the phase the clock's move leads it to
    view = judged_in(state, body) if lead else state
    now = clock(view)
    implied: list[Wanted] = []
    stale: list[tuple[Wanted, str]] = []
    for event in body:
        for want in needed(view, event):
            raise_reason(held_refusal(view, want))
            u = view.units[want.handle]
            told = u.location_told if want.fact is Fact.WITH else u.broken_told
            if told == now or (want.fact is Fact.WITH and u.placed_clock == now):
                continue  # set in this phase: it cannot have changed since
            if told:
                stale.append((want, told))
            elif want not in implied:
                implied.append(want)
    facts = [_record(w, implied=f"{w.rule}: {w.why}") for w in implied]
    if stale:
        _refuse_if_only(state, events[:lead], facts + body, stale)
    return events[:lead] + facts + body, len(facts)


def _record(want: Wanted, implied: str = "") -> ev.StatusChanged:
    if want.fact is Fact.WITH:
        return ev.StatusChanged(handle=want.handle, location=want.location, implied=implied)
    return ev.StatusChanged(handle=want.handle, broken=want.fact is Fact.BROKEN, implied=implied)


def offer_for(want: Wanted) -> Command:
    """The entry that records ``want`` as the players would type it."""
    if want.fact is Fact.WITH:
        return Move(units=(want.handle,), to=want.location)
    if want.fact is Fact.BROKEN:
        return Break(units=(want.handle,))
    return Rally(units=(want.handle,))


def _refuse_if_only(
    state: GameState,
    lead: list[ev.Record],
    rest: list[ev.Record],
    stale: list[tuple[Wanted, str]],
) -> None:
    """Raise ``StaleBoardFact`` when the entry holds once the stale facts are
    recorded; else return, and the entry's own check refuses it as it stands."""
    trial = state.clone()
    offered = [_record(w) for w, _ in stale]
    try:
        for event in [*lead, *offered, *rest]:
            rules.step(trial, event)
    except Refusal:
        return
    want, told = stale[0]
    u = state.units[want.handle]
    turn, attacker, phase = told.split("/")
    was = f"in {u.location}" if want.fact is Fact.WITH else ("broken" if u.broken else "Good Order")
    offers = tuple(offer_for(w) for w, _ in stale)
    raise StaleBoardFact(
        want.rule,
        f"{u.side} {u.counter} ({u.handle}) was recorded {was} (Turn {turn}, {attacker} {phase}); "
        f"this entry needs {want.said}: {want.why}",
        "if the board has changed since, record it first: " + "; ".join(str(c) for c in offers),
        offers,
    )


def said(record: ev.StatusChanged) -> str:
    """The reply's line for a fact the entry implied."""
    if record.location is not None:
        fact = f"{record.handle} in {record.location}"
    else:
        fact = f"{record.handle} {'broken' if record.broken else 'Good Order'}"
    return f"{IMPLIED}: {fact} ({record.implied})"
