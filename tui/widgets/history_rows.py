"""The history's rows drawn: an entry on one line, cut to the list's width, and the
highlighted entry whole, wrapped under itself (``tui.widgets.history_view``)."""

from __future__ import annotations

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip


def row_strip(console: Console, text: Text, width: int, style: Style) -> Strip:
    """One row: ``text`` on one line, cut with "…" at ``width`` and padded to it,
    ``style`` under each segment: what Rich's ``render_lines`` makes of the text set to
    no wrap (its first line), without its wrapping and line-splitting machinery, which
    cost a repaint of the list more than the rest of it."""
    line = text.split(allow_blank=True)[0] if "\n" in text.plain else text.copy()
    if "\t" in line.plain:
        line.expand_tabs(text.tab_size or 8)
    line.rstrip_end(width)
    line.truncate(width, overflow="ellipsis")
    # Joined as Rich joins its lines: the text's own style becomes a span (a text with
    # no span renders without its own style)
    segments = Segment.apply_style(Text("\n").join([line]).render(console), style)
    return Strip(segments).adjust_cell_length(width, style)


def wrapped_entry(
    console: Console, text: Text, indent: int, width: int, style: Style
) -> list[list[Segment]]:
    """An entry whole at ``width``: its sentence wrapped under itself, the first
    ``indent`` characters (the number and the mark) on its first line only (a hanging
    indent), unless too narrow to give the sentence a column of its own."""
    head, body = text[:indent], text[indent:]
    head_cells = head.cell_len
    if head_cells * 3 > width:
        options = console.options.update_width(width)
        return console.render_lines(text, options, style=style, pad=True)
    options = console.options.update_width(width - head_cells)
    lines = console.render_lines(body, options, style=style, pad=True)
    first = console.render_lines(
        head, console.options.update_width(head_cells), style=style, pad=True
    )[0]
    under = [Segment(" " * head_cells, style)]
    return [first + lines[0], *(under + rest for rest in lines[1:])]
