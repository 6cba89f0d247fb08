"""Toasts of one or two lines: a notice must not cover the history at 80x24.

What does not fit goes on the status line, which holds the whole text (and scrolls)."""

from __future__ import annotations

# A toast at 80 columns is about 40 wide (Textual's: at most half the screen): two of
# its lines hold about this many characters besides the title.
TOAST_TEXT = 72


def brief(lines: list[str], room: int = TOAST_TEXT) -> str:
    """``lines`` as one or two toast lines: the first, cut to fit, and how many more
    there are (they are on the status line)."""
    if not lines:
        return ""
    more = f"\n+{len(lines) - 1} more on the status line" if len(lines) > 1 else ""
    first = lines[0].strip()
    limit = room - (len(more) if more else 0)
    if len(first) > limit:
        first = first[: max(1, limit - 1)].rstrip() + "…"
    return first + more
