"""The history reads like the side record, and an entry is mended where it stands.

A phase change is a dim heading, not an entry: ↑/↓ step over it; typing an entry's
number goes to it. In history and replay (h), ``a`` asks what the entry should have
been, shows what that changes (the core's preview: nothing written yet), and writes
the amendment on yes; the entry then reads as amended, and one undo takes it back."""

from __future__ import annotations

import pytest

from stockade.core.commands import run_script
from stockade.core.model import events as ev
from stockade.tui.app import StockadeApp
from stockade.tui.screens.confirm import ConfirmScreen
from stockade.tui.screens.main import MainScreen
from stockade.tui.widgets.history_view import HistoryView
from stockade.tui.widgets.status_line import StatusLine
from tests.book.kit import AMEND_SCRIPT
from tests.tui.support import new_game, sync

SIDES = [("American", "American", 4), ("German", "German", 3)]


@pytest.fixture(autouse=True)
def _slow_digits(monkeypatch):
    # digits typed by the test make one number however slowly a loaded machine runs it
    monkeypatch.setattr("stockade.tui.widgets.history_view.NUMBER_PAUSE", 600.0)


@sync
async def test_phase_changes_are_headings_that_the_arrows_step_over(tmp_path):
    game = new_game(tmp_path, "Amend", SIDES)
    run_script(game, AMEND_SCRIPT)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        history = app.screen.query_one(HistoryView)
        history.focus()
        assert history.selected_seq == 15
        heading = history.line(14)
        assert heading is not None and heading.heading and not history.line(15).heading
        assert str(history.prompt(14)).startswith("── 14 Turn 1, German PFPh")
        await pilot.press("up")
        assert history.selected_seq == 12  # over the two clock lines 13 and 14
        await pilot.press("down")
        assert history.selected_seq == 15
        await pilot.press("8")
        assert history.selected_seq == 8
        await pilot.press("1", "0")  # 81 is past the last entry: 1 starts a new number
        assert history.selected_seq == 10
        await pilot.press("9")  # 109 is past the last entry: 9, a heading: its first entry
        assert history.selected_seq == 10
        await pilot.press("1", "2")
        assert history.selected_seq == 12
    game.close()


@sync
async def test_a_amends_the_selected_entry_after_showing_what_it_changes(tmp_path):
    """The amend question starts from the entry's own line (the core's ``entry_line``),
    to be edited rather than typed again; a refused line stays in the question with the
    refusal under it, and nothing is written. The corrected line shows what it changes
    (nothing written yet), yes writes it, and one undo takes it back."""
    game = new_game(tmp_path, "Amend", SIDES)
    run_script(game, AMEND_SCRIPT)
    n = len(game.records)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        history = app.screen.query_one(HistoryView)
        await pilot.press("1", "0")
        await pilot.pause()
        assert history.selected_seq == 10
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        field = app.screen.query_one("#confirm-input")
        assert field.value == "transfer g1 to a2"  # the entry as typed
        await pilot.press("backspace", "9")  # edited, not retyped: a unit no game has
        await pilot.pause()
        assert field.value == "transfer g1 to a9"
        await pilot.press("enter")
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, ConfirmScreen) and modal.query_one("#confirm-input") is field
        assert field.value == "transfer g1 to a9"  # kept, to be corrected
        refusal = modal.query_one("#confirm-refusal")
        assert refusal.display and "a9" in str(refusal.render())
        assert len(game.records) == n
        await pilot.press("backspace", "3", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)  # the preview: nothing written yet
        body = str(app.screen.query_one("#confirm-body").render())
        assert "holds in part: a2 eliminated; the takeover by a1 is dropped" in body
        assert len(game.records) == n
        await pilot.press("y")
        await pilot.pause()
        assert len(game.records) == n + 1 and isinstance(game.records[-1], ev.Amend)
        history = app.screen.query_one(HistoryView)
        line = history.line(10)
        assert line is not None and line.amended_by == n + 1 and "(a3)" in line.text
        assert "holds in part" in str(history.prompt(15))
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("u")  # one undo takes it back
        await pilot.pause()
        history = app.screen.query_one(HistoryView)
        line = history.line(10)
        assert line is not None and line.amended_by == 0 and "(a2)" in line.text
        assert history.line(n + 1).status == "undone"
        assert game.state.units["g1"].guard == "a1"
    game.close()


@sync
async def test_leaving_replay_after_a_strike_shows_the_strikes_reply(tmp_path):
    """Leaving replay after a write there (a strike) shows that write's reply on the
    main screen, not the reply the main screen said before replay opened."""
    game = new_game(tmp_path, "Strike", SIDES)
    run_script(game, AMEND_SCRIPT)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("u", "r")  # the main screen says "redone: entry ..."
        await pilot.pause()
        assert app.screen.query_one(StatusLine).message.startswith("redone: entry")
        await pilot.press("h")
        await pilot.pause()
        await pilot.press("1", "2")
        await pilot.pause()
        assert app.screen.query_one(HistoryView).selected_seq == 12
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert app.screen.query_one(StatusLine).message.startswith("struck entry 12")
    game.close()
