"""The rearm form fills How and the enemy the way ``rearm g1`` does at the bar: when
the game allows one way (``core.commands.fill.filled``), the fields show it and the
verdict says so; where two ways fit, it still asks, and fills the rest once told."""

from __future__ import annotations

from stockade.core.commands import execute
from stockade.core.model import events as ev
from stockade.tui.app import StockadeApp
from stockade.tui.forms.base import FormScreen
from stockade.tui.forms.choice_list import ChoiceList
from stockade.tui.forms.picker import UnitPicker
from tests.tui.support import new_game, sync

SIDES = [("German", "German", 3), ("American", "American", 4)]
# g1 and g2, prisoners of a1, attack it in the CCPh: g2 fails its NTC, g1 eliminates
# it; only g1 may rearm, and only by CC from a1 (A20.551)
ONE_WAY = [
    "add American 4-5-7 at R5",
    "add German 4-6-7 4-6-7 at R5",
    "phase CCPh",
    "capture g1 g2 by a1",
    "break a1",
    "phase CCPh 1 American",  # a later CCPh than the capture's (Stockade's ruling on A20.55)
    "escape g1 g2 ntcfail g2 guard-dies",
]
# a1, their Guard, eliminated in CC and no other enemy there: in CC or alone both fit
TWO_WAYS = [
    "add American 4-5-7 at Q4",
    "add German 4-6-7 2-4-7 hs at P4 broken",
    "phase RtPh 1 American",
    "surrender g1 g2 to a1",
    "phase CCPh 2 German",
    "eliminate a1 by cc",
]


def _rearm_form(tmp_path, lines: list[str]):
    game = new_game(tmp_path, "Fill", SIDES)
    for line in lines:
        execute(game, line)
    app = StockadeApp(game, remember=False)
    return game, app


def _fields(form: FormScreen) -> tuple[str, str | list[str], str]:
    verdict = str(form.query_one("#verdict").render())
    how = form.query_one("#f-how", ChoiceList).value
    return how, form.query_one("#f-enemy", UnitPicker).value, verdict


@sync
async def test_the_rearm_form_fills_the_one_way_and_records_it(tmp_path):
    game, app = _rearm_form(tmp_path, ONE_WAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f", "r", "enter")  # the form opens on the roster: g1
        await pilot.pause()
        form = app.screen
        assert isinstance(form, FormScreen) and form.spec.name == "rearm"
        how, enemy, verdict = _fields(form)
        assert (how, enemy) == ("cc", "a1")
        assert "filled in: how cc, armed enemy a1 (the only choice" in verdict, verdict
        assert "✓ the book accepts this entry" in verdict, verdict
        assert "still to fill" not in verdict
        # the player may change a filled field: "alone" fits no enemy, so the enemy the
        # form filled for "in CC" is taken back and the form asks for it
        form.query_one("#f-how").value = "alone"
        await pilot.pause()
        how, enemy, verdict = _fields(form)
        assert (how, enemy) == ("alone", ""), verdict
        assert "filled in" not in verdict
        form.query_one("#f-how").value = "cc"  # the player's now; the enemy is filled again
        await pilot.pause()
        how, enemy, verdict = _fields(form)
        assert (how, enemy) == ("cc", "a1")
        assert "filled in: armed enemy a1" in verdict, verdict
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is not form
    rearmed = [r for r in game.records if isinstance(r, ev.Rearmed)]
    assert [(r.handle, r.how, r.enemy) for r in rearmed] == [("g1", "cc", "a1")]
    game.close()


@sync
async def test_the_rearm_form_asks_how_when_two_ways_fit(tmp_path):
    game, app = _rearm_form(tmp_path, TWO_WAYS)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f", "r", "enter")  # g1
        await pilot.pause()
        form = app.screen
        assert isinstance(form, FormScreen)
        how, enemy, verdict = _fields(form)
        assert (how, enemy) == ("", "")
        assert "? still to fill: How" in verdict and "filled in" not in verdict, verdict
        await pilot.press("a")  # How: "alone with it"; a1 is then the only enemy
        await pilot.pause()
        how, enemy, verdict = _fields(form)
        assert (how, enemy) == ("alone", "a1")
        assert "filled in: armed enemy a1" in verdict, verdict
        await pilot.press("ctrl+s")
        await pilot.pause()
    rearmed = [r for r in game.records if isinstance(r, ev.Rearmed)]
    assert [(r.handle, r.how, r.enemy) for r in rearmed] == [("g1", "alone", "a1")]
    game.close()
