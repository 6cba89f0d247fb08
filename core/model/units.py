"""Unit kinds, counters, unit sizes and the data tables that value them."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Any, Protocol

import msgspec

from stockade.core.model.errors import InputRefusal

KINDS = ("squad", "hs", "crew", "leader", "hero", "smc", "vehicle")
SMC_KINDS = frozenset({"leader", "hero", "smc"})
INFANTRY_KINDS = frozenset({"squad", "hs", "crew", "leader", "hero", "smc"})
KIND_WORDS = {
    "squad": "squad",
    "sq": "squad",
    "mmc": "squad",
    "hs": "hs",
    "halfsquad": "hs",
    "half-squad": "hs",
    "crew": "crew",
    "cr": "crew",
    "leader": "leader",
    "ldr": "leader",
    "hero": "hero",
    "smc": "smc",
    "vehicle": "vehicle",
    "veh": "vehicle",
    "afv": "vehicle",
}
KIND_NAMES = {
    "squad": "squad",
    "hs": "HS",
    "crew": "crew",
    "leader": "leader",
    "hero": "hero",
    "smc": "SMC",
    "vehicle": "vehicle",
}

# Unit size (US#): SMC 1, HS/crew 2, squad 3 (article, "Handling POWs").
US_NUMBER = {"squad": 3, "hs": 2, "crew": 2, "leader": 1, "hero": 1, "smc": 1, "vehicle": 0}

# Traits a unit can carry that A20 cares about.
TRAITS = ("fanatic", "commissar", "inexperienced", "cavalry", "elite", "ss")

_MMC = re.compile(r"^(\d{1,2})-(\d{1,2})-(\d{1,2})$")
_LEADER = re.compile(r"^(\d{1,2})([+-])(\d)$")
# The white unarmed counter as ASL prints it (article, "Prisoners and Unarmed Units"):
# FP "(1)", usable only in CC vs Personnel (A20.5); range 0, as it has no FP usable on
# the IFT; morale 6, though it never breaks (a failed MC Casualty-Reduces it, A20.54).
# Squad or HS size alike: the size is the unit's kind, not the counter.
UNARMED_COUNTER = "(1)-0-6"


class _Former(Protocol):
    """One unit an unarmed counter stands for (``tracked_unit.Origin``)."""

    @property
    def counter(self) -> str: ...
    @property
    def unit_kind(self) -> str: ...


def unarmed_counter_text(formers: Iterable[_Former], kinds: bool = True) -> str:
    """An unarmed counter with what it stands for: ``(1)-0-6 [was 4-6-7 squad]``, or
    ``(1)-0-6 [was 4-6-7]`` where a column beside it already names the kind (the tally).

    The brackets are Stockade's notation (docs/rulings.md, "Unarmed counters"): A20.51
    takes a captured unit's identity, but its VP record keeps what it was (A20.5: "keep
    track of crews on a side record"), and the brackets show that record."""
    was = " + ".join(
        f"{f.counter} {KIND_NAMES[f.unit_kind]}" if kinds else f.counter for f in formers
    )
    return f"{UNARMED_COUNTER} [was {was}]" if was else UNARMED_COUNTER


def us_number(kind: str) -> int:
    return US_NUMBER[kind]


def is_smc(kind: str) -> bool:
    return kind in SMC_KINDS


def is_squad_size(kind: str) -> bool:
    return kind == "squad"


def is_hs_size(kind: str) -> bool:
    return kind in ("hs", "crew")


class Counter(msgspec.Struct, frozen=True):  # a Struct: made at import for ~1/25 of a dataclass
    text: str
    fp: int | None = None
    morale: int | None = None
    leadership: int | None = None  # e.g. -2 for a 9-2, +1 for a 6+1

    @property
    def is_leader_form(self) -> bool:
        return self.leadership is not None


def parse_counter(text: str) -> Counter:
    """Read a counter as printed: ``4-6-7`` (FP-range-morale) or ``9-2`` (leader)."""
    text = text.strip()
    if text == UNARMED_COUNTER:
        return Counter(text, fp=None, morale=6)
    if m := _MMC.match(text):
        return Counter(text, fp=int(m.group(1)), morale=int(m.group(3)))
    if m := _LEADER.match(text):
        modifier = int(m.group(3)) * (-1 if m.group(2) == "-" else 1)
        return Counter(text, morale=int(m.group(1)), leadership=modifier)
    raise InputRefusal(
        f"counter '{text}' is not a counter as printed",
        "write FP-range-morale like 4-6-7, or morale-modifier like 9-2 for a leader",
    )


