"""The rules' hypothesis state machine over the core events, shared by the tests that
play random games (tests/rules/test_rules_stateful.py, tests/book/test_change.py); a
plain module, not a test module.

Random units, phases, surrenders, transfers, CC captures, eliminations, escapes,
abandonment, Casualty Reduction, Massacre, undo, redo, strike/unstrike. Refused entries
are part of the game (they must leave the log as it was). Invariants: a fresh fold of
the records is the live state, undo then redo is the identity, no Guard holds more than
5 x its US#, every prisoner has exactly one Guard, on the board and armed, and the CVP
lines add up.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from stockade.core.book.game import Game
from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal, Refusal, RuleRefusal
from stockade.core.model.events import PHASES
from stockade.core.model.tracked_unit import ACTIVE, PRISONER, UNARMED
from stockade.core.rules.guarding import capacity
from tests.model.plain import plain, unit_values

SIDES = ("Americans", "Germans")
NATS = {"Americans": "American", "Germans": "SS"}
LOCS = ("Q4", "R5")
KINDS = (
    ("squad", "6-6-7"),
    ("hs", "3-3-7"),
    ("crew", "2-2-8"),
    ("leader", "8-1"),
    ("hero", "1-4-9"),
)
PICK = st.integers(min_value=0, max_value=10_000)


def dump(state) -> dict:
    return {
        "units": {h: unit_values(u) for h, u in sorted(state.units.items())},
        "sides": {n: plain(s) for n, s in sorted(state.sides.items())},
        "casualties": [plain(c) for c in state.casualties],
        "clock": (state.turn, state.attacker, state.phase, state.ended),
        "scrounged": sorted(state.scrounged),
    }


def pick(items, index):
    items = list(items)
    return items[index % len(items)] if items else None


class PrisonerBook(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.game = Game.in_memory("stateful", [ev.SideSpec(s, NATS[s]) for s in SIDES])
        self.count = 0
        self.accepted: Counter[str] = Counter()  # by the kind of the first event
        self.refused: Counter[str] = Counter()

    # ------------------------------------------------------------- helpers
    def submit(self, *events):
        before = len(self.game.records)
        try:
            self.game.submit(list(events))
            self.accepted[type(events[0]).__name__] += 1
        except Refusal as refusal:
            assert len(self.game.records) == before, "a refusal wrote to the log"
            # a ruling names its rule; any other refusal says its kind by its type
            assert isinstance(refusal, RuleRefusal | InputRefusal), repr(refusal)
            if isinstance(refusal, RuleRefusal):
                assert refusal.rule and str(refusal).startswith(refusal.rule + ": ")
            else:  # an input mistake reads as a plain sentence
                assert not refusal.rule and str(refusal).startswith(refusal.text)
            self.refused[type(events[0]).__name__] += 1

    def steer(self, name, attacker):
        """Most random phases refuse most events; move the clock first, often."""
        state = self.game.state
        if (state.phase, state.attacker) != (name, attacker):
            self.submit(ev.PhaseSet(turn=state.turn, attacker=attacker, phase=name))

    def units(self, *statuses, side=None):
        return [
            u
            for u in self.game.state.units.values()
            if u.status in statuses and (side is None or u.side == side)
        ]

    def new_handle(self, prefix="u"):
        self.count += 1
        return f"{prefix}{self.count}"

    # --------------------------------------------------------------- rules
    @initialize(broken=st.lists(st.booleans(), min_size=8, max_size=8))
    def opening(self, broken):
        """A few units of each side, mostly in one Location, some broken."""
        cast = [
            ("Americans", "squad", "6-6-7", "Q4"),
            ("Americans", "hero", "1-4-9", "Q4"),
            ("Americans", "hs", "3-3-7", "Q4"),
            ("Americans", "squad", "6-6-7", "R5"),
            ("Germans", "squad", "4-6-8", "Q4"),
            ("Germans", "hs", "2-4-8", "Q4"),
            ("Germans", "crew", "2-2-8", "Q4"),
            ("Germans", "leader", "9-1", "R5"),
        ]
        self.game.submit(
            [
                ev.UnitEntered(
                    handle=self.new_handle(),
                    side=side,
                    unit_kind=kind,
                    counter=counter,
                    location=loc,
                    broken=b,
                )
                for (side, kind, counter, loc), b in zip(cast, broken, strict=True)
            ]
        )

    @rule(
        side=st.sampled_from(SIDES),
        kind=st.sampled_from(KINDS),
        loc=st.sampled_from(LOCS),
        broken=st.booleans(),
    )
    def add_unit(self, side, kind, loc, broken):
        self.submit(
            ev.UnitEntered(
                handle=self.new_handle(),
                side=side,
                unit_kind=kind[0],
                counter=kind[1],
                location=loc,
                broken=broken,
            )
        )

    @rule(name=st.sampled_from(PHASES), attacker=st.sampled_from(SIDES), turn=st.integers(1, 3))
    def set_phase(self, name, attacker, turn):
        self.submit(ev.PhaseSet(turn=turn, attacker=attacker, phase=name))

    @rule(
        i=PICK,
        field=st.sampled_from(("broken", "pinned", "melee", "berserk")),
        value=st.booleans(),
        loc=st.sampled_from(LOCS + (None,)),
    )
    def set_status(self, i, field, value, loc):
        u = pick(self.units(ACTIVE, PRISONER, UNARMED), i)
        if u is not None:
            self.submit(ev.StatusChanged(handle=u.handle, location=loc, **{field: value}))

    @rule(
        i=PICK,
        j=PICK,
        n=st.integers(1, 3),
        free_last=st.booleans(),
        reason=st.sampled_from(("rtph", "mopup", "disrupted")),
    )
    def surrender(self, i, j, n, free_last, reason):
        guard = pick(self.units(ACTIVE), i)
        if guard is None:
            return
        enemy = [u for u in self.units(ACTIVE) if u.side != guard.side and u.broken]
        stack = [pick(enemy, j + k).handle for k in range(n)] if enemy else []
        stack = list(dict.fromkeys(stack))
        if stack:
            freed = stack[-1:] if free_last and len(stack) > 1 else []
            if reason == "rtph":
                self.steer("RtPh", self.game.state.attacker)
            elif reason == "mopup":
                self.steer("PFPh", guard.side)
            self.submit(ev.Surrendered(units=stack, guard=guard.handle, reason=reason, freed=freed))

    @rule(i=PICK, j=PICK, split=st.booleans())
    def cc_capture(self, i, j, split):
        guard = pick(self.units(ACTIVE), i)
        if guard is None:
            return
        target = pick([u for u in self.units(ACTIVE) if u.side != guard.side], j)
        if target is None:
            return
        self.steer("CCPh", self.game.state.attacker)
        if split and target.unit_kind == "squad":
            self.submit(
                ev.Captured(
                    guard=guard.handle,
                    split=target.handle,
                    hs_captured=self.new_handle("c"),
                    hs_free=self.new_handle("f"),
                )
            )
        else:
            self.submit(ev.Captured(guard=guard.handle, units=[target.handle]))

    @rule(i=PICK, j=PICK)
    def transfer(self, i, j):
        p = pick(self.units(PRISONER), i)
        target = pick(self.units(ACTIVE), j)
        if p is not None and target is not None:
            self.steer("APh", self.game.state.units[p.guard].side)
            self.submit(ev.Transferred(units=[p.handle], to_guard=target.handle))

    @rule(i=PICK)
    def abandon(self, i):
        p = pick(self.units(PRISONER), i)
        if p is not None:
            self.steer("RPh", self.game.state.units[p.guard].side)
            self.submit(ev.Abandoned(units=[p.handle]))

    @rule(
        i=PICK,
        j=PICK,
        cause=st.sampled_from(("fire-own", "fire-enemy", "cc", "sniper")),
        takeover=st.sampled_from(("none", "dash", "pick")),
        by=st.sampled_from(SIDES + ("",)),
    )
    def eliminate(self, i, j, cause, takeover, by):
        u = pick(self.units(ACTIVE, PRISONER, UNARMED), i)
        if u is None:
            return
        chosen = {"none": None, "dash": "-"}.get(takeover)
        if takeover == "pick":
            other = pick(self.units(ACTIVE, side=u.side), j)
            chosen = other.handle if other is not None else None
        self.submit(ev.Eliminated(handle=u.handle, cause=cause, by_side=by, takeover=chosen))

    @rule(i=PICK, own=st.booleans())
    def reduce(self, i, own):
        u = pick(self.units(ACTIVE, PRISONER, UNARMED), i)
        if u is not None:
            lost = u.origins[-1].handle if len(u.origins) == 2 else ""
            self.submit(
                ev.CasualtyReduced(
                    handle=u.handle, lost=lost, cause="fire-own" if own else "fire-enemy"
                )
            )

    @rule(i=PICK, j=PICK)
    def massacre(self, i, j):
        by = pick(self.units(ACTIVE), i)
        victim = pick(self.units(PRISONER, UNARMED), j)
        if by is not None and victim is not None:
            self.steer("PFPh", by.side)
            self.submit(ev.Massacred(units=[victim.handle], by=by.handle))

    @rule(
        i=PICK, ntc=st.booleans(), result=st.sampled_from(("melee", "no-effect", "guard", "killed"))
    )
    def escape(self, i, ntc, result):
        p = pick(self.units(PRISONER), i)
        if p is None:
            return
        self.steer("CCPh", self.game.state.attacker)
        if result == "guard":
            event = ev.EscapeAttempted(units=[p.handle], guard_eliminated=True, outcome="escaped")
        elif result == "killed":
            event = ev.EscapeAttempted(units=[p.handle], killed=[p.handle])
        else:
            event = ev.EscapeAttempted(
                units=[p.handle], outcome=result, ntc_failed=[p.handle] if ntc else []
            )
        self.submit(event)

    @rule(i=PICK, route=st.sampled_from(("withdrawal", "guard-infiltrated")))
    def escaped_by(self, i, route):
        p = pick(self.units(PRISONER), i)
        if p is not None:
            self.steer("CCPh", self.game.state.attacker)
            units = [p.guard] if route == "guard-infiltrated" else [p.handle]
            self.submit(ev.EscapedBy(units=units, route=route))

    @rule(i=PICK, j=PICK)
    def exchange_or_split(self, i, j):
        p = pick(self.units(PRISONER), i)
        if p is None:
            return
        if p.unit_kind == "squad":
            self.submit(
                ev.PrisonerSplit(handle=p.handle, into=[self.new_handle("s"), self.new_handle("s")])
            )
        else:
            other = pick(
                [q for q in self.units(PRISONER) if q.guard == p.guard and q.handle != p.handle], j
            )
            if other is not None:
                self.submit(ev.Exchanged(parts=[p.handle, other.handle], into=self.new_handle("x")))

    @rule(i=PICK, j=PICK, how=st.sampled_from(("cc", "alone", "surrender")))
    def rearm(self, i, j, how):
        u = pick(self.units(UNARMED), i)
        enemy = pick([e for e in self.game.state.units.values()], j)
        if u is not None and enemy is not None:
            self.submit(
                ev.Rearmed(
                    handle=u.handle,
                    how=how,
                    enemy=enemy.handle,
                    counter="4-3-6" if u.unit_kind == "squad" else "2-3-6",
                )
            )

    @rule()
    def undo(self):
        if self.game.can_undo():
            self.game.undo()

    @rule()
    def redo(self):
        if self.game.can_redo():
            self.game.redo()

    @precondition(lambda self: self.game.can_undo())
    @rule()
    def undo_then_redo_is_identity(self):
        before = dump(self.game.state)
        conflicts = set(self.game.conflicts)
        self.game.undo()
        self.game.redo()
        assert dump(self.game.state) == before
        assert set(self.game.conflicts) == conflicts

    @rule(i=PICK, unstrike=st.booleans())
    def strike(self, i, unstrike):
        game = self.game
        if unstrike and game.timeline.struck:
            game.unstrike(pick(sorted(game.timeline.struck), i))
            return
        candidates = [r.seq for r in game.effective if not isinstance(r, ev.GameCreated)]
        seq = pick(candidates, i)
        if seq is not None:
            game.strike(seq, reason="test")

    # ---------------------------------------------------------- invariants
    @invariant()
    def replay_gives_the_live_state(self):
        fresh = Game.load(self.game.records)
        assert dump(fresh.state) == dump(self.game.state)
        assert set(fresh.conflicts) == set(self.game.conflicts)

    @invariant()
    def no_guard_over_capacity(self):
        state = self.game.state
        for guard in state.guards():
            assert state.prisoner_load(guard.handle) <= capacity(guard), guard.handle

    @invariant()
    def every_prisoner_has_one_armed_guard_on_the_board(self):
        state = self.game.state
        for p in state.units.values():
            if p.status == PRISONER:
                guard = state.units.get(p.guard)
                assert guard is not None, p.handle
                assert guard.status == ACTIVE and guard.armed, (p.handle, guard.handle)
                assert guard.side != p.side
            else:
                assert p.guard is None, p.handle

    @invariant()
    def casualties_add_up(self):
        state = self.game.state
        total = {s: 0 for s in SIDES}
        for c in state.casualties:
            owner = state.units[c.unit].side
            assert c.credited == state.enemy_of(owner)
            assert c.multiplier in (1, 2) and c.base >= 0
            assert c.points == c.base * c.multiplier
            total[c.credited] += c.base * c.multiplier
        assert sum(total.values()) == sum(c.points for c in state.casualties)


PLAY = settings(
    max_examples=50,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
PrisonerBook.TestCase.settings = PLAY  # what subclasses (tests/book/test_change.py) start from
