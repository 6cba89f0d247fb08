"""SVG snapshots at 80x24 of the roster, the unit picker and every guided form
(pytest-textual-snapshot, as tests/tui/test_tui_snapshots.py). The game has prisoners, a
second Guard candidate and units of both sides, so every pick-list has something in it.

The forms are taken one after the other, a run of them in one app (tests/tui/screens.py
makes ``snap_compare``'s comparison against each form's own
``test_form_80x24[<form>].svg``): starting an app for each cost more than drawing the
form. The runs are separate tests, spread over the workers.

Update with ``pytest tests/tui/test_tui_snapshots_forms.py --snapshot-update`` after a
deliberate change, and look at the report before committing.
"""

from __future__ import annotations

import pytest
from textual.widgets import Input

from stockade.core.commands import execute
from stockade.tui.app import StockadeApp
from stockade.tui.forms import all_specs
from tests.tui.screens import Screens, as_snap_compare_takes_it, back_to_the_main_screen
from tests.tui.support import in_runs, new_game, run_id, sync

SETUP = [
    "add German 4-6-7 as g1 at Q4 broken",
    "add German 2-4-7 hs as g2 at Q4 broken",
    "add German 2-4-7 hs as g3 at Q4 broken",
    "add German 4-6-7 as g4 at R5",
    "add American 6-6-6 as a1 at Q5",
    "add American 6-6-6 as a2 at Q5",
    "add American 7-4-7 as a3 at R5",
    "phase RtPh 1 American",
    "surrender g1 g2 g3 to a1",
    "phase APh 1 American",
]


@pytest.fixture
def app(tmp_path):
    game = new_game(tmp_path, "Forms", [("American", "American", 4), ("German", "German", 3)])
    for line in SETUP:
        execute(game, line)
    yield StockadeApp(game, remember=False)
    game.close()


QUIET = 3  # refreshes in a row that lay nothing out: the form has settled


async def _settle(pilot) -> None:
    """Until the app is idle: a form's fit and its "more below" line take a few
    refreshes in turn (each pause ends with one), each but the last laying the form out
    again; so the screen has settled once ``QUIET`` pauses in a row laid nothing out on
    the same screen. Counted, not timed: a loaded machine takes longer, never fewer."""
    quiet = 0
    while quiet < QUIET:
        await pilot.app.workers.wait_for_complete()
        app, screen = pilot.app, pilot.app.screen
        layouts: list[object] = []
        screen.screen_layout_refresh_signal.subscribe(app, layouts.append, True)
        await pilot.pause()
        screen.screen_layout_refresh_signal.unsubscribe(app)
        # a screen pushed but not yet mounted has not been laid out: not settled
        settled = not layouts and app.screen is screen and screen.is_running
        quiet = quiet + 1 if settled else 0


def test_roster_80x24(app, snap_compare):
    async def roster(pilot):
        await pilot.press("w")
        await _settle(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=roster)


def test_capture_defender_picker_80x24(app, snap_compare):
    """The picker: legal defenders first, the others greyed, the reason of the highlighted."""
    execute(app.game, "phase CCPh 1 American")

    async def picker(pilot):
        await pilot.press("f", "c")  # the form opens on the attackers
        await _settle(pilot)
        await pilot.press("enter")  # a3 in R5, the first that may capture: the defenders
        await _settle(pilot)
        await pilot.press("down")  # onto a greyed one (the attacker's own side): why not
        await _settle(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=picker)


async def _longest_list_open(pilot, name: str) -> None:
    """The form ``name`` with its longest list open: a list field's words inside the
    form, or a unit field's roster. (Opened as its key in the forms menu opens it:
    tests/tui/test_tui_forms.py presses the keys.)"""
    from stockade.tui.forms.base import FormScreen
    from stockade.tui.forms.choice_list import ChoiceList
    from stockade.tui.forms.pick_screen import PickScreen
    from stockade.tui.forms.picker import UnitPicker

    pilot.app.screen.action_form(name)
    await _settle(pilot)
    if isinstance(pilot.app.screen, PickScreen):  # the form opens on the roster
        await pilot.press("escape")
        await _settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, FormScreen)
    for text_field in screen.query(Input):  # a blinking cursor is drawn by the clock
        text_field.cursor_blink = False
    lists: list[tuple[int, ChoiceList | UnitPicker]] = []
    for w in screen.query("ChoiceList, UnitPicker"):  # in the form's order
        if isinstance(w, ChoiceList) and w.display:
            lists.append((w.option_count, w))
        elif isinstance(w, UnitPicker) and w.display:
            lists.append((len(w.choices), w))
    if lists:
        _size, longest = max(lists, key=lambda pair: pair[0])
        longest.focus()
        longest.scroll_visible(animate=False)
        await _settle(pilot)
        if isinstance(longest, ChoiceList):  # the list stays inside its form
            box = screen.query_one("#form").region
            assert box.contains_region(longest.region), (name, longest.region, box)
        if isinstance(longest, UnitPicker):
            await pilot.press("space")
            await _settle(pilot)


RUNS = in_runs([spec.name for spec in all_specs()], 4)


@pytest.mark.parametrize("run", RUNS, ids=run_id)
@sync
async def test_form_80x24(app, snapshot, request, run):
    """Each form of the run with its longest list open, one after the other in one app
    (the main screen between them), each compared with its own stored SVG."""
    screens = Screens(snapshot, request)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        for name in run:
            await _longest_list_open(pilot, name)
            await as_snap_compare_takes_it(pilot)
            screens.take(app, name)
            await back_to_the_main_screen(pilot)
    assert screens.taken == run
    screens.check()


def test_capture_form_with_results_80x24(app, snap_compare):
    """Two defenders' results fill the pinned verdict: the fields scroll, the form says
    which fields are below the fold."""
    for line in ("add German 2-4-7 hs as g5 at R5", "phase CCPh 1 American"):
        execute(app.game, line)

    async def form(pilot):
        from stockade.tui.forms.cc import CaptureForm

        await pilot.press("f", "c", "escape")
        await _settle(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, CaptureForm)
        screen.query_one("#f-by").value = "a3"
        screen.query_one("#f-units").value = ["g4", "g5"]
        screen.query_one("#f-odds").value = "3-1"
        screen.query_one("#f-dr").value = "7"
        await _settle(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=form)
