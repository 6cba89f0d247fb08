"""An entry judged as the command records it: with the board facts it implies.

The board is the truth for board facts. When an A20 entry needs one that the book
does not hold (``core.rules.board_facts``: a RtPh surrender needs its units broken),
the entry records it with itself, unless:

* the game is ``strict`` (the players record every board fact: the entry is refused
  as it always was);
* the book set that fact in this same phase (it cannot have changed since), or moved
  the unit in this phase already: the entry's own check refuses it;
* the players themselves recorded it in an earlier phase (``break``, ``rally``,
  ``move``): the board may have changed since, but a fact the players typed is not
  overwritten unasked. If that fact is the only obstacle, the entry is refused with
  ``StaleFacts``, naming the facts that would let it through.

``with_facts`` is what the command records; ``trial`` asks the same of an entry
without recording it: the one judge of the side panels, the status line's hints, the
ready entries and the form pickers, so that none of them says "not now" of an entry
the command would accept with a fact it implies.
"""

from __future__ import annotations

import msgspec

from stockade.core import rules
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal, RuleRefusal
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import ChangeTracker, clone_unit, copy_obj
from stockade.core.rules.board_facts import (
    NEEDS,
    Fact,
    Wanted,
    alternatives,
    held_refusal,
    needed,
)
from stockade.core.rules.lookup import clock, raise_reason
from stockade.core.rules.timing import judged_in, phase_to_move_to


class StaleFacts(RuleRefusal):
    """Refused only for board facts the players recorded in an earlier phase, which
    the board may since have changed: with ``wanted`` recorded, the entry would be
    accepted."""

    def __init__(self, rule: str, text: str, hint: str = "", wanted: tuple[Wanted, ...] = ()):
        self.wanted = wanted
        super().__init__(rule, text, hint)

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.rule, self.text, self.hint, self.wanted))


class FactChoice(RuleRefusal):
    """Refused because more than one board fact would each make the entry legal (the
    Guard broken, or in Melee): the book never guesses between them. ``wanted`` are
    the facts that fit, each enough on its own."""

    def __init__(self, rule: str, text: str, hint: str = "", wanted: tuple[Wanted, ...] = ()):
        self.wanted = wanted
        super().__init__(rule, text, hint)

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.rule, self.text, self.hint, self.wanted))


def fact_records(want: Wanted, implied: str = "") -> list[ev.StatusChanged]:
    """The records that make ``want`` so: a Melee marks both of its units."""
    if want.fact is Fact.MELEE:
        return [
            ev.StatusChanged(handle=h, melee=True, implied=implied)
            for h in (want.handle, want.other)
        ]
    return [fact_record(want, implied)]


def fact_record(want: Wanted, implied: str = "") -> ev.StatusChanged:
    """The record that makes ``want`` so (``implied``: why the entry recorded it)."""
    if want.fact is Fact.WITH:
        return ev.StatusChanged(handle=want.handle, location=want.location, implied=implied)
    return ev.StatusChanged(handle=want.handle, broken=want.fact is Fact.BROKEN, implied=implied)


def with_facts(state: GameState, events: list[ev.Record]) -> tuple[list[ev.Record], int]:
    """``events`` with the board facts they imply recorded before them (after the
    clock's move, if they lead with one), and how many were added.

    Raises ``StaleFacts`` when facts the players recorded earlier are the only
    obstacle, and the book's own refusal of a fact (``held_refusal``); leaves the rest
    to the checks (the entry is then refused as it is)."""
    lead = 1 if events and isinstance(events[0], ev.PhaseSet) else 0
    body = events[lead:]
    if state.strict:
        return events, 0
    advance = [fact_record(w, implied=f"{w.rule}: {w.why}") for w in melee_advance(state, body)]
    if advance:
        return events[:lead] + advance + body, len(advance)
    if not any(type(e) in NEEDS for e in body):
        return events, 0
    # judged where the entry is recorded: the phase the clock's move leads it to
    view = judged_in(state, body) if lead else state
    now = clock(view)
    implied: list[Wanted] = []
    stale: list[tuple[Wanted, str]] = []
    asked: list[tuple[Wanted, ev.Record]] = []
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
                asked.append((want, event))
    for want, event in asked:
        rivals = alternatives(view, event, want)
        if rivals:
            others = [w for w in implied if w != want]
            implied[implied.index(want)] = _one_that_fits(
                state, events[:lead], others, want, rivals, body
            )
    facts = [r for w in implied for r in fact_records(w, implied=f"{w.rule}: {w.why}")]
    if stale:
        _refuse_if_only(state, events[:lead], facts + body, stale)
    return events[:lead] + facts + body, len(facts)


MELEE_RULE = "A11"
MELEE_WHY = "Melee is fought within one Location, which the ATTACKER advanced into in its APh"


