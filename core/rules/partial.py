"""An entry that no longer holds in part keeps the part that does.

When a strike or an amendment folds a later entry again and the entry as written no
longer holds, the fold asks here for the part of it that still holds: an event with
the part that fails left out, and the words that say what was left out and why. The
table is short on purpose: a part is left out only when leaving it out changes
nothing else the entry says (the player's record of what happened stands).

* An elimination that names a takeover (or the prisoners kept) of a unit that guards
  no prisoners now: the elimination stands, the takeover is dropped (A20.5: only a
  Guard's prisoners pass on).
"""

from __future__ import annotations

import msgspec

from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal
from stockade.core.model.state import GameState


def part_that_holds(state: GameState, event: ev.Record) -> tuple[ev.Record, str] | None:
    """The part of ``event`` that holds in ``state`` (it does not hold whole), with
    what was dropped and why; None when no part of it holds on its own."""
    from stockade.core.rules import check  # the rulebook imports this module's neighbours

    if not isinstance(event, ev.Eliminated) or (event.takeover is None and not event.keep):
        return None
    unit = state.units.get(event.handle)
    if unit is None or state.prisoners_of(unit.handle):
        return None
    part = msgspec.structs.replace(event, takeover=None, keep=[])
    try:
        check(state, part)
    except Refusal:
        return None
    who = f"the takeover by {event.takeover}" if event.takeover else "the prisoners it keeps"
    return part, f"{event.handle} eliminated; {who} is dropped: {event.handle} guards none now"
