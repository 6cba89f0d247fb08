"""Board facts an entry implies, as the command records them: recorded with it, in its
group, and said in the reply (``core.rules.implying`` decides which, and judges an
entry so for the panels and pickers). A fact the players recorded in an earlier phase
is offered as the entry that records the change (``StaleBoardFact``), never
overwritten unasked.

What the book holds for A20 (a prisoner, a unit in Melee, No Quarter, capacity) is
refused by the checks, the implied facts' own included: a unit in Melee does not
move, an unarmed unit never breaks nor enters a Known enemy-occupied Location.
"""

from __future__ import annotations

from stockade.core.commands.command import Command
from stockade.core.commands.verbs_setup import Break, Melee, Move, Rally
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal
from stockade.core.model.state import GameState
from stockade.core.rules.board_facts import Fact, Wanted
from stockade.core.rules.implying import FactChoice, StaleFacts, fact_said, with_facts

IMPLIED = "implied"


class _Offering(Refusal):
    """A refusal that holds the entries which would let the refused one through,
    ``offers``, as typed Commands (``lines``: ready to paste)."""

    def __init__(self, rule: str, text: str, hint: str = "", offers: tuple[Command, ...] = ()):
        self.offers = offers
        super().__init__(rule, text, hint)

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.rule, self.text, self.hint, self.offers))

    @property
    def lines(self) -> list[str]:
        """The offered entries as typed lines, ready to paste."""
        return [str(c) for c in self.offers]


class StaleBoardFact(_Offering, StaleFacts):
    """Refused only for a board fact the players recorded in an earlier phase, which
    the board may since have changed: ``offers`` are the entries that record the
    change; with them, the refused entry would be accepted."""


class BoardFactChoice(_Offering, FactChoice):
    """Refused because more than one board fact would each make the entry legal (the
    Guard broken, or in Melee): the book never guesses between them. ``offers`` are
    the entries that record each one, as typed; the players record the one the board
    shows, then the entry again."""


def with_board_facts(state: GameState, events: list[ev.Record]) -> tuple[list[ev.Record], int]:
    """``events`` with the board facts they imply recorded before them (after the
    clock's move, if they lead with one), and how many were added
    (``core.rules.implying.with_facts``).

    Raises ``StaleBoardFact`` when a fact the players recorded earlier is the only
    obstacle, offering the entries that record the change, and ``BoardFactChoice``
    when several facts would each do, offering each."""
    try:
        return with_facts(state, events)
    except FactChoice as choice:
        offers = tuple(offer_for(w) for w in choice.wanted)
        raise BoardFactChoice(
            choice.rule,
            choice.text,
            "record the one the board shows first: " + " | ".join(str(c) for c in offers),
            offers,
        ) from None
    except StaleFacts as stale:
        offers = tuple(offer_for(w) for w in stale.wanted)
        raise StaleBoardFact(
            stale.rule,
            stale.text,
            "if the board has changed since, record it first: " + "; ".join(str(c) for c in offers),
            offers,
        ) from None


def offer_for(want: Wanted) -> Command:
    """The entry that records ``want`` as the players would type it."""
    if want.fact is Fact.WITH:
        return Move(units=(want.handle,), to=want.location)
    if want.fact is Fact.MELEE:
        return Melee(units=(want.handle, want.other))
    if want.fact is Fact.BROKEN:
        return Break(units=(want.handle,))
    return Rally(units=(want.handle,))


def fact_text(record: ev.StatusChanged) -> str:
    """The board fact a status record sets: ``g1 broken``, ``g1 is in L4``."""
    # a Location is said as a fact of the board ("g1 is in L4"), never read as a
    # Location's name beside a handle
    if record.location is not None:
        return f"{record.handle} is in {record.location}"
    return fact_said(record)


def said(record: ev.StatusChanged) -> str:
    """The reply's line for a fact the entry implied."""
    return f"{IMPLIED}: {fact_text(record)} ({record.implied})"


def entry_for(record: ev.StatusChanged) -> Command | None:
    """The entry the players would type for an implied fact (a move, a break, a rally);
    None for one no single entry of theirs records (a Melee names two units)."""
    if record.location is not None:
        return Move(units=(record.handle,), to=record.location)
    if record.broken is not None and not record.melee:
        return Break(units=(record.handle,)) if record.broken else Rally(units=(record.handle,))
    return None
