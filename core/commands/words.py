"""Reading single words: numbers, counters, merges, ``H=VALUE`` assignments."""

from __future__ import annotations

import re

from stockade.core.commands.handles import Context
from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal
from stockade.core.model.units import parse_counter

_MERGE = re.compile(r"^([^+=\s]+)\+([^+=\s]+)(?:=([^+=\s]+))?$")


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


def merges(ctx: Context, words: list[str]) -> list[ev.Merge]:
    """``merge g2+g3 g4+g5=g9``: prisoner HS pairs exchanged for squads (A20.51)."""
    out = []
    for word in words:
        match = _MERGE.match(word)
        if not match:
            raise InputRefusal(f"'{word}' is not a merge", "write HS+HS, like g2+g3 (or g2+g3=g9)")
        parts = [ctx.unit(match.group(1)), ctx.unit(match.group(2))]
        into = ctx.new_handle(ctx.side_of(parts[0]), match.group(3))
        out.append(ev.Merge(parts=parts, into=into))
    return out


def one(words: list[str], what: str, verb: str) -> str:
    """Exactly one positional word."""
    if len(words) != 1:
        if not words:
            raise InputRefusal(f"'{verb}' needs {what}")
        raise InputRefusal(f"'{verb}' takes one {what}, not {len(words)} ({' '.join(words)})")
    return words[0]
