"""Play many campaigns headless with a fixed strategy and count how they end.

The simulator drives the very fold the screen uses (``core.camp.fold.apply``), so the
rates it prints are the rates of the rules as written -- house-rule table included --
not of a re-implementation that could drift from them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from stockade.core.camp.dice import StreamDice
from stockade.core.camp.errors import CampError
from stockade.core.camp.events import (
    ROLL_KINDS,
    ActionChosen,
    CampOptions,
    CampStarted,
    EscapeChosen,
    MonthDie,
    Record,
)
from stockade.core.camp.fold import apply, initial_state
from stockade.core.camp.state import CampState, dice_sides
from stockade.core.camp.table import RuleTable, load_table

# A strategy answers the two choices of a month: which action, and whether to escape.
Strategy = tuple[Callable[[CampState], str], Callable[[CampState], bool]]

STANDARD_STRATEGIES = ("loiter", "malinger", "gather-escape", "gather-to-3", "gather-to-5")
STRATEGY_HELP = {
    "loiter": "always Loiter (Malinger once hospitalised); never escapes",
    "malinger": "always Malinger; never escapes",
    "gather-escape": "Gather kit, and try to escape as soon as there is any",
    "gather-to-K": "Gather kit until there are K points, then try to escape",
}
_GATHER_TO = re.compile(r"gather-to-(\d+)$")


def _only(action: str) -> Callable[[CampState], str]:
    def choose(state: CampState) -> str:
        return action if action in state.allowed_actions else "malinger"

    return choose


def _never(state: CampState) -> bool:
    return False


def _gather_to(k: int) -> Strategy:
    def choose(state: CampState) -> str:
        return "gather" if "gather" in state.allowed_actions else "malinger"

    def escape(state: CampState) -> bool:
        return state.kit >= k

    return choose, escape


def strategy_named(name: str) -> Strategy:
    if name == "loiter":
        return _only("loiter"), _never
    if name == "malinger":
        return _only("malinger"), _never
    if name == "gather-escape":
        return _gather_to(1)
    match = _GATHER_TO.match(name)
    if match and 1 <= int(match.group(1)) <= 30:
        return _gather_to(int(match.group(1)))
    known = ", ".join(("loiter", "malinger", "gather-escape", "gather-to-K (K = 1..30)"))
    raise CampError(f"unknown strategy {name!r}; known: {known}")


@dataclass
class Tally:
    strategy: str
    games: int = 0
    escaped: int = 0
    liberated: int = 0
    died: int = 0
    months: int = 0  # months in captivity, summed over the games

    def rate(self, ending: str) -> float:
        count = {"escaped": self.escaped, "liberated": self.liberated, "dead": self.died}[ending]
        return 100.0 * count / self.games if self.games else 0.0

    @property
    def mean_months(self) -> float:
        return self.months / self.games if self.games else 0.0


def play_one(header: CampStarted, strategy: Strategy, dice: StreamDice) -> CampState:
    choose_action, choose_escape = strategy
    state = initial_state(header, narrate=False)
    while state.phase != "over":
        phase = state.phase
        event: Record
        if phase == "action":
            event = ActionChosen(action=choose_action(state))
        elif phase == "escape_choice":
            event = EscapeChosen(attempt=choose_escape(state))
        elif phase in ROLL_KINDS:
            event = ROLL_KINDS[phase](dice=dice.roll(dice_sides(state)))
        else:
            raise CampError(f"the simulator cannot play the {phase!r} phase")
        state = apply(state, event)
    return state


def simulate(
    games: int,
    strategy_name: str,
    seed: str | int = 1,
    table: RuleTable | None = None,
    month_die: MonthDie = "d12",
    progress: Callable[[int], None] | None = None,
) -> Tally:
    """Play ``games`` campaigns; ``progress`` (if given) hears the count every 1%."""
    if games < 1:
        raise CampError("the number of games must be at least 1")
    strategy = strategy_named(strategy_name)
    options = CampOptions(seed=str(seed), rules="house", month_die=month_die)
    header = CampStarted(options=options, table=table or load_table())
    dice = StreamDice(f"{seed}:{strategy_name}")
    tally = Tally(strategy_name)
    step = max(1, games // 100)
    for played in range(1, games + 1):
        state = play_one(header, strategy, dice)
        tally.games += 1
        tally.months += state.months_in_captivity
        if state.ending == "escaped":
            tally.escaped += 1
        elif state.ending == "liberated":
            tally.liberated += 1
        else:
            tally.died += 1
        if progress is not None and played % step == 0:
            progress(played)
    return tally


def format_table(tallies: list[Tally]) -> str:
    lines = [f"{'strategy':<16}{'games':>7}{'escaped':>9}{'liberated':>11}{'died':>7}{'months':>8}"]
    for t in tallies:
        lines.append(
            f"{t.strategy:<16}{t.games:>7}{t.rate('escaped'):>8.1f}%{t.rate('liberated'):>10.1f}%"
            f"{t.rate('dead'):>6.1f}%{t.mean_months:>8.1f}"
        )
    return "\n".join(lines)
