"""The history draws its rows itself: a row is the entry's words on one line, cut with
"…" at the list's width, exactly as Rich would render the text set to no wrap, but
without Rich's ``render_lines`` per row; the highlighted entry's wrapped lines are
rendered once for a width and reused to measure, lay out and paint it."""

from __future__ import annotations

from rich.console import Console
from rich.segment import Segment
from rich.text import Text
from textual.strip import Strip

from stockade.core.book.game import Game
from stockade.tui.app import StockadeApp
from stockade.tui.widgets.history_rows import row_strip
from stockade.tui.widgets.history_view import HistoryView
from tests.tui.support import sample_copy, sync

WIDTHS = (1, 2, 3, 5, 12, 37, 80, 118, 300)


def _as_rich_cuts_it(console: Console, text: Text, width: int, view: HistoryView) -> Strip:
    line = text.copy()
    line.no_wrap, line.overflow = True, "ellipsis"
    options = console.options.update_width(width)
    return Strip(console.render_lines(line, options, style=view.rich_style, pad=True)[0])


@sync
async def test_each_row_reads_as_rich_renders_it_at_any_width(tmp_path):
    game = Game.open(sample_copy(tmp_path, "side_record_board"))
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        view = app.screen.query_one(HistoryView)
        console = app.console
        hostile = Text("wide 漢字漢字 and tabs\tand a very long tail " * 4, style="bold")
        hostile.stylize("italic", 3, 9)
        two_lines = Text("a first line\tand\na second", style="red")
        texts = [view.prompt(seq) for seq in range(1, view.line_count + 1)] + [hostile, two_lines]
        for text in texts:
            assert text is not None
            for width in WIDTHS:
                got = row_strip(console, text, width, view.rich_style)
                want = _as_rich_cuts_it(console, text, width, view)
                assert got.cell_length == width, (text.plain, width)
                assert list(Segment.simplify(got)) == list(Segment.simplify(want)), (
                    text.plain,
                    width,
                )
    game.close()


@sync
async def test_a_repaint_renders_the_highlighted_entry_once_and_no_row_through_rich(
    tmp_path, monkeypatch
):
    game = Game.open(sample_copy(tmp_path, "demo"))
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        view = app.screen.query_one(HistoryView)
        assert view.selected_seq is not None
        rendered: list[object] = []
        real = Console.render_lines

        def counted(self, renderable, *args, **kwargs):
            rendered.append(renderable)
            return real(self, renderable, *args, **kwargs)

        monkeypatch.setattr(Console, "render_lines", counted)
        view.refresh()
        await pilot.pause()
        # Held since the layout: the highlighted entry is not rendered again, and no
        # other row goes through Rich's render_lines (main: one call a row, and the
        # highlighted entry's head and body again for each of its lines).
        assert rendered == [], len(rendered)
        view.action_cursor_up()  # another entry highlighted: its lines, once
        await pilot.pause()
        assert 1 <= len(rendered) <= 3, len(rendered)
    game.close()
