"""What the reply to an entry adds after the sentence: the automatic effects the rules
applied and what the players must still do on the board (A20.24, A20.221, A20.551).

Read from the state after the event; nothing here changes the state.
"""

from __future__ import annotations

from stockade.core.model import events as ev
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import ACTIVE, PRISONER, UNARMED, Unit

# Escapes that take the unit out of its Location: (rule, how it is said)
_LEAVES = {"withdrawal": ("A11.2", "a Withdrawal"), "infiltration": ("A11.22", "an Infiltration")}

_CLAIMS = {
    "encircled": "Encircled",
    "hob": "surrendering on a Heat of Battle DR (A15.5)",
}


def _scrounged(state: GameState, record: ev.Scrounged) -> list[str]:
    """What the Scrounging DR did: the unit (or, off a wreck, its HS) rearmed as its new
    counter, or still unarmed (A20.552; a wreck: D10.5)."""
    rule = "A20.552, D10.5" if record.wreck else "A20.552"
    made = [state.units.get(h) for h in (record.handle, *record.split_into)]
    armed = [u for u in made if u is not None and u.created == record.seq and u.status == ACTIVE]
    if armed:
        return [f"{u.handle} is rearmed as {u.counter} ({rule})" for u in armed]
    need = "a dr of 1-3 vs a wreck" if record.wreck else "a DR of 2"
    return [f"{record.handle} stays unarmed: only {need} rearms ({rule})"]


def reminders(record: ev.Record, state: GameState) -> list[str]:
    """Lines for the reply to ``record``, just folded into ``state``."""
    lines: list[str] = []
    if isinstance(record, ev.Surrendered):
        claim = _CLAIMS.get(record.reason)
        if claim:
            lines.append(
                f"recorded as the players' claim: {', '.join(record.units)} "
                f"{'is' if len(record.units) == 1 else 'are'} {claim}; Stockade does not "
                "track it (A20.21)"
            )
        if record.others_why:
            lines.append(f"the rest of the stack does not surrender: {record.others_why} (A20.21)")
        lines += _sw_left(state, record.units, record.seq)
    elif isinstance(record, ev.SurrenderRejected) and record.others_why:
        lines.append(f"the rest of the stack is not rejected: {record.others_why} (A20.21)")
    elif isinstance(record, ev.Captured):
        guard = state.units.get(record.guard)
        if guard is not None and guard.created == record.seq and guard.status == ACTIVE:
            if not guard.note.startswith("A20.221"):  # an A20.221 exchange: said below
                lines.append(f"{guard.handle} is rearmed as {guard.counter}: {guard.note}")
        elif guard is not None and guard.status in (PRISONER, UNARMED):
            lines += _ineffectual(state, record, guard)
        # the excess freed as Unarmed was captured too, and dropped its SW (A20.24)
        taken = [h for h in record.units if _taken_now(state, h, record.seq) or h in record.freed]
        taken += [record.hs_captured] if record.split else []
        lines += _sw_left(state, taken, record.seq)
    elif isinstance(record, ev.Scrounged):
        lines += _scrounged(state, record)
    elif isinstance(record, ev.Massacred) and record.by in state.units:
        lines += _massacre_penalties(state, state.units[record.by].side, record.seq)
    elif isinstance(record, ev.EscapedBy) and record.route in _LEAVES:
        rule, how = _LEAVES[record.route]
        left = [state.units[h] for h in record.units if h in state.units]
        if left and left[0].location:
            # the entry frees them; where they went is the board's, and the next move's
            lines.append(
                f"{' '.join(u.handle for u in left)} still recorded in {left[0].location}: "
                f"{how} ends in an adjacent, Accessible Location ({rule}); record it: move "
                f"{left[0].handle} LOC"
            )
    lines += _voided(state, record.seq)
    lines += melee_ended(state, record.seq)
    return lines


