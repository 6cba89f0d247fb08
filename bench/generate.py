"""Generate large, realistic game logs: a campaign of many scenarios in one log.

Deterministic by seed. Each scenario brings reinforcements onto the board; the
turns run phase by phase (attacker alternating); units move, break, rally, are
reduced and eliminated; broken units surrender in the RtPh, are captured in CC,
transferred between Guards (a two-event command), escape by withdrawal from Melee (a
three-event command), are escorted off, and Guards die with takeovers. Survivors carry
over to the next scenario. The player now and then undoes, redoes, and strikes a
mistaken move. Every event goes through ``Game.submit`` and the rules: a generated log
is a legal log.

    python -m bench.generate --events 100000 --seed 7 out.jsonl

Also used by the durability tests (``Driver``) to produce legal sessions.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from stockade.core.book.game import Game
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal
from stockade.core.model.plural import counted
from stockade.core.model.tracked_unit import ACTIVE
from stockade.core.rules.guarding import capacity
from stockade.core.rules.losses import takeover_candidates

SIDES = [ev.SideSpec("Germans", "German", 3), ev.SideSpec("Americans", "American", 4)]
COUNTERS = {
    "squad": ["4-6-7", "4-6-8", "6-6-6", "6-6-7", "5-4-8", "4-4-7"],
    "hs": ["2-4-7", "2-4-8", "3-3-6"],
    "crew": ["1-2-7", "2-2-8"],
    "leader": ["8-0", "8-1", "9-1", "9-2", "7-0"],
}
HS_OF = {
    "4-6-7": "2-4-7",
    "4-6-8": "2-4-8",
    "6-6-6": "3-3-6",
    "6-6-7": "3-3-7",
    "5-4-8": "2-4-8",
    "4-4-7": "2-4-7",
}


def new_game(scenario: str = "Campaign", path: Path | None = None) -> Game:
    if path is None:
        return Game.in_memory(scenario, SIDES, first_attacker=SIDES[0].name)
    return Game.create(Path(path), scenario, SIDES, first_attacker=SIDES[0].name)


class Driver:
    """Plays a game forward one player action at a time, always legally."""

    def __init__(
        self,
        game: Game,
        seed: int = 1,
        controls: bool = True,
        reinforcements: int = 14,
        turns: int = 6,
    ):
        self.game = game
        self.rng = random.Random(seed)
        self.controls = controls
        self.reinforcements = reinforcements
        self.turns = turns
        self.scenario = 0
        self.serial = len(game.records) * 10  # unique handles when resuming a log
        self.refused = 0
        self._plan: list = []  # pending phase steps
        self._undone = 0

    # -- naming ----------------------------------------------------------------
    def _handle(self, side: str) -> str:
        self.serial += 1
        return f"{side[0]}{self.serial}"

    @property
    def state(self):
        return self.game.state

    def _units(
        self,
        side: str,
        *,
        status: str = ACTIVE,
        armed: bool | None = True,
        broken: bool | None = None,
        infantry: bool = True,
    ) -> list:
        out = []
        for u in self.state.units.values():
            if u.side != side or u.status != status:
                continue
            if armed is not None and u.armed != armed:
                continue
            if broken is not None and u.broken != broken:
                continue
            if infantry and not u.is_infantry:
                continue
            out.append(u)
        return out

    # -- one action -------------------------------------------------------------
    def step(self) -> str:
        """Make one player action (one command group or one control record)."""
        game = self.game
        if self.controls:
            roll = self.rng.random()
            if self._undone and roll < 0.5:
                game.redo()
                self._undone -= 1
                return "redo"
            self._undone = 0
            if roll < 0.015 and game.can_undo():
                game.undo()
                self._undone = 1
                return "undo"
            if roll < 0.018:
                return self._strike_a_move()
        if not self._plan:
            self._plan = self._next_phase_plan()
        action = self._plan.pop(0)
        events = action() if callable(action) else action
        if not events:
            return "skip"
        try:
            game.submit(events)
        except Refusal:
            self.refused += 1
            return "refused"
        return type(events[0]).__name__

    def _strike_a_move(self) -> str:
        game = self.game
        for record in reversed(game.effective[-20:]):
            if (
                isinstance(record, ev.StatusChanged)
                and record.location is not None
                and record.seq not in game.conflicts
                # a later entry may stand on the move (A20.5: a unit moved away need
                # not take over a Guard's prisoners): a log stays legal throughout
                and not game.preview_strike(record.seq).new_conflicts
            ):
                game.strike(record.seq, "moved the wrong counter")
                if self.rng.random() < 0.5:
                    game.unstrike(record.seq)
                    return "strike+unstrike"
                return "strike"
        return "skip"

    # -- the turn clock ----------------------------------------------------------
    def _next_phase_plan(self) -> list:
        st = self.state
        plan: list = []
        if st.phase == "CCPh" or not self.scenario:
            # next player turn (or the next scenario)
            sides = [s.name for s in SIDES]
            if not self.scenario or (st.attacker == sides[1] and st.turn >= self.turns):
                plan += self._new_scenario()
                turn, attacker = 1, sides[0]
            elif st.attacker == sides[0]:
                turn, attacker = st.turn, sides[1]
            else:
                turn, attacker = st.turn + 1, sides[0]
            plan.append([ev.PhaseSet(turn=turn, attacker=attacker, phase="RPh")])
            plan += [self._rally]
            return plan
        nxt = ev.PHASES[ev.PHASES.index(st.phase) + 1]
        plan.append([ev.PhaseSet(turn=st.turn, attacker=st.attacker, phase=nxt)])
        body = {
            "PFPh": [self._fire] * 4,
            "MPh": [self._move] * 10 + [self._escort],
            "DFPh": [self._fire] * 4,
            "AFPh": [self._fire] * 3,
            "RtPh": [self._surrender] * 3,
            "APh": [self._transfer, self._move],
            "CCPh": [self._capture, self._withdraw],
        }.get(nxt, [])
        return plan + list(body)

    def _new_scenario(self) -> list:
        self.scenario += 1
        plan = []
        hexes = [f"{c}{n}" for c in "ABCDEFGHJK" for n in range(1, 11)]
        for side in SIDES:
            # Survivors carry over; reinforcements bring each side back up to strength.
            present = len(self._units(side.name, armed=None, infantry=False))
            for _ in range(max(2, self.reinforcements - present)):
                kind = self.rng.choices(["squad", "hs", "crew", "leader"], [6, 2, 1, 1])[0]
                plan.append(
                    [
                        ev.UnitEntered(
                            handle=self._handle(side.name),
                            side=side.name,
                            unit_kind=kind,
                            counter=self.rng.choice(COUNTERS[kind]),
                            location=self.rng.choice(hexes),
                        )
                    ]
                )
        return plan

    # -- phase bodies (each returns one command group, or None) --------------------
    def _rally(self):
        broken = self._units(self.state.attacker, broken=True)
        if broken:
            return [ev.StatusChanged(handle=self.rng.choice(broken).handle, broken=False)]
        return None

    def _move(self):
        movers = self._units(self.state.attacker, broken=False)
        if not movers:
            return None
        u = self.rng.choice(movers)
        col, row = u.location[:1] or "A", int(u.location[1:] or 1)
        row = max(1, min(10, row + self.rng.choice((-1, 1))))
        return [ev.StatusChanged(handle=u.handle, location=f"{col}{row}")]

    def _fire(self):
        st = self.state
        firer = st.attacker if st.phase != "DFPh" else st.defender
        targets = [u for u in self._units(st.enemy_of(firer), armed=None) if u.status == ACTIVE]
        if not targets:
            return None
        u = self.rng.choice(targets)
        r = self.rng.random()
        if r < 0.55 and not u.broken and u.unit_kind != "vehicle":
            return [ev.StatusChanged(handle=u.handle, broken=True)]
        if r < 0.75 and u.unit_kind == "squad" and u.armed:
            return [
                ev.CasualtyReduced(
                    handle=u.handle, cause="fire-enemy", counter=HS_OF.get(u.counter, "2-4-7")
                )
            ]
        if r < 0.8:
            return [self._eliminate(u, firer)]
        return [ev.StatusChanged(handle=u.handle, pinned=not u.pinned)]

    def _eliminate(self, u, by_side: str) -> ev.Eliminated:
        takeover = None
        if self.state.prisoners_of(u.handle):
            candidates = takeover_candidates(self.state, u)
            takeover = candidates[0].handle if candidates else "-"
        return ev.Eliminated(
            handle=u.handle, cause="fire-enemy", by_side=by_side, takeover=takeover
        )

    def _guards(self, side: str, *, room: int = 0) -> list:
        st = self.state
        out = []
        for g in self._units(side, broken=False):
            if g.berserk or g.melee:
                continue
            if room and st.prisoner_load(g.handle) + room > capacity(g):
                continue
            out.append(g)
        return out

    def _surrender(self):
        st = self.state
        broken = [u for u in self._units(st.defender, broken=True) if not u.berserk]
        if not broken:
            return None
        u = self.rng.choice(broken)
        guards = self._guards(st.attacker, room=u.us)
        if not guards:
            return None
        return [ev.Surrendered(units=[u.handle], guard=self.rng.choice(guards).handle)]

    def _capture(self):
        st = self.state
        victims = [u for u in self._units(st.defender) if not u.berserk]
        if not victims or self.rng.random() < 0.4:
            return None
        u = self.rng.choice(victims)
        guards = self._guards(st.attacker, room=u.us)
        if not guards:
            return None
        return [ev.Captured(guard=self.rng.choice(guards).handle, units=[u.handle])]

    def _transfer(self):
        st = self.state
        holders = [g for g in self._units(st.attacker) if st.prisoners_of(g.handle) and not g.melee]
        if not holders:
            return None
        g = self.rng.choice(holders)
        prisoners = [p for p in st.prisoners_of(g.handle) if not p.melee]
        if not prisoners:
            return None
        p = self.rng.choice(prisoners)
        targets = [t for t in self._guards(st.attacker, room=p.us) if t.handle != g.handle]
        if not targets:
            return None
        t = self.rng.choice(targets)
        return [
            ev.StatusChanged(handle=t.handle, location=g.location),
            ev.Transferred(units=[p.handle], to_guard=t.handle),
        ]

    def _withdraw(self):
        st = self.state
        holders = [g for g in self._units(st.defender) if st.prisoners_of(g.handle)]
        if not holders or self.rng.random() < 0.5:
            return None
        g = self.rng.choice(holders)
        prisoners = [p.handle for p in st.prisoners_of(g.handle)]
        return [
            ev.StatusChanged(handle=g.handle, melee=True),
            ev.EscapedBy(units=prisoners[:1], route="withdrawal"),
            ev.StatusChanged(handle=g.handle, melee=False),
        ]

    def _escort(self):
        st = self.state
        holders = [g for g in self._units(st.attacker) if st.prisoners_of(g.handle)]
        if not holders or self.rng.random() < 0.7:
            return None
        return [ev.EscortedOff(guard=self.rng.choice(holders).handle)]


def generate(events: int, seed: int = 7, path: Path | None = None, controls: bool = True) -> Game:
    """A game with at least ``events`` records (control records included)."""
    game = new_game(path=path)
    driver = Driver(game, seed, controls=controls)
    while len(game.records) < events:
        driver.step()
    return game


def write_log(game: Game, path: Path) -> int:
    """The game's records as a log, hash-chained as Stockade writes one."""
    from stockade.core.log.chain import chained

    data = b"".join(line + b"\n" for line in chained([ev.encode(r) for r in game.records]))
    Path(path).write_bytes(data)
    return len(data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-controls", action="store_true", help="no undo/redo/strike records")
    args = parser.parse_args(argv)
    game = generate(args.events, args.seed, controls=not args.no_controls)
    size = write_log(game, args.out)
    kinds: dict[str, int] = {}
    for r in game.records:
        kinds[type(r).__name__] = kinds.get(type(r).__name__, 0) + 1
    print(
        f"{args.out}: {len(game.records)} records, {size} bytes, "
        f"{len(game.state.units)} units, {counted(len(game.conflicts), 'conflict')}"
    )
    print(", ".join(f"{k} {n}" for k, n in sorted(kinds.items(), key=lambda kv: -kv[1])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
