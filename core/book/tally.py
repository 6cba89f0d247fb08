"""The CVP tally: a projection of the game state, every point explained.

The fold already books each CVP-worthy casualty as a ``Casualty`` line (which unit,
which event, which rule, which multiplier). The tally only reads those lines; it never
decides what a casualty is worth. The one thing it adds is the projection "if the game
ended now": every prisoner still guarded counts double (A20.1). At game end the
``GameEnded`` event books those prisoners itself, so the projection is then empty and
``cvp == cvp_if_ended``.
"""

from __future__ import annotations

import msgspec

from stockade.core.book.tally_sheet import (
    MAX_BAR,
    SideTally,
    Tally,
    TallyLine,
    to_html,
    to_json,
    to_markdown,
    to_text,
    verdict_lines,
)
from stockade.core.book.verdict import judge
from stockade.core.model.bounds import MAX_TURN
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import PRISONER

# The same wording the fold uses for a line's counter and kind, so a projected line
# reads exactly like the line the game end will book for that prisoner.
from stockade.core.rules.casualties import vp_counter, vp_kind


# --------------------------------------------------------------------- building
def tally(state: GameState) -> Tally:
    """Each side's CVP: the booked casualty lines, plus the end-of-game projection."""
    sides = {name: SideTally(name, side.nationality) for name, side in state.sides.items()}
    for c in state.casualties:
        sides[c.credited].lines.append(
            TallyLine(
                c.unit,
                c.counter,
                c.unit_kind,
                c.seq,
                c.turn,
                c.rule,
                c.base,
                c.multiplier,
                c.why,
                banked=True,
            )
        )
    if not state.ended:
        for u in state.units.values():
            if u.status != PRISONER:
                continue
            captor = state.enemy_of(u.side)
            sides[captor].lines.append(
                TallyLine(
                    u.handle,
                    vp_counter(u),
                    vp_kind(u),
                    u.captured_seq,
                    state.turn,
                    "A20.1",
                    u.origin_cvp,
                    2,
                    f"if the game ended now: prisoner guarded by {u.guard}",
                    banked=False,
                )
            )
    # Every Game Turn from the first to the last one played, those with no casualty too,
    # in order. A turn number read from a log must not decide how much is built (a log
    # may be hostile): the run of turns stops at the schema's bound, and a turn beyond it
    # (never in a log the schema let through) is listed alone.
    played = {state.turn, *(c.turn for c in state.casualties)}
    last = max(played | {1})
    turns = sorted(played | set(range(1, min(last, MAX_TURN) + 1)))
    for side in sides.values():
        side.by_turn = dict.fromkeys(turns, 0)
        for line in side.lines:
            if line.banked:
                side.by_turn[line.turn] = side.by_turn.get(line.turn, 0) + line.points
    verdict = judge(state, {name: s.cvp_if_ended for name, s in sides.items()})
    as_data = msgspec.to_builtins(verdict) if verdict is not None else None
    return Tally(state.scenario, state.turn, state.ended, sides, as_data)


def cvp_if_ended(state: GameState) -> dict[str, int]:
    """Each side's CVP "if the game ended now", as ``tally`` sums it (booked lines,
    and every guarded prisoner double while the game goes on), without making the
    lines: what a write judging the verdict needs (tests/book/test_verdict.py holds the two
    to the same figures)."""
    out = dict.fromkeys(state.sides, 0)
    for c in state.casualties:
        out[c.credited] += c.base * c.multiplier
    if not state.ended:
        for guard in state.guards():
            for u in state.prisoners_of(guard.handle):
                out[state.enemy_of(u.side)] += 2 * u.origin_cvp
    return out


__all__ = [
    "MAX_BAR",
    "SideTally",
    "Tally",
    "TallyLine",
    "cvp_if_ended",
    "tally",
    "to_html",
    "to_json",
    "to_markdown",
    "to_text",
    "verdict_lines",
]
