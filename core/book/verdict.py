"""The verdict: the scenario's Victory Conditions judged on the game as it stands.

``judge(state, amassed)`` is pure: it reads the conditions, Exit VP and Location
control the state keeps (``core.model.victory``) and each side's CVP "if the game
ended now" (the tally's, passed in: the tally is the one place that sums CVP). CVP
read by an "immediately" condition is the same "if the game ended now" figure: meeting
it ends the game now, and at that end a guarded prisoner counts double (A20.1).

The result says who would win, why (the tests that made it), every clause's tests with
their current values, and what each unmet test is missing.
"""

from __future__ import annotations

import msgspec

from stockade.core.model.state import GameState
from stockade.core.model.victory import (
    DRAW,
    MEASURE_WORDS,
    Clause,
    Compare,
    Controls,
    VictoryBook,
    VictoryConditions,
)


class TermResult(msgspec.Struct, frozen=True):
    words: str  # "German CVP amassed 22 >= 20"
    met: bool
    value: int
    missing: str = ""  # "8 more CVP amassed"; "" when met


class ClauseResult(msgspec.Struct, frozen=True):
    words: str  # the clause as typed
    winner: str  # the side it makes win
    when: str  # immediately / end
    met: bool
    any_of: list[list[TermResult]]


class Verdict(msgspec.Struct, frozen=True, kw_only=True):
    result: str  # "German win" / "Russian win" / "draw"
    winner: str  # the winning side ("" for a draw)
    because: str  # the tests met, or what no side met
    ended: bool  # the game has ended: the verdict is final
    immediate: bool  # an "immediately" condition is met: the game ends now
    headline: str  # the one line the player reads
    clauses: list[ClauseResult]
    exit_vp: dict[str, int]
    control: dict[str, str]  # Location -> side, as set
    card: str = ""

    @property
    def key(self) -> str:
        """What a change of verdict is: the result, and whether it is won at once."""
        return self.result + (" (immediately)" if self.immediate else "")


def judge(
    state: GameState,
    amassed: dict[str, int],
    *,
    book: VictoryBook | None = None,
    ended: bool | None = None,
) -> Verdict | None:
    """The verdict on ``state`` (None when the game keeps no Victory Conditions).
    ``book`` and ``ended`` stand for the state's own (the verdict before a change,
    judged on the state after it: only these and the CVP differ)."""
    book = state.vc if book is None else book
    ended = state.ended if ended is None else ended
    vc = book.conditions
    if vc is None:
        return None
    clauses = [_clause(state, book, amassed, c) for c in vc.clauses]
    # an "immediately" clause met wins first; then the first clause met, in card order
    order = [r for r in clauses if r.when == "immediately"] + [
        r for r in clauses if r.when != "immediately"
    ]
    met = next((r for r in order if r.met), None)
    if met is not None:
        winner = met.winner
        because = _because(met)
        immediate = met.when == "immediately"
    else:
        winner = _otherwise(state, vc)
        immediate = False
        because = "no condition met: " + "; ".join(
            f"{r.winner} win needs {_nearest(r)}" for r in clauses
        )
    result = f"{winner} win" if winner else DRAW
    if ended:
        headline = f"game over: {result} ({because})"
    elif immediate:
        headline = f"{result} now ({because}): an immediate win ends the game ('end')"
    else:
        headline = f"if the game ended now: {result} ({because})"
    return Verdict(
        result=result,
        winner=winner,
        because=because,
        ended=ended,
        immediate=immediate and not ended,
        headline=headline,
        clauses=clauses,
        exit_vp={side: book.exit_vp(side) for side in state.sides},
        control=dict(book.held()),
        card=vc.card,
    )


def _otherwise(state: GameState, vc: VictoryConditions) -> str:
    if vc.otherwise:
        return "" if vc.otherwise == DRAW else vc.otherwise
    winners = {_winner(state, c) for c in vc.clauses}
    if len(winners) == 1:  # one side's conditions: the other side wins if none is met
        return state.enemy_of(winners.pop())
    return ""


def _winner(state: GameState, clause: Clause) -> str:
    return state.enemy_of(clause.side) if clause.loses else clause.side


def _because(clause: ClauseResult) -> str:
    group = next(g for g in clause.any_of if all(t.met for t in g))
    said = " and ".join(t.words for t in group)
    return f"{said}, immediately" if clause.when == "immediately" else said


def _nearest(clause: ClauseResult) -> str:
    """What the clause's closest group (fewest unmet tests) still misses."""
    group = min(clause.any_of, key=lambda g: sum(not t.met for t in g))
    return " and ".join(t.missing for t in group if not t.met)


def _clause(
    state: GameState, book: VictoryBook, amassed: dict[str, int], c: Clause
) -> ClauseResult:
    groups = [[_test(state, book, amassed, t) for t in group] for group in c.any_of]
    return ClauseResult(
        words=c.words,
        winner=_winner(state, c),
        when=c.when,
        met=any(all(t.met for t in g) for g in groups),
        any_of=groups,
    )


def _measure(
    state: GameState, book: VictoryBook, amassed: dict[str, int], t: Compare, side: str
) -> int:
    if t.measure == "amassed":
        return amassed.get(side, 0)
    if t.measure == "suffered":
        return amassed.get(state.enemy_of(side), 0)
    if t.measure == "exit":
        return book.exit_vp(side, t.edge)
    return amassed.get(side, 0) + book.exit_vp(side, t.edge)


def _compare(value: int, op: str, target: int) -> bool:
    return {
        ">=": value >= target,
        ">": value > target,
        "<=": value <= target,
        "<": value < target,
        "=": value == target,
    }[op]


def _test(
    state: GameState, book: VictoryBook, amassed: dict[str, int], t: Compare | Controls
) -> TermResult:
    if isinstance(t, Controls):
        return _controls(book, t)
    value = _measure(state, book, amassed, t, t.side)
    target = t.number if t.number is not None else _measure(state, book, amassed, t, t.other)
    what = MEASURE_WORDS[t.measure] + (f" off {t.edge}" if t.edge else "")
    against = str(target) if t.number is not None else f"{t.other} {target}"
    words = f"{t.side} {what} {value} {t.op} {against}"
    met = _compare(value, t.op, target)
    missing = ""
    if not met:
        if t.op in (">=", ">"):
            need = target - value + (1 if t.op == ">" else 0)
            missing = f"{need} more {what} by {t.side}"
        elif t.op == "=":
            missing = f"{t.side} {what} of exactly {target} (now {value})"
        else:
            over = value - target + (1 if t.op == "<" else 0)
            missing = f"{t.side} {what} {over} lower"
    return TermResult(words, met, value, missing)


def _controls(book: VictoryBook, t: Controls) -> TermResult:
    held = [loc for loc in t.locations if book.controller(loc) == t.side]
    need = t.at_least or len(t.locations)
    met = len(held) >= need
    where = " ".join(t.locations)
    amount = "all" if not t.at_least else f"{t.at_least} of"
    words = f"{t.side} controls {len(held)} of {where} (needs {amount})"
    missing = ""
    if not met:
        others = [
            f"{loc} ({book.controller(loc) or 'nobody'})" for loc in t.locations if loc not in held
        ]
        missing = f"{t.side} control of {need - len(held)} more of " + ", ".join(others)
    return TermResult(words, met, len(held), missing)


__all__ = ["ClauseResult", "TermResult", "Verdict", "judge"]