def melee_ended(state: GameState, seq: int) -> list[str]:
    """The Melees entry ``seq`` ended: no unit of the other side left to fight there
    (``melee.settle_melee``), one line per Location."""
    where: dict[str, list[str]] = {}
    for u in state.units.values():
        if u.melee_end_seq == seq:
            where.setdefault(u.location, []).append(u.handle)
    return [
        f"the Melee in {place} has ended: no enemy unit is left to fight there "
        "(Stockade's ruling, The end of a Melee); "
        f"{', '.join(handles)} {'is' if len(handles) == 1 else 'are'} out of Melee"
        for place, handles in where.items()
    ]


def _taken_now(state: GameState, handle: str, seq: int) -> bool:
    u = state.units.get(handle)
    return u is not None and u.captured_seq == seq


def _sw_left(state: GameState, handles: list[str], seq: int) -> list[str]:
    """A20.24: a unit that surrenders or is captured first abandons all its SW. Stockade
    does not track SW (docs/conformance.md), so it reminds the players, on the first
    capture each side makes (Stockade's ruling, Support Weapons): the rule is the same
    every time, and said after every capture it read as if SW had been entered."""
    taken = [u for u in map(state.units.get, handles) if u is not None]
    if not taken or _took_prisoners_before(state, taken[0].side, seq):
        return []
    where = sorted({_where(u) for u in taken})
    owners = " or ".join(u.handle for u in taken)
    return [
        f"any SW {owners} had stay in {', '.join(where)}, unpossessed: the captor must "
        "Recover them (A20.24; said only the first time a side's units are taken)"
    ]


def _took_prisoners_before(state: GameState, side: str, seq: int) -> bool:
    """Whether a unit of ``side`` was captured by an entry before ``seq`` (a capture
    that Simultaneous CC made ineffectual has none: A20.221)."""
    return any(u.side == side and 0 < u.captured_seq < seq for u in state.units.values())


def _where(u: Unit | None) -> str:
    if u is None:
        return "their Location"
    return u.captured_at or u.location or "their Location"


def remade_by_a20221(state: GameState, seq: int) -> list[Unit]:
    """The units entry ``seq`` gave back or exchanged by A20.221: its reply tells each
    one in full (what it is now, and why), so the prisoners among them need no second
    line saying they went free."""
    return [u for u in state.units.values() if u.created == seq and u.note.startswith("A20.221")]


def _voided(state: GameState, seq: int) -> list[str]:
    """A20.221: units given back by this entry because their captors' side was wholly
    eliminated/captured in the same simultaneous CC, or exchanged for Green/Conscript
    units because all opposing units there captured each other."""
    back = remade_by_a20221(state, seq)
    return [
        f"{u.handle} is {u.side} {u.counter}{' again' if 'as it was' in u.note else ''}, "
        f"armed: {u.note}"
        for u in back
    ]


def _ineffectual(state: GameState, record: ev.Captured, captor: Unit) -> list[str]:
    """A20.221: a capture back by a unit captured this CCPh whose side was wholly
    captured there: the units it named are unchanged."""
    named = [state.units[h] for h in record.units if h in state.units]
    if not named or any(u.captured_seq == record.seq for u in named):
        return []
    who = ", ".join(u.handle for u in named)
    stays = "stays as it was" if len(named) == 1 else "stay as they were"
    where = captor.captured_at or captor.location
    return [
        f"{captor.handle}'s capture of {who} is ineffectual: the {captor.side} side was "
        f"wholly captured in {where} in this simultaneous CC, so {who} {stays} (A20.221)"
    ]


def _massacre_penalties(state: GameState, perpetrator: str, seq: int) -> list[str]:
    """What this Massacre set going (A20.4), as the state now says: No Quarter invoked
    and the enemy's ELR raised, each only when it is this entry that did it."""
    side = state.sides[perpetrator]
    lines = []
    if side.no_quarter and side.no_quarter_seq == seq:
        lines.append(
            f"{perpetrator} has invoked No Quarter: its enemies never surrender to it (A20.4)"
        )
    if side.massacred and side.massacre_seq == seq:  # its first: the enemy's ELR goes up
        for name, other in state.sides.items():
            if name != perpetrator and other.elr_raised:
                lines.append(f"{name}'s ELR raised to {other.elr} (A20.4, once only)")
    return lines