# compiled by ``re`` on first use: a game without vehicles never reads one
_VEHICLE_NAME = r"^[A-Za-z0-9][A-Za-z0-9./()+_-]{0,31}$"


def vehicle_name(text: str) -> str:
    """A vehicle is entered by its name as printed (StuG, T-34/76, M4A3(76)W) or by a
    counter-like placeholder; it has no FP-range-morale to read."""
    text = text.strip()
    if not re.match(_VEHICLE_NAME, text):
        raise InputRefusal(
            f"'{text}' is not a vehicle name",
            "one word of letters, digits and - / . ( ), like StuG or T-34",
        )
    return text


def infer_kind(counter: Counter, given: str | None) -> str:
    """The unit kind: as given, else from the counter when it cannot be ambiguous."""
    if given:
        kind = KIND_WORDS.get(given.lower())
        if kind is None:
            raise InputRefusal(
                f"'{given}' is not a unit kind",
                "use squad, hs, crew, leader, hero, smc or vehicle",
            )
        if kind == "leader" and not counter.is_leader_form:
            raise InputRefusal(f"a leader's counter reads like 9-2, not '{counter.text}'")
        return kind
    if counter.is_leader_form:
        return "leader"
    if counter.fp is not None and counter.fp >= 4:
        return "squad"
    raise InputRefusal(
        f"'{counter.text}' may be a squad, a HS, a crew or a hero",
        "add the kind: sq, hs, crew or hero",
    )


@cache
def _load(name: str) -> dict[str, Any]:
    """The table of core/data/``name``, from the module made from it
    (``unit_tables``, held equal to the file by a test): a fold imports neither tomllib
    nor parses TOML. Read on the first use, not at import: after the command takes the
    code and data fingerprint."""
    from stockade.core.model import unit_tables

    return unit_tables.CVP if name == "cvp.toml" else unit_tables.NATIONALITIES


def cvp_table() -> dict[str, Any]:
    return dict(_load("cvp.toml"))


def normal_cvp(kind: str, counter: str, overrides: dict[str, int] | None = None) -> int:
    """A unit's normal CVP (A26 values; a scenario may override a kind)."""
    table = cvp_table()
    if overrides:
        table.update(overrides)
    if kind == "leader":
        if overrides and "leader" in overrides:
            return int(overrides["leader"])
        parsed = parse_counter(counter)
        bonus = max(0, -(parsed.leadership or 0))
        return int(table["leader_base"]) + bonus
    return int(table[kind])


def nationalities() -> dict[str, dict[str, Any]]:
    return _load("nationalities.toml")


def nationality_flags(nationality: str) -> dict[str, Any]:
    return nationalities().get(nationality, {})


def canonical_nationality(name: str) -> str:
    """Match a typed nationality case-insensitively; refuse an unknown one."""
    for known in nationalities():
        if known.lower() == name.strip().lower():
            return known
    raise InputRefusal(
        f"nationality '{name.strip()}' is not known",
        "one of " + ", ".join(side_nationalities()),
    )


def side_nationalities() -> list[str]:
    """The nationalities a new side may take: the table's, less those kept as traits."""
    return [name for name, flags in nationalities().items() if not flags.get("trait")]


def new_side_nationality(name: str) -> str:
    """The nationality of a side being made, as the table spells it. An unknown one is
    refused with the list; one the table keeps as a trait (SS) is pointed at the trait."""
    known = canonical_nationality(name)
    flags = nationality_flags(known)
    trait = flags.get("trait")
    if trait:
        of = flags.get("trait_of", "")
        raise InputRefusal(
            f"{known} is not a nationality: {known} units are {of} units with the +{trait} trait",
            f"make the side {of} and add its {known} units with +{trait}, "
            f"e.g. add {of} 4-6-8 at K5 +{trait}",
        )
    return known
