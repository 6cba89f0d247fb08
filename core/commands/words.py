"""Reading single words: numbers, counters, ``H=VALUE`` assignments."""

from __future__ import annotations

from stockade.core.model.errors import InputRefusal
from stockade.core.model.units import parse_counter


def number(word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise InputRefusal(f"{what} must be a whole number, not '{word}'") from None


def counter(word: str) -> str:
    """A counter as printed; the core's own reading refuses what it cannot read."""
    return parse_counter(word).text


def assignment(word: str) -> tuple[str, str] | None:
    """``g3=2-4-7`` -> ("g3", "2-4-7"); None for a word without ``=``."""
    if "=" not in word:
        return None
    left, _, right = word.partition("=")
    if not left or not right:
        raise InputRefusal(f"'{word}' should read NAME=VALUE, like g3=4-3-6")
    return left, right


def one(words: list[str], what: str, verb: str) -> str:
    """Exactly one positional word."""
    if len(words) != 1:
        if not words:
            raise InputRefusal(f"'{verb}' needs {what}")
        raise InputRefusal(f"'{verb}' takes one {what}, not {len(words)} ({' '.join(words)})")
    return words[0]
