"""Counts as a player reads them: ``1 entry``, ``3 entries``; ``1 entry no longer
holds``, ``2 entries no longer hold``. Every count printed goes through here, so no
reply says "1 entries"."""

from __future__ import annotations


def counted(n: int, noun: str, plural: str = "") -> str:
    """``counted(1, "entry", "entries")`` is ``1 entry``; ``counted(2, "line")``,
    ``2 lines``."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def agree(n: int, one: str, many: str) -> str:
    """The word that agrees with ``n``: ``agree(n, "holds", "hold")``, ``agree(n, "it",
    "them")``."""
    return one if n == 1 else many


def entries(n: int) -> str:
    """``1 entry``, ``2 entries``: the word the history counts in."""
    return counted(n, "entry", "entries")


def no_longer_hold(n: int) -> str:
    """``1 entry no longer holds``, ``2 entries no longer hold``."""
    return f"{entries(n)} no longer {agree(n, 'holds', 'hold')}"