def melee_advance(state: GameState, body: list[ev.Record]) -> list[Wanted]:
    """The advance a Melee across two Locations implies (A11: CC, and so Melee, is
    within one Location). In the APh or CCPh only the ATTACKER advances: its units
    went into the DEFENDER's Location, which is implied, as a CC capture implies it.
    In another phase the Melee may be one that began in an earlier Player Turn: who
    advanced is not known, and ``FactChoice`` offers each advance (never a guess).
    Empty when the units share a Location; the Melee's own check refuses the rest."""
    named = [
        e.handle for e in body if isinstance(e, ev.StatusChanged) and e.melee and not e.implied
    ]
    units = [state.units[h] for h in dict.fromkeys(named) if h in state.units]
    units = [u for u in units if u.on_board and u.location and not u.melee]
    if len({u.location for u in units}) < 2 or len({u.side for u in units}) != 2:
        return []
    attackers = [u for u in units if u.side == state.attacker]
    defenders = [u for u in units if u.side != state.attacker]
    into = {u.location for u in defenders}
    if state.phase in ("APh", "CCPh") and len(into) == 1:
        (there,) = into
        wants = [
            Wanted(u.handle, Fact.WITH, there, MELEE_RULE, MELEE_WHY)
            for u in attackers
            if u.location != there
        ]
        for want in wants:
            raise_reason(held_refusal(state, want))
        return wants
    why = "Melee is fought within one Location"
    either = tuple(
        Wanted(u.handle, Fact.WITH, place, MELEE_RULE, why)
        for movers, places in ((attackers, into), (defenders, {u.location for u in attackers}))
        if len(places) == 1
        for place in places
        for u in movers
        if u.location != place
    )
    raise FactChoice(
        MELEE_RULE,
        f"{why}, and "
        + ", ".join(f"{u.handle} is in {u.location}" for u in units)
        + f"; in the {state.phase} the book does not know which side advanced into the "
        "other's Location, and does not guess: record the one the board shows, then "
        "this entry",
        wanted=either,
    )


def _one_that_fits(
    state: GameState,
    lead: list[ev.Record],
    others: list[Wanted],
    want: Wanted,
    rivals: list[Wanted],
    body: list[ev.Record],
) -> Wanted:
    """The one of ``want`` and its ``rivals`` that makes the entry legal; ``FactChoice``
    naming each when more than one does (never a guess between board facts); ``want``
    when none does (the entry's own check then says why)."""
    before = [r for w in others for r in fact_records(w)]
    fitting = [
        w
        for w in [want, *rivals]
        if _stepped_refusal(state, [*lead, *before, *fact_records(w), *body]) is None
    ]
    if len(fitting) == 1:
        return fitting[0]
    if not fitting:
        return want
    u = state.units[want.handle]
    raise FactChoice(
        want.rule,
        f"this entry needs one of: {' or '.join(w.said for w in fitting)} "
        f"({'; '.join(dict.fromkeys(w.why for w in fitting))}); the book does not hold "
        f"which, and does not guess: record what the board shows of {u.side} {u.counter} "
        f"({u.handle}), then this entry",
        wanted=tuple(fitting),
    )


def _refuse_if_only(
    state: GameState,
    lead: list[ev.Record],
    rest: list[ev.Record],
    stale: list[tuple[Wanted, str]],
) -> None:
    """Raise ``StaleFacts`` when the entry holds once the stale facts are recorded;
    else return, and the entry's own check refuses it as it stands."""
    if _stepped_refusal(state, [*lead, *(fact_record(w) for w, _ in stale), *rest]):
        return
    want, told = stale[0]
    u = state.units[want.handle]
    turn, attacker, phase = told.split("/")
    was = f"in {u.location}" if want.fact is Fact.WITH else ("broken" if u.broken else "Good Order")
    raise StaleFacts(
        want.rule,
        f"{u.side} {u.counter} ({u.handle}) was recorded {was} (Turn {turn}, {attacker} {phase}); "
        f"this entry needs {want.said}: {want.why}",
        wanted=tuple(w for w, _ in stale),
    )


def _stepped_refusal(state: GameState, records: list[ev.Record]) -> Refusal | None:
    """Why ``records``, folded in turn into a copy of ``state``, are refused, or None.

    An entry of one event after a clock's move and facts (what a picker asks of each
    candidate) is judged in a ``sandbox`` that copies only the units the facts set, as
    ``Judge`` does: a whole ``clone`` per candidate made a long campaign's capture list
    take seconds."""
    before, last = records[:-1], records[-1:]
    if last and all(isinstance(r, (ev.PhaseSet, ev.StatusChanged)) for r in before):
        ahead = sandbox(state, tuple(before))
        try:
            for record in before:
                rules.step(ahead, record)
            rules.check(ahead, last[0])
        except Refusal as refusal:
            return refusal
        return None
    copy = state.clone()
    try:
        for record in records:
            rules.step(copy, record)
    except Refusal as refusal:
        return refusal
    return None


