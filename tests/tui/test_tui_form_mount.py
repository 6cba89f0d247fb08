"""A form opens as Textual opens any screen: laid out and painted as often as a plain
modal screen with the same kind of box, not again for what the form did after its
first layout (a label pointed at, a "more below" line hidden, a limit the fields do
not reach, the form drawn alone before its roster is pushed over it).

Counted with Textual's public ``screen_layout_refresh_signal`` (published after each
layout of a screen): work counted, never timed.
"""

from __future__ import annotations

import pytest
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from stockade.core.commands import execute
from stockade.tui.app import StockadeApp
from stockade.tui.forms import make_form
from stockade.tui.forms.pick_screen import PickScreen
from tests.tui.support import in_runs, new_game, run_id, sync

SETUP = [
    "add German 4-6-7 as g1 at Q4 broken",
    "add German 2-4-7 hs as g2 at Q4 broken",
    "add American 6-6-6 as a1 at Q5",
    "phase RtPh 1 American",
    "surrender g1 g2 to a1",
    "phase APh 1 American",
    "abandon g2",
]


class Plain(ModalScreen[None]):
    """A modal box with a few lines: what Textual does to open any screen."""

    DEFAULT_CSS = "Plain { align: center middle; } Plain > Vertical { height: auto; }"

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("a modal box")
            yield Static("with a few lines")


async def _idle(pilot) -> None:
    await pilot.app.workers.wait_for_complete()
    for _ in range(6):
        await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    for _ in range(3):
        await pilot.pause()


async def _layouts_of_opening(pilot, screen: Screen) -> int:
    """How many times ``screen`` is laid out from its push until the app is idle."""
    layouts: list[object] = []
    screen.screen_layout_refresh_signal.subscribe(pilot.app.screen, layouts.append, True)
    pilot.app.push_screen(screen)
    await _idle(pilot)
    return len(layouts)


# Forms that open on a field of their own (not on the roster): at 80x24 these fit.
FORMS = ["end", "vc", "control", "fire", "add"]


@pytest.mark.parametrize("run", in_runs(FORMS, 2), ids=run_id)
@sync
async def test_a_form_is_laid_out_as_often_as_a_plain_modal(tmp_path, run):
    """Each form of the run, then a plain modal, opened over the main screen of one app:
    the form is laid out no more often than the plain modal opened just after it."""
    game = new_game(tmp_path, "Forms", [("German", "German", 3), ("American", "American", 4)])
    for line in SETUP:
        execute(game, line)
    app = StockadeApp(game, remember=False)
    counted: dict[str, tuple[int, int]] = {}
    async with app.run_test(size=(80, 24)) as pilot:
        await _idle(pilot)
        for name in run:
            opened = await _layouts_of_opening(pilot, make_form(name))
            assert not isinstance(app.screen, PickScreen), name
            app.pop_screen()
            await _idle(pilot)
            plain = await _layouts_of_opening(pilot, Plain())
            app.pop_screen()
            await _idle(pilot)
            counted[name] = (opened, plain)
    game.close()
    assert list(counted) == run
    assert {n: c for n, c in counted.items() if c[0] > c[1]} == {}, counted
