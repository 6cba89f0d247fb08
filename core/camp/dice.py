"""Where dice come from: a seeded source, or the player's own dice typed in.

Either way the faces end up in an event, so a replay never rolls again.

The seeded source derives each roll from (seed, position in the effective history)
rather than from a running generator: a resumed campaign rolls exactly what an
uninterrupted one would have, and undoing a choice then making it again gives the same
dice -- undo is for changing your mind, not for fishing for a better roll.
"""

from __future__ import annotations

import random
import secrets

from stockade.core.camp.errors import CampError


def new_seed() -> str:
    return secrets.token_hex(4)


class SeededDice:
    def __init__(self, seed: str):
        self.seed = seed

    def roll(self, sides: tuple[int, ...], position: int) -> tuple[int, ...]:
        rng = random.Random(f"{self.seed}:{position}")
        return tuple(rng.randint(1, s) for s in sides)


class StreamDice:
    """One running generator: fast, for the headless simulator only."""

    def __init__(self, seed: str | int):
        self._random = random.Random(seed).random

    def roll(self, sides: tuple[int, ...], position: int = 0) -> tuple[int, ...]:
        rnd = self._random
        if len(sides) == 1:
            return (int(rnd() * sides[0]) + 1,)
        return tuple(int(rnd() * s) + 1 for s in sides)


def parse_typed_dice(text: str, sides: tuple[int, ...]) -> tuple[int, ...]:
    """Read faces typed by the player ("3 11" or "36" for two single-digit dice).

    Refuses, with a sentence saying what is wanted, anything that is not exactly one
    whole number per die within that die's faces.
    """
    words = text.replace(",", " ").split()
    # Several single-digit dice may be typed run together ("3 6 1" or "361").
    if len(words) == 1 and len(sides) > 1 and all(s <= 9 for s in sides):
        words = list(words[0])
    wanted = _wanted(sides)
    if len(words) != len(sides):
        raise CampError(f"type {wanted}: {len(sides)} number(s), got {len(words)}")
    faces: list[int] = []
    for word, side in zip(words, sides, strict=True):
        if not word.isdigit():
            raise CampError(f"{word!r} is not a number; type {wanted}")
        face = int(word)
        if not 1 <= face <= side:
            raise CampError(f"a d{side} shows 1 to {side}, not {face}")
        faces.append(face)
    return tuple(faces)


def parse_outcome(text: str) -> tuple[int, int]:
    """Source-only play: "<health change> <kit change>", e.g. "-1 0" or "0 +2"."""
    words = text.replace(",", " ").split()
    if len(words) != 2:
        raise CampError("type two numbers: the Health change and the Kit change, e.g. -1 0")
    try:
        health, kit = (int(w) for w in words)
    except ValueError:
        raise CampError("type two whole numbers, e.g. -1 0 or 0 +1") from None
    return health, kit


def _wanted(sides: tuple[int, ...]) -> str:
    return " ".join(f"d{s}" for s in sides)
