"""Forms fill or leave out what the game settles, from the core: the escape form asks
the Axis Minor own-borders question only in a game it applies to (A20.55 EXC), the
massacre form fills By with the one unit that may (A20.4), and the surrender form
records a rejection without a captor picked (A20.3: a side rejects)."""

from __future__ import annotations

from stockade.core.commands import execute
from stockade.tui.app import StockadeApp
from stockade.tui.forms.base import FormScreen
from stockade.tui.forms.choice_list import ChoiceList
from stockade.tui.forms.picker import UnitPicker
from tests.tui.support import new_game, sync

HELD = [
    "add {captor} 4-4-7 as c1 at D4",
    "add {captor} 4-4-7 as c2 at H8",
    "add {held} 4-6-7 as h1 at D5 broken",
    "phase RtPh 1 {held}",
]


async def _open(pilot, key: str) -> FormScreen:
    from stockade.tui.forms.pick_screen import PickScreen

    await pilot.pause()
    await pilot.press("f", key)
    await pilot.pause()
    if isinstance(pilot.app.screen, PickScreen):  # a form opening on its unit picker
        await pilot.press("escape")
        await pilot.pause()
    form = pilot.app.screen
    assert isinstance(form, FormScreen)
    return form


def _game(tmp_path, captor: str, held: str, *more: str):
    game = new_game(tmp_path, "Fields", [(captor, captor, 3), (held, held, 3)])
    for line in [*(line.format(captor=captor, held=held) for line in HELD), *more]:
        execute(game, line)
    return game


@sync
async def test_the_escape_form_asks_own_borders_only_where_it_applies(tmp_path):
    for captor, held, shown in (("American", "German", False), ("Russian", "Romanian", True)):
        (tmp_path / captor).mkdir()
        game = _game(
            tmp_path / captor,
            captor,
            held,
            "surrender h1 to c1",
            "phase CCPh 2 " + held,
        )
        app = StockadeApp(game, remember=False)
        async with app.run_test(size=(80, 24)) as pilot:
            form = await _open(pilot, "e")
            assert form.query_one("#f-own_borders").display is shown, captor
        game.close()


@sync
async def test_the_massacre_form_fills_by_with_the_one_unit_that_may(tmp_path):
    game = _game(tmp_path, "Russian", "German", "surrender h1 to c1", "phase PFPh 2 Russian")
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        form = await _open(pilot, "m")
        form.query_one("#f-units", UnitPicker).value = ["h1"]
        await pilot.pause()
        assert form.query_one("#f-by", UnitPicker).value == "c1"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, FormScreen)
        assert game.state.units["h1"].status == "eliminated"
    game.close()


@sync
async def test_a_rejection_needs_no_captor_picked(tmp_path):
    """Two Russians could be the captor: the form leaves Captor for the player, yet a
    rejection is the Russians' whatever the captor, and is recorded as it stands."""
    game = _game(tmp_path, "Russian", "German")
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        form = await _open(pilot, "s")
        form.query_one("#f-units", UnitPicker).value = ["h1"]
        await pilot.pause()
        assert form.query_one("#f-to", UnitPicker).value == ""
        for name, value in (("adjacent", "yes"), ("free_rout", "no"), ("answer", "reject")):
            form.query_one(f"#f-{name}", ChoiceList).value = value
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, FormScreen), str(form.query_one("#verdict").render())
        assert game.state.sides["Russian"].no_quarter
    game.close()
