"""A reply that is a table (the help's rows, from the core) laid out at a width: a
verb's name in a column and its summary beside it, each row's wrapped lines going on
under its own text, never back at the margin.

Each row's text is wrapped alone at the width its column leaves (``Text.wrap``, as the
status line wraps a plain reply): Rich's ``Table.grid`` gave the same lines at about
seven times the cost."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

if TYPE_CHECKING:
    from stockade.core.commands.verbs_control import HelpRow

GAP = 2  # spaces between the head column and the text


def row_lines(
    rows: list[HelpRow], console: Console, width: int, lead: Text | None = None
) -> list[Text]:
    """The rows' lines at ``width``; ``lead`` (the status line's "✓ ") begins the first,
    and every line after it is indented as far, so the table stands as one block."""
    lead = lead or Text()
    indent = lead.cell_len
    head_width = max((len(row.head) for row in rows if row.head), default=0)
    lines: list[Text] = []
    for row in rows:
        margin = 2 * row.depth + (head_width + GAP if row.head else 0)
        wrapped = Text(row.text).wrap(console, max(1, width - indent - margin)) or [Text()]
        for n, part in enumerate(wrapped):
            part.rstrip()
            start = row.head.ljust(head_width + GAP) if row.head and n == 0 else ""
            lines.append(Text((" " * 2 * row.depth + start).ljust(margin)).append_text(part))
    return [
        (lead.copy() if n == 0 else Text(" " * indent)).append_text(line)
        for n, line in enumerate(lines)
    ]
