"""Rows of text for a terminal: a row is its lead (fixed cells, each padded to its
column) and one free text last. When the row is wider than the terminal, the free text
wraps under itself, each further line indented to where it began, never back at the
margin (as the app's status line and its told rows do); when that leaves it too narrow
a column, it goes on the lines below the lead instead. Words are never broken, nor split
at a hyphen: a rule (A20.1), a counter (4-6-7) or a hex (Q5) stays whole. With no width
(a pipe, a script) every row stays one line, as it always was.

Imports nothing at its top (textwrap only when a row must wrap): the tally read back
from the derived store prints through this.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing costs ~2 ms to import; mypy reads this the same way

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

# Fewer columns than this left beside the lead, the free text goes below it instead:
# a column of two or three words a line reads worse than a line of its own.
MIN_FREE = 24


def widths(rows: Iterable[Sequence[str]]) -> list[int]:
    """Each column's width: its widest cell over ``rows`` (the free text excluded)."""
    found: list[int] = []
    for row in rows:
        for i, cell in enumerate(row[:-1]):
            if i == len(found):
                found.append(len(cell))
            elif len(cell) > found[i]:
                found[i] = len(cell)
    return found


def lead(cells: Sequence[str], widths: Sequence[int], gap: str = "  ", indent: str = "") -> str:
    """The fixed cells of a row, each padded to its column, and the gap before the
    free text."""
    return indent + "".join(cell.ljust(w) + gap for cell, w in zip(cells, widths, strict=True))


def laid_out(lead: str, text: str, width: int | None, below: int = 4) -> list[str]:
    """The row ``lead`` + ``text`` as lines no wider than ``width`` where words allow
    (a word longer than the line stays whole); ``width`` None: one line. ``below``:
    the indent of the free text when it goes under the lead (too narrow beside it)."""
    whole = (lead + text).rstrip()
    if width is None or len(whole) <= width:
        return [whole]
    hang = len(lead)
    if width - hang >= MIN_FREE:
        return _wrapped(text, width, lead, " " * hang)
    return [lead.rstrip(), *_wrapped(text, width, " " * below, " " * below)]


def _wrapped(text: str, width: int, first: str, then: str) -> list[str]:
    import textwrap

    return textwrap.wrap(
        text,
        width,
        initial_indent=first,
        subsequent_indent=then,
        break_long_words=False,
        break_on_hyphens=False,
    ) or [first.rstrip()]


__all__ = ["MIN_FREE", "laid_out", "lead", "widths"]
