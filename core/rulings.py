"""Stockade's rulings where A20 is silent, as shown to the player (data in
core/data/rulings.toml; the reasons in docs/rulings.md)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources


@dataclass(frozen=True)
class Ruling:
    topic: str
    rule: str
    ruling: str


@cache
def rulings() -> tuple[Ruling, ...]:
    with resources.files("stockade.core.data").joinpath("rulings.toml").open("rb") as fh:
        data = tomllib.load(fh)
    return tuple(Ruling(r["topic"], r["rule"], r["ruling"]) for r in data["ruling"])


def rulings_text() -> str:
    lines = ["Stockade's rulings where the rules are silent (reasons: docs/rulings.md):"]
    for r in rulings():
        lines.append(f"- {r.topic} ({r.rule}): {r.ruling}")
    return "\n".join(lines)
