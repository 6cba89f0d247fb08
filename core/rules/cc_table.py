"""The CC capture helper (A20.22 with the A11.11 Close Combat Table).

Given the attack's odds column (or the two FP totals), the Original DR and the other
DRMs, it says for each defender separately what a capture attempt does: all captured
(Final DR < Kill Number), one HS captured (Final DR = Kill Number), or none. It is
per defender because the capture DRM is per defender: +1, but -1 instead vs
Inexperienced Personnel (A20.22, A19.35), and every unarmed unit is Inexperienced.

Nothing here is recorded; the result is what the player then enters as a capture.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import Unit

# Where a column's Kill Number comes from. The A11.11 Close Combat Table is not among the
# seeds (004 keeps only the heading "A11. & A20."): the seeds give the Kill Numbers of two
# columns, and the rest are the printed table's, which the seeds can neither confirm nor
# contradict.
OUTSIDE_SEEDS = "the A11.11 CC Table, not among the seeds"
SEED_1_2 = "A20.22 EX (8-12, 1-2: Final DR 4 = Kill#) and the article's Examples 9 and 17"
SEED_3_2 = "the article's Example 9 (3:2, Kill# 6)"

# (column, smallest attack:defence ratio it covers, Kill Number, its source), A11.11.
# Odds round down (in the defender's favour) to the highest column reached.
# "<1-8" is anything worse than 1-8; ">10-1" is taken to start at 11-1, the next whole
# ratio above 10-1 (the seeds do not say where it starts; odds between 10-1 and 11-1
# round down to 10-1 like any other odds).
COLUMNS: tuple[tuple[str, Fraction, int, str], ...] = (
    ("<1-8", Fraction(0), 0, OUTSIDE_SEEDS),
    ("1-8", Fraction(1, 8), 1, OUTSIDE_SEEDS),
    ("1-6", Fraction(1, 6), 2, OUTSIDE_SEEDS),
    ("1-4", Fraction(1, 4), 3, OUTSIDE_SEEDS),
    ("1-2", Fraction(1, 2), 4, SEED_1_2),
    ("1-1", Fraction(1), 5, OUTSIDE_SEEDS),
    ("3-2", Fraction(3, 2), 6, SEED_3_2),
    ("2-1", Fraction(2), 7, OUTSIDE_SEEDS),
    ("3-1", Fraction(3), 8, OUTSIDE_SEEDS),
    ("4-1", Fraction(4), 9, OUTSIDE_SEEDS),
    ("6-1", Fraction(6), 10, OUTSIDE_SEEDS),
    ("8-1", Fraction(8), 11, OUTSIDE_SEEDS),
    ("10-1", Fraction(10), 12, OUTSIDE_SEEDS),
    (">10-1", Fraction(11), 13, OUTSIDE_SEEDS),
)
KILL_NUMBERS: dict[str, int] = {name: kill for name, _ratio, kill, _source in COLUMNS}
KILL_SOURCES: dict[str, str] = {name: source for name, _ratio, _kill, source in COLUMNS}

CAPTURE_DRM = 1  # A20.22: a predesignated capture attempt
CAPTURE_DRM_INEXPERIENCED = -1  # A20.22: instead, vs Inexperienced Personnel (A19.35)
HAND_TO_HAND_BONUS = 2  # H-t-H CC: +2 to the Kill Number (article, Example 9)

ALL_CAPTURED = "all captured"
ONE_HS_CAPTURED = "one HS captured"
NONE = "none"


def column_for(attack_fp: float, defence_fp: float) -> str:
    """The CCT column of ``attack_fp`` vs ``defence_fp``, odds rounded down."""
    if attack_fp < 0 or defence_fp <= 0:
        raise ValueError("CC odds need a non-negative attack FP and a positive defence FP")
    ratio = Fraction(attack_fp).limit_denominator(1000) / Fraction(defence_fp).limit_denominator(
        1000
    )
    reached = [name for name, least, _kill, _source in COLUMNS if ratio >= least]
    return reached[-1]


def normalise_column(text: str) -> str:
    """Accept ``1-2``, ``1:2``, ``3:2``, ``>10-1``; refuse anything not on the CCT."""
    name = text.strip().replace(":", "-").replace(" ", "")
    if name not in KILL_NUMBERS:
        raise ValueError(f"'{text}' is not a CC odds column; columns: " + ", ".join(KILL_NUMBERS))
    return name


def kill_number(column: str, hand_to_hand: bool = False) -> int:
    """The Kill Number of a column; Hand-to-Hand CC adds 2."""
    base = KILL_NUMBERS[normalise_column(column)]
    return base + (HAND_TO_HAND_BONUS if hand_to_hand else 0)


def kill_number_source(column: str, hand_to_hand: bool = False) -> str:
    """Where the Kill Number of ``column`` comes from, as the CC form says it: the
    seeds' worked examples for the two columns they give, else the A11.11 table."""
    name = normalise_column(column)
    bonus = " (+2 Hand-to-Hand: the article's Example 9)" if hand_to_hand else ""
    return f"Kill# {KILL_NUMBERS[name]} at {name}{bonus}: {KILL_SOURCES[name]}"


@dataclass(frozen=True)
class Defender:
    """One defending unit, as far as a capture attempt cares."""

    name: str  # handle or counter, for display
    unit_kind: str = "squad"  # squad / hs / crew / leader / hero / smc
    inexperienced: bool = False  # Inexperienced Personnel (A19.3), all unarmed units
    berserk: bool = False  # berserk units are never captured (A20.2)
    vehicle: bool = False  # a manned AFV cannot be captured in CC (A20.22)


