"""80x24 is the design size: what does not fit says so ("↓ more"), and the replay's
position is counted in entry numbers."""

from __future__ import annotations

from textual.events import MouseScrollDown

from stockade.core.book.game import Game
from stockade.core.commands import run_script
from stockade.tui.app import StockadeApp
from stockade.tui.widgets.phase_bar import PhaseBar
from stockade.tui.widgets.side_panel import SidePanelView
from stockade.tui.widgets.status_line import StatusLine
from tests.tui.support import new_game, sample_copy, sync


@sync
async def test_a_long_status_says_more_and_scrolls_with_a_key_or_the_wheel(tmp_path):
    """Then, in the same app, a long reply paged to its end."""
    game = Game.open(sample_copy(tmp_path))
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        status = app.screen.query_one(StatusLine)
        status.say("word " * 300, "hint")
        await pilot.pause()
        shown = str(status.render())
        assert len(shown.splitlines()) == 24 // 3  # a long reply: a third of the screen
        assert shown.endswith("↓ more (^↓)")
        status.post_message(MouseScrollDown(status, 1, 1, 0, 1, 0, False, False, False))
        await pilot.pause()
        shown = str(status.render())
        assert shown.startswith("↑ ")
        await pilot.press("ctrl+up")  # back to the top, from the keyboard
        assert not str(status.render()).startswith("↑ ")
        status.say(" ".join(f"w{n}" for n in range(400)), "hint")
        lines = [line.plain.split() for line in status.wrapped_lines()]
        await pilot.press("ctrl+down")  # a key turns a whole page of the lines shown
        assert str(status.render()).split()[:2] == ["↑", lines[24 // 3][0]]
        await pilot.press("ctrl+up")
        status.say("word " * 300, "hint")
        await pilot.press("colon")  # and from inside the command bar
        await pilot.press("ctrl+down", "ctrl+down")
        assert str(status.render()).startswith("↑ ")
        await pilot.press("escape")
        status.say("word " * 80, "hint")
        status.say("short", "ok")
        await pilot.pause()
        assert "more" not in str(status.render())
        await paging_a_long_reply_shows_every_word_whole(pilot, status)
    game.close()


async def paging_a_long_reply_shows_every_word_whole(pilot, status: StatusLine) -> None:
    """The "↓ more" and "↑" marks take room of their own: no word of a long reply (help
    escape) is cut to make room for them, on any page."""
    words = [f"word{n}" for n in range(300)]
    status.say(" ".join(words), "hint")
    await pilot.pause()
    seen: set[str] = set()
    for _ in range(len(words)):
        shown = str(status.render())
        assert "…" not in shown, "a word cut on a page of a long reply"
        seen.update(shown.split())
        if "more" not in shown:
            break
        await pilot.press("ctrl+down")
    assert set(words) <= seen, "a word of a long reply on no page"


@sync
async def test_a_panel_that_does_not_fit_says_how_much_is_below(tmp_path):
    game = Game.open(sample_copy(tmp_path))
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        german = next(p for p in app.screen.query(SidePanelView) if p.side == "German")
        assert german.max_scroll_y > 0
        assert f"↓{round(german.max_scroll_y)} more" in german.border_subtitle
        assert "tab, j/k" in german.border_subtitle  # the keys that scroll it
        # the keys follow the focus as it is now, not as it was a move before
        german.focus()
        await pilot.pause()
        assert "(j/k)" in german.border_subtitle, german.border_subtitle
        american = next(p for p in app.screen.query(SidePanelView) if p.side == "American")
        american.focus()
        await pilot.pause()
        assert "tab, j/k" in german.border_subtitle, german.border_subtitle
        german.scroll_end(animate=False)
        await pilot.pause()
        await pilot.pause()
        assert "↓" not in german.border_subtitle and "↑" in german.border_subtitle
    async with StockadeApp(Game.open(sample_copy(tmp_path, "ex05_rtph_surrender")),
                           remember=False).run_test(size=(160, 50)) as pilot:  # fmt: skip
        await pilot.pause()
        await pilot.pause()
        for panel in pilot.app.screen.query(SidePanelView):
            assert "more" not in panel.border_subtitle  # all of it fits: no mark
        pilot.app.game.close()
    game.close()


@sync
async def test_replay_counts_in_entry_numbers_not_lines(tmp_path):
    game = new_game(tmp_path, "Keys", [("German", "German", 3), ("American", "American", 4)])
    run_script(game, ["add German 4-6-7 as g1 at Q4"])
    game.undo()  # the undo record is numbered but not listed
    run_script(game, ["add German 4-6-7 as g2 at Q4"])
    last = game.records[-1].seq
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        note = app.screen.query_one(PhaseBar)._note
        assert note == f"REPLAY: {last} of {last}"
    game.close()
