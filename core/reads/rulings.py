"""Stockade's rulings where A20 is silent, and the published rulings it relies on, as
shown to the player (data in core/data/rulings.toml; the reasons in docs/rulings.md)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from stockade.core.model.columns import laid_out


@dataclass(frozen=True)
class Ruling:
    topic: str
    rule: str
    ruling: str
    source: str = ""  # where it comes from: a seed paragraph, a published Q&A, "Stockade"
    tests: tuple[str, ...] = ()  # pytest node ids that prove it is followed


@cache
def rulings() -> tuple[Ruling, ...]:
    with resources.files("stockade.core.data").joinpath("rulings.toml").open("rb") as fh:
        data = tomllib.load(fh)
    return tuple(
        Ruling(r["topic"], r["rule"], r["ruling"], r.get("source", ""), tuple(r.get("tests", ())))
        for r in data["ruling"]
    )


def rulings_text(width: int | None = None) -> str:
    """Every ruling, its topic and rule first; ``width``: the columns a line may take,
    each ruling wrapped under its words past them (core/model/columns.py)."""
    lines = ["Stockade's rulings where the rules are silent (reasons: docs/rulings.md):"]
    for r in rulings():
        lines += laid_out("- ", f"{r.topic} ({r.rule}): {r.ruling}", width)
        if r.source:
            lines += laid_out("    source: ", r.source, width)
    return "\n".join(lines)