def defender_from_unit(u: Unit) -> Defender:
    """A board unit as a defender: unarmed units are always Inexperienced (A20.53)."""
    return Defender(
        name=u.handle,
        unit_kind=u.unit_kind,
        inexperienced=(not u.armed) or "inexperienced" in u.traits,
        berserk=u.berserk,
        vehicle=u.unit_kind == "vehicle",
    )


def defenders_in(state: GameState, handles: list[str]) -> list[Defender]:
    return [defender_from_unit(state.units[h]) for h in handles]


@dataclass(frozen=True)
class DefenderResult:
    defender: Defender
    column: str
    kill_number: int
    capture_drm: int
    final_dr: int
    result: str  # ALL_CAPTURED / ONE_HS_CAPTURED / NONE
    why: str

    @property
    def at_kill_number(self) -> bool:
        """Final DR = Kill Number: only one defending unit, defender's choice (A20.22)."""
        return self.final_dr == self.kill_number


def _column(column_or_fps: str | tuple[float, float]) -> str:
    if isinstance(column_or_fps, str):
        return normalise_column(column_or_fps)
    attack, defence = column_or_fps
    return column_for(attack, defence)


def _one(d: Defender, column: str, kill: int, original_dr: int, drms: int) -> DefenderResult:
    if d.vehicle:
        return DefenderResult(
            d,
            column,
            kill,
            0,
            original_dr + drms,
            NONE,
            "A20.22: a manned AFV cannot be captured in CC",
        )
    if d.berserk:
        return DefenderResult(
            d, column, kill, 0, original_dr + drms, NONE, "A20.2: berserk units are never captured"
        )
    capture = CAPTURE_DRM_INEXPERIENCED if d.inexperienced else CAPTURE_DRM
    final = original_dr + drms + capture
    sums = (
        f"Final DR {original_dr} {drms:+d} {capture:+d} (capture"
        + (", vs Inexperienced" if d.inexperienced else "")
        + f") = {final}"
    )
    if final < kill:
        return DefenderResult(
            d,
            column,
            kill,
            capture,
            final,
            ALL_CAPTURED,
            f"A20.22: {sums} < Kill# {kill}: captured",
        )
    if final > kill:
        return DefenderResult(
            d, column, kill, capture, final, NONE, f"A20.22: {sums} > Kill# {kill}: not captured"
        )
    if d.unit_kind == "squad":
        return DefenderResult(
            d,
            column,
            kill,
            capture,
            final,
            ONE_HS_CAPTURED,
            f"A20.22: {sums} = Kill# {kill}: the squad splits into two "
            "HS; one HS is captured, the other is not",
        )
    # A HS, crew or SMC has no smaller part: at the Kill Number it is taken whole.
    return DefenderResult(
        d,
        column,
        kill,
        capture,
        final,
        ALL_CAPTURED,
        f"A20.22: {sums} = Kill# {kill}: one unit captured, whole (a HS/crew/SMC does not split)",
    )


def capture_result(
    column_or_fps: str | tuple[float, float],
    original_dr: int,
    drms: int,
    defenders: list[Defender],
    hand_to_hand: bool = False,
) -> list[DefenderResult]:
    """The result of a predesignated capture attempt for each defender (A20.22).

    ``column_or_fps`` is a column such as ``"1-2"`` or the pair (attack FP, defence FP);
    ``drms`` sums every DRM but the capture DRM (e.g. -2 vs a broken unit, leadership).
    When several defenders end at exactly the Kill Number, A20.22 captures only one
    defending unit, of the defender's choice: each such result is marked
    ``at_kill_number`` and the player records the one chosen.
    """
    if not 2 <= original_dr <= 12:
        raise ValueError(f"an Original DR is 2-12, not {original_dr}")
    column = _column(column_or_fps)
    kill = kill_number(column, hand_to_hand)
    return [_one(d, column, kill, original_dr, drms) for d in defenders]


def odds_of(text: str) -> str | tuple[float, float]:
    """What a player types for the odds: a column (``1-2``) or two FP totals (``8:12``)."""
    text = text.strip()
    if ":" in text:
        attack, defence = text.split(":", 1)
        return float(attack), float(defence)
    return text


@dataclass(frozen=True)
class CaptureEntry:
    """What a capture attempt's results record (A20.22): the units captured whole and,
    at the Kill Number, the one squad that splits (one HS captured)."""

    taken: tuple[str, ...]
    split: str  # the squad of which one HS is captured, or ""
    several_at_kill_number: bool  # the defender must choose which one unit is taken

    @property
    def empty(self) -> bool:
        return not self.taken and not self.split


def capture_entry(results: list[DefenderResult], choice: str = "") -> CaptureEntry:
    """The units a set of per-defender results captures (A20.22).

    Below the Kill Number every defender is taken whole. At exactly the Kill Number only
    one defending unit is captured, of the defender's ``choice`` when several are there;
    a squad at the Kill Number splits and one HS is captured."""
    whole = [r for r in results if r.result == ALL_CAPTURED and not r.at_kill_number]
    at_kill = [r for r in results if r.result != NONE and r.at_kill_number]
    several = len(at_kill) > 1
    if several:
        at_kill = [r for r in at_kill if r.defender.name == choice]
    taken = [r.defender.name for r in whole]
    split = ""
    for r in at_kill[:1]:
        if r.result == ALL_CAPTURED:
            taken.append(r.defender.name)
        else:
            split = r.defender.name
    return CaptureEntry(tuple(taken), split, several)