class Verdict(msgspec.Struct, frozen=True):
    """What the command would say of an entry: ``refusal`` (None: accepted), and the
    board facts it would record with it."""

    refusal: Refusal | None
    implied: tuple[ev.StatusChanged, ...] = ()

    @property
    def accepted(self) -> bool:
        return self.refusal is None

    @property
    def facts_said(self) -> str:
        """The implied facts as a reader sees them: ``a1 broken, g1 in L4``."""
        return ", ".join(fact_said(f) for f in self.implied)

    @property
    def records_too(self) -> str:
        """``recording it also marks a1 broken``, or "" (``records_too``)."""
        return records_too(self.facts_said)


def records_too(facts_said: str, entry: str = "it") -> str:
    """The board facts an entry would record with itself, said as what recording it
    will do (never "the entry records g1 broken", which reads as if g1 were broken
    already, nor "this entry", which a panel line has not shown): ``recording the
    escape also marks a1 broken``; "" when it implies none."""
    return f"recording {entry} also marks {facts_said}" if facts_said else ""


def fact_said(record: ev.StatusChanged) -> str:
    """One implied fact: ``a1 broken``, ``g1 Good Order``, ``g1 in L4``."""
    if record.location is not None:
        return f"{record.handle} in {record.location}"
    if record.melee:
        return f"{record.handle} in Melee"
    return f"{record.handle} {'broken' if record.broken else 'Good Order'}"


def trial(state: GameState, events: list[ev.Record], follow_clock: bool = False) -> Verdict:
    """``events`` judged as entered now, writing nothing (``Judge``, for one entry)."""
    return Judge(state)(events, follow_clock)


class Judge:
    """Entries judged as entered in ``state``, writing nothing: with the board facts
    they imply (``with_facts``), checked as the book would fold them.

    Many entries asked of one state (a panel's prisoners, a picker's candidates) often
    imply the same facts (the prisoners of one Guard, its being broken): the copy of
    the game with those facts recorded is made once per set of facts, not per entry."""

    def __init__(self, state: GameState):
        self.state = state
        self._after: dict[tuple[ev.Record, ...], GameState | Refusal] = {}

    def __call__(self, events: list[ev.Record], follow_clock: bool = False) -> Verdict:
        """``follow_clock``: judged in the later phase of this Player Turn the clock
        would move to for them (what a typed command does: a capture typed in the APh
        is recorded in the CCPh); else in the phase now (what "may now" means)."""
        state = self.state
        move = phase_to_move_to(state, events) if follow_clock else None
        lead: list[ev.Record] = []
        if move is not None:
            lead = [ev.PhaseSet(turn=state.turn, attacker=state.attacker, phase=move.phase)]
        try:
            records, added = with_facts(state, lead + events)
        except Refusal as refusal:
            return Verdict(refusal)
        before = records[: len(lead) + added]
        facts = tuple(r for r in before[len(lead) :] if isinstance(r, ev.StatusChanged))
        if len(events) != 1:
            return Verdict(_stepped_refusal(state, records), facts)
        if not added:  # nothing implied: the entry's check alone, no copy of the game
            try:
                rules.check(judged_in(state, events) if move else state, events[0])
            except Refusal as refusal:
                return Verdict(refusal)
            return Verdict(None)
        after = self._state_after(tuple(before))
        if isinstance(after, Refusal):
            return Verdict(after, facts)
        try:
            rules.check(after, events[0])
        except Refusal as refusal:
            return Verdict(refusal, facts)
        return Verdict(None, facts)

    def _state_after(self, before: tuple[ev.Record, ...]) -> GameState | Refusal:
        """The game with ``before`` (the clock's move, the implied facts) folded in, or
        why one of them is refused."""
        found = self._after.get(before)
        if found is None:
            ahead = sandbox(self.state, before)
            try:
                for record in before:
                    rules.step(ahead, record)
            except Refusal as refusal:
                found = refusal
            else:
                found = ahead
            self._after[before] = found
        return found


def sandbox(state: GameState, records: tuple[ev.Record, ...]) -> GameState:
    """A copy of ``state`` to fold ``records`` into (a clock's move, implied facts),
    copying only what they set: the state's own fields, and each fact's unit with the
    prisoners that move with it (``setup.apply_status``); every other unit, side and
    book is shared with ``state``, read only. A whole ``clone`` copies every unit of a
    long campaign, for one fact.

    Only a ``PhaseSet`` or a ``StatusChanged`` that ``held_refusal`` lets through (no
    unit in Melee moves: no Melee ends) may be folded here."""
    assert all(isinstance(r, (ev.PhaseSet, ev.StatusChanged)) for r in records)
    tracker = ChangeTracker()
    ahead = copy_obj(state)
    d = ahead.__dict__  # set directly: nothing here is part of an undo record
    d.pop("_prisoner_index", None)
    d.pop("_location_index", None)
    object.__setattr__(ahead, "_tracker", tracker)  # never the live state's
    units = dict(state.units)
    for record in records:
        if not isinstance(record, ev.StatusChanged) or record.handle not in units:
            continue
        for u in [state.units[record.handle], *state.prisoners_of(record.handle)]:
            if units[u.handle] is u:
                mine = clone_unit(u)
                mine._track(tracker)
                units[u.handle] = mine
    d["units"] = units
    return ahead
