"""Every refusal names its rule (docs/commands.md promises it): every verb, driven
against states holding units of every standing in every phase, is refused either
citing a rule reference (A20.51, A11.16, D10.5...) or, for an input mistake, with one
of the plain sentences listed here. A new refusal that says neither fails this test."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from stockade.core.commands import run_script
from stockade.core.model import events as ev
from stockade.core.model.errors import HistoryRefusal, InputRefusal, Refusal, RuleRefusal
from stockade.core.model.state import GameState
from stockade.core.rules import check
from tests.rules.kit import new_game

RULE = re.compile(r"^[A-G]\d+(\.\d+)*( EX)?$")

# Input mistakes: what the entry itself gets wrong, whatever the game's state. A unit
# no longer on the board is one (it cannot do anything); a unit's standing on the
# board (prisoner, unarmed, broken, in Melee...) is a rule's business, never one.
INPUT = (
    "no unit '",
    "no side '",
    "is named twice",
    "named twice",
    "is already in use",
    "no longer on the board",
    "is already eliminated",
    "is already escorted",
    "is already gone",
    " is eliminated",
    " is escorted",
    " is gone",
    "is on the same side",
    "is on the captor's side",
    "a side cannot reject its own units",
    "already guards them",
    "guards no prisoners",
    "is armed; it is not rearmed",
    "is armed; it does not split",
    "is not among these prisoners",
    "only surrendering units can be freed",
    "names units not escaping",
    "only prisoners that attacked",
    "only a squad scrounging a wreck is split",
    "is not one of the new HS",
    "is not guarded by",
    "keep names prisoners",
    "is not one of the units",
    "is a prisoner of the other side",
    "a Scrounging",
)

SETUP = """add American 6-6-7 as a1 at Q4
add American 6-6-7 as a2 at Q4
add American 3-3-7 hs as a3 at Q5
add American 9-1 as a4 at Q4
add German 4-6-7 as g1 at Q4 broken
add German 4-6-7 as g2 at Q4 broken
add German 4-6-7 as g3 at Q6
add German 2-4-7 hs as g4 at Q6 broken
add German 4-6-7 as g5 at Q6
phase RtPh
surrender g1 g2 to a1
phase APh
abandon g2
phase RPh 2 German
eliminate g5
pin a2
move g3 Q5
melee g3 a3
"""

PHASES: tuple[ev.Phase, ...] = ev.PHASES


def _states() -> Iterator[GameState]:
    game = new_game()
    run_script(game, [line for line in SETUP.splitlines() if line.strip()])
    for attacker in game.state.sides:
        for phase in PHASES:
            state = game.state.clone()
            state.attacker, state.phase = attacker, phase
            yield state


def _events(state: GameState) -> Iterator[ev.Record]:
    handles = list(state.units)
    for x in handles:
        yield ev.PrisonerSplit(handle=x, into=["n1", "n2"])
        yield ev.Deployed(handle=x, into=["n1", "n2"], counters=[])
        yield ev.Abandoned(units=[x])
        yield ev.EscortedOff(guard=x)
        yield ev.Eliminated(handle=x, cause="cc")
        yield ev.CasualtyReduced(handle=x)
        yield ev.Scrounged(handle=x, roll=2)
        for outcome in ("no-effect", "melee", "escaped"):
            yield ev.EscapeAttempted(units=[x], outcome=outcome)
        for route in ("withdrawal", "infiltration", "guard-infiltrated"):
            yield ev.EscapedBy(units=[x], route=route)
        yield ev.StatusChanged(handle=x, broken=True)
        yield ev.StatusChanged(handle=x, pinned=True)
        yield ev.StatusChanged(handle=x, berserk=True)
        yield ev.StatusChanged(handle=x, melee=True)
        yield ev.StatusChanged(handle=x, disrupted=True)
        yield ev.StatusChanged(handle=x, broken=False)
        yield ev.StatusChanged(handle=x, location="Z9")
        for side in state.sides:
            yield ev.SurrenderRejected(units=[x], by_side=side)
        for y in handles:
            if y == x:
                continue
            yield ev.StatusChanged(handle=x, location=state.units[y].location or "Z9")
            yield ev.Surrendered(units=[x], guard=y)
            yield ev.Captured(guard=y, units=[x])
            yield ev.Recaptured(units=[x], guard=y)
            yield ev.Transferred(units=[x], to_guard=y)
            yield ev.Exchanged(parts=[x, y], into="n3")
            yield ev.Massacred(units=[x], by=y)
            yield ev.MutualCapture(units=[x, y])
            for how in ("cc", "alone", "surrender"):
                yield ev.Rearmed(handle=x, how=how, enemy=y)


def cited(refusal: Refusal) -> bool:
    """A ruling cites a rule; an input mistake is one of the plain ones listed."""
    if isinstance(refusal, RuleRefusal):
        return bool(RULE.match(refusal.rule))
    return isinstance(refusal, InputRefusal) and any(p in refusal.text for p in INPUT)


def _uncited() -> list[str]:
    out: set[str] = set()
    for state in _states():
        for event in _events(state):
            try:
                check(state, event)
            except Refusal as refusal:
                if not cited(refusal):
                    out.add(f"{type(event).__name__}: [{refusal!r}] {refusal.text}")
    return sorted(out)


def test_every_refusal_names_its_rule_or_a_plain_input_mistake():
    uncited = _uncited()
    assert not uncited, "\n".join(uncited)


@pytest.mark.parametrize(
    "refusal, fine",
    [
        (RuleRefusal("A20.51", "too many"), True),
        (RuleRefusal("A11.16", "broken"), True),
        (InputRefusal("no unit 'x9' in this game"), True),
        (InputRefusal("German (1)-0-6 (g4) is prisoner, not an armed unit on the board"), False),
        (RuleRefusal("", "no rule"), False),
        (RuleRefusal("rule", "no rule"), False),
        (HistoryRefusal("undo", "nothing to undo"), False),
    ],
)
def test_the_check_can_fail(refusal, fine):
    assert cited(refusal) == fine
