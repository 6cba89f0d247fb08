"""The CC form's command: its canonical line has one space between words whatever the
result is, and it records the capture the results give."""

from __future__ import annotations

import pytest

from stockade.core.book.game import Game
from stockade.core.commands import execute, plan, run_script
from stockade.core.model import events as ev
from stockade.core.rules.cc_table import CaptureEntry
from stockade.tui.forms.cc import capture_command
from tests.tui.support import new_game, press, sync, until


@pytest.mark.parametrize(
    ("entry", "hs_counter", "line"),
    [
        (CaptureEntry(("g2",), "", False), "", "capture g2 by a1"),
        (CaptureEntry(("g2", "g3"), "", False), "", "capture g2 g3 by a1"),
        (CaptureEntry((), "g5", False), "", "capture hs g5 by a1"),
        (CaptureEntry((), "g5", False), "2-4-7", "capture hs g5=2-4-7 by a1"),
        (CaptureEntry(("g2",), "g5", False), "2-4-7", "capture g2 hs g5=2-4-7 by a1"),
    ],
)
def test_the_line_has_single_spaces(entry, hs_counter, line):
    game = Game.in_memory(
        "cc", [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]
    )
    run_script(
        game, ["add American 6-6-6 at Q4", "add German 4-6-7 2-4-7 hs 2-4-7 hs 4-6-7 4-6-7 at Q4"]
    )
    assert str(capture_command(entry, "a1", game.state, hs_counter)) == line


def test_a_split_only_capture_records_the_split():
    game = Game.in_memory(
        "cc", [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]
    )
    run_script(game, ["add American 6-6-6 at Q4", "add German 4-6-7 at Q4"])
    command = capture_command(CaptureEntry((), "g1", False), "a1", game.state, "2-4-7")
    _clock_to_ccph, event = plan(command, game.state).events
    assert isinstance(event, ev.Captured)
    assert (event.units, event.split, event.hs_counter, event.guard) == ([], "g1", "2-4-7", "a1")


@sync
async def test_the_cc_form_in_the_aph_records_the_capture_the_typed_command_records(tmp_path):
    """The player's keys (issue 20): after ``move b3 R5`` in the APh, ``f c b 3 enter *
    enter`` then ctrl+s. The defenders were marked "✗ A20.22 ... (now APh)", ``*`` ticked
    none, and the form wanted odds and DR that ``capture`` does not need."""
    from stockade.tui.app import StockadeApp
    from stockade.tui.forms.cc import CaptureForm
    from tests.reads.kit import PLAYTHROUGH_APH

    game = new_game(tmp_path, "cc", [("British", "British", 3), ("German", "German", 3)])
    for line in PLAYTHROUGH_APH:
        execute(game, line)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await press(pilot, ["f", "c", "b", "3", "enter", "asterisk", "enter"])
        form = next(s for s in app.screen_stack if isinstance(s, CaptureForm))
        assert form.query_one("#f-units").value == ["g4", "g5"]
        verdict = str(form.query_one("#verdict").render())
        assert "✓ the book accepts this entry; the clock moves to the CCPh (A20.22)" in verdict
        await pilot.press("ctrl+s")
        await until(pilot, lambda: game.state.phase == "CCPh", "the entry is recorded")
        assert not isinstance(app.screen, CaptureForm)
    assert game.state.phase == "CCPh"
    assert {game.state.units[h].guard for h in ("g4", "g5")} == {"b3"}
    game.close()


@sync
async def test_the_cc_form_says_where_its_kill_number_comes_from(tmp_path):
    """The seeds hold no A11.11 CC Table: the form says which Kill Numbers the seeds
    give (1-2, A20.22's EX) and which are the table's alone (3-1)."""
    from stockade.tui.app import StockadeApp
    from stockade.tui.forms.cc import CaptureForm

    game = new_game(tmp_path, "cc", [("American", "American", 4), ("German", "German", 3)])
    run_script(game, ["add American 7-4-7 at R5", "add German 4-6-7 at R5", "phase CCPh"])
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await press(pilot, ["f", "c", "escape"])
        form = next(s for s in app.screen_stack if isinstance(s, CaptureForm))
        form.query_one("#f-by").value = "a1"
        form.query_one("#f-units").value = ["g1"]
        form.query_one("#f-odds").value = "3-1"
        form.query_one("#f-dr").value = "7"

        def says(words: str) -> bool:
            return words in str(form.query_one("#verdict").render())

        await until(
            pilot, lambda: says("Kill# 8 at 3-1: the A11.11 CC Table, not among the seeds"), "3-1"
        )
        form.query_one("#f-odds").value = "1-2"
        await until(pilot, lambda: says("Kill# 4 at 1-2: A20.22 EX"), "1-2")
    game.close()


def test_the_cc_form_records_the_excess_freed():
    """The form's ``free`` field is the verb's slot: of the units taken whole, those
    named go free as Unarmed (A20.5); a unit the helper did not take is not freed."""
    game = Game.in_memory(
        "cc", [ev.SideSpec("German", "German", 3), ev.SideSpec("American", "American", 4)]
    )
    run_script(game, ["add German 8-1 at Q4", "add American 6-6-6 6-6-6 4-4-7 at Q4"])
    entry = CaptureEntry(("a1", "a2"), "", False)
    command = capture_command(entry, "g1", game.state, free=("a2", "a3"))
    assert str(command) == "capture a1 a2 by g1 free a2"
