"""A reply that is a table (the help's rows, from the core) laid out at a width: a
verb's name in a column and its summary beside it, each row's wrapped lines going on
under its own text, never back at the margin."""

from __future__ import annotations

from itertools import groupby
from typing import TYPE_CHECKING

from rich.console import Console, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from stockade.core.commands.verbs_control import HelpRow


def _block(rows: list[HelpRow], head_width: int) -> RenderableType:
    """Rows of one depth, all with a head (a grid) or all without (lines)."""
    depth = rows[0].depth
    if rows[0].head:
        grid = Table.grid(padding=(0, 2, 0, 0))
        grid.add_column(width=head_width, no_wrap=True)
        grid.add_column(ratio=1)
        for row in rows:
            grid.add_row(row.head, row.text)
        body: RenderableType = grid
    else:
        body = Text("\n").join(Text(row.text) for row in rows)
    return Padding(body, (0, 0, 0, 2 * depth)) if depth else body


def row_lines(
    rows: list[HelpRow], console: Console, width: int, lead: Text | None = None
) -> list[Text]:
    """The rows' lines at ``width``; ``lead`` (the status line's "✓ ") begins the first,
    and every line after it is indented as far, so the table stands as one block."""
    lead = lead or Text()
    indent = lead.cell_len
    head_width = max((len(row.head) for row in rows if row.head), default=0)
    options = console.options.update_width(max(1, width - indent))
    lines: list[Text] = []
    for _, block in groupby(rows, key=lambda row: (row.depth, bool(row.head))):
        rendered = console.render_lines(_block(list(block), head_width), options, pad=False)
        for segments in rendered:
            line = Text()
            for segment in segments:
                if not segment.control:
                    line.append(segment.text, segment.style)
            line.rstrip()
            lines.append(line)
    return [
        (lead.copy() if n == 0 else Text(" " * indent)).append_text(line)
        for n, line in enumerate(lines)
    ]
