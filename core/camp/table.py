"""The house-rule table: each action's die and what each face does.

The source is cut off where the action rolls are given, so this table is a Stockade
house rule. It lives in ``house_rules.toml`` (one place a player can edit) and a copy
travels inside every campaign log, so editing the file never rewrites an old campaign.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated

import msgspec
from msgspec import Meta

from stockade.core.camp.errors import CampError
from stockade.core.model import bounds as b
from stockade.core.model import string_bounds as sb

HOUSE_RULES_PATH = Path(__file__).with_name("house_rules.toml")

# The three actions in the order the screen lists them. Loiter and Malinger are named by
# the source; the third is the house rule's.
ACTION_IDS: tuple[str, ...] = ("loiter", "malinger", "gather")


class Outcome(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    faces: Annotated[str, Meta(pattern=r"^\d{1,2}(-\d{1,2})?$")]  # "4" or "2-5"
    health: b.SmallInt = 0
    kit: b.SmallInt = 0
    lose_kit: bool = False
    text: sb.Text = ""

    def face_range(self) -> tuple[int, int]:
        low, _, high = self.faces.partition("-")
        return int(low), int(high or low)


class ActionRule(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: sb.Name
    summary: sb.Text
    die: b.Die
    outcomes: Annotated[list[Outcome], Meta(max_length=20)]

    def outcome_for(self, face: int) -> Outcome:
        for outcome in self.outcomes:
            low, high = outcome.face_range()
            if low <= face <= high:
                return outcome
        raise CampError(f"the {self.name} table has no row for a roll of {face}")


class TableMeta(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    label: sb.Name = "HOUSE RULE"
    source: sb.Text = ""
    max_health: b.SmallInt = 9


class RuleTable(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    meta: TableMeta
    actions: Annotated[dict[sb.Name, ActionRule], Meta(max_length=16)]

    def action(self, action_id: str) -> ActionRule:
        try:
            return self.actions[action_id]
        except KeyError:
            raise CampError(f"no action called {action_id!r} in the rule table") from None


# rule -> outcome per face (index 0 unused). Keyed by id() with the rule kept alive in
# the value, so an id can never be reused while its entry exists. The fold looks an
# outcome up on every action roll: scanning "2-5" strings each time dominated the
# simulator's profile.
_FACE_CACHE: dict[int, tuple[ActionRule, tuple[Outcome | None, ...]]] = {}


def outcome_for(rule: ActionRule, face: int) -> Outcome:
    entry = _FACE_CACHE.get(id(rule))
    if entry is None or entry[0] is not rule:
        faces = (None,) + tuple(rule.outcome_for(f) for f in range(1, rule.die + 1))
        entry = _FACE_CACHE[id(rule)] = (rule, faces)
    outcome = entry[1][face]
    if outcome is None:  # face 0 is no face of a die: the table says so in a sentence
        return rule.outcome_for(face)
    return outcome


def load_table(path: Path = HOUSE_RULES_PATH) -> RuleTable:
    """Read and check a house-rule table; every fault is one sentence naming the file."""
    try:
        raw = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise CampError(f"{path}: cannot read the house rules ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise CampError(f"{path}: not valid TOML ({exc})") from None
    return table_from_data(raw, where=str(path))


def table_from_data(raw: object, where: str = "rule table") -> RuleTable:
    try:
        table = msgspec.convert(raw, RuleTable)
    except msgspec.ValidationError as exc:
        raise CampError(f"{where}: {exc}") from None
    check_table(table, where)
    return table


def check_table(table: RuleTable, where: str = "rule table") -> None:
    """Refuse a table the game could trip over mid-campaign."""
    missing = [a for a in ACTION_IDS if a not in table.actions]
    if missing:
        raise CampError(f"{where}: missing action(s) {', '.join(missing)}")
    if table.meta.max_health < 2:
        raise CampError(f"{where}: max_health must be at least 2")
    for action_id in ACTION_IDS:
        rule = table.actions[action_id]
        if not 2 <= rule.die <= 20:
            raise CampError(f"{where}: {action_id} die must have 2 to 20 faces")
        covered: list[int] = []
        for outcome in rule.outcomes:
            try:
                low, high = outcome.face_range()
            except ValueError:
                raise CampError(
                    f"{where}: {action_id} faces {outcome.faces!r} is not like '3' or '2-5'"
                ) from None
            covered.extend(range(low, high + 1))
        if sorted(covered) != list(range(1, rule.die + 1)):
            raise CampError(f"{where}: {action_id} rows must cover faces 1-{rule.die} exactly once")
