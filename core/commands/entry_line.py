"""An entry as the command that records it: ``entry_command(record)``, the inverse of
each verb's ``events``. Its line (``str(command)``, the grammar's own rendering) is what
the player would type for it, so an amendment starts from the entry as it stands.

None for an entry no single command of the players records as it is (a clock move, a
unit's entry, a CC the program resolved), and for a field a command cannot say.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from stockade.core.commands.command import Command, MergeSpec, Pair
from stockade.core.commands.implied import entry_for
from stockade.core.commands.verbs_capture import Capture, Mutual, Recapture, Reject, Surrender
from stockade.core.commands.verbs_escape import (
    Escape,
    GuardInfiltrates,
    Infiltrate,
    Rearm,
    Scrounge,
    Withdraw,
)
from stockade.core.commands.verbs_guards import Abandon, Escort, Transfer
from stockade.core.commands.verbs_losses import Eliminate, Massacre, Reduce
from stockade.core.commands.verbs_setup import NoQuarter
from stockade.core.model import events as ev

# the word ``by`` takes for each cause of a loss (verbs_losses.read_cause reads it back);
# a fire cause is said by the side that fired, as the record keeps it
_CAUSE_WORDS: dict[str, str] = {"cc": "cc", "sniper": "sniper", "rout": "rout"}


def _cause(cause: str, by_side: str, default: str) -> str | None:
    if cause == default:
        return None
    if cause in ("fire-own", "fire-enemy"):
        return by_side or ("own" if cause == "fire-own" else "enemy")
    return _CAUSE_WORDS.get(cause, cause)


def _merges(merges: list[ev.Merge]) -> tuple[MergeSpec, ...]:
    return tuple(MergeSpec((m.parts[0], m.parts[1]), m.into or None) for m in merges)


def _surrender(r: ev.Surrendered) -> Command:
    return Surrender(
        units=tuple(r.units),
        to=r.guard,
        reason=r.reason,
        free=tuple(r.freed),
        merges=_merges(r.merges),
        because=r.others_why,
    )


def _capture(r: ev.Captured) -> Command:
    hs = Pair(r.split, r.hs_counter) if r.split else None
    return Capture(
        by=r.guard,
        units=tuple(r.units),
        hs=hs,
        free=tuple(r.freed),
        as_=r.rearm_as,
        merges=_merges(r.merges),
    )


def _escape(r: ev.EscapeAttempted) -> Command:
    return Escape(
        units=tuple(r.units),
        ntcfail=tuple(r.ntc_failed),
        killed=tuple(r.killed),
        guard_dies=r.guard_eliminated,
        melee=r.outcome == "melee",
        own_borders=r.own_borders,
    )


def _escaped_by(r: ev.EscapedBy) -> Command:
    if r.route == "guard-infiltrated":
        return GuardInfiltrates(unit=r.units[0])
    return (Withdraw if r.route == "withdrawal" else Infiltrate)(units=tuple(r.units))


def _eliminate(r: ev.Eliminated) -> Command | None:
    if r.cause in ("escape", "massacre"):
        return None  # recorded by an escape or a massacre, not by 'eliminate'
    return Eliminate(
        unit=r.handle,
        by=_cause(r.cause, r.by_side, "other"),
        takeover=r.takeover,
        keep=tuple(r.keep),
    )


def _reduce(r: ev.CasualtyReduced) -> Command:
    return Reduce(
        unit=r.handle, by=_cause(r.cause, r.by_side, "fire-enemy"), to=r.counter, lost=r.lost
    )


_INVERSES: dict[type[ev.Record], Callable[[Any], Command | None]] = {
    ev.Surrendered: _surrender,
    ev.SurrenderRejected: lambda r: Reject(
        units=tuple(r.units), by=r.by_side, because=r.others_why
    ),
    ev.Captured: _capture,
    ev.MutualCapture: lambda r: Mutual(
        units=tuple(Pair(h, r.counters.get(h, "")) for h in r.units)
    ),
    ev.Recaptured: lambda r: Recapture(units=tuple(r.units), by=r.guard, merges=_merges(r.merges)),
    ev.Transferred: lambda r: Transfer(
        units=tuple(r.units), to=r.to_guard, merges=_merges(r.merges)
    ),
    ev.Abandoned: lambda r: Abandon(units=tuple(r.units)),
    ev.EscortedOff: lambda r: Escort(unit=r.guard),
    ev.Eliminated: _eliminate,
    ev.CasualtyReduced: _reduce,
    ev.Massacred: lambda r: Massacre(units=tuple(r.units), by=r.by),
    ev.EscapeAttempted: _escape,
    ev.EscapedBy: _escaped_by,
    ev.Rearmed: lambda r: Rearm(unit=r.handle, how=r.how, enemy=r.enemy, as_=r.counter),
    ev.Scrounged: lambda r: Scrounge(unit=r.handle, roll=r.roll, wreck=r.wreck, as_=r.counter),
    ev.NoQuarterInvoked: lambda r: NoQuarter(side=r.side, reason=r.reason),
    ev.StatusChanged: lambda r: None if r.implied else entry_for(r),
}


def entry_command(record: ev.Record) -> Command | None:
    """The command that records ``record`` as it stands, or None (see the module)."""
    inverse = _INVERSES.get(type(record))
    return inverse(record) if inverse is not None else None


def entry_line(record: ev.Record) -> str:
    """The line the player would type for ``record``; "" when no command says it."""
    command = entry_command(record)
    return str(command) if command is not None else ""
