"""Pilot tests of every guided form (``f`` then its letter), the command palette's form
and theme entries, and key overrides from config.toml on replay and form keys.

Each form is opened with keys, filled the way a paste would (one value per field, not
one key press per letter), and recorded with ctrl+s; or, where the book must say no,
the core's refusal is shown with its rule and nothing is recorded.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.command import CommandList
from textual.widgets import Input

from stockade.core.commands import VERBS, execute
from stockade.core.commands import parser as command_parser
from stockade.core.model.tracked_unit import ELIMINATED, ESCORTED, PRISONER, UNARMED
from stockade.tui.app import StockadeApp
from stockade.tui.forms import all_specs
from stockade.tui.forms.base import FormScreen
from stockade.tui.forms.choice_list import ChoiceList
from stockade.tui.forms.picker import UnitPicker
from stockade.tui.forms.tick_box import TickBox
from tests.tui.support import in_runs, new_game, press, run_id, status_text, sync, until

# Three Germans broken in Q4; two American squads in Q5; the Germans surrendered to a1
# in the American RtPh; now the American APh (transfer / abandon / escort allowed).
BASE = [
    "add German 4-6-7 as g1 at Q4 broken",
    "add German 2-4-7 hs as g2 at Q4 broken",
    "add German 2-4-7 hs as g3 at Q4 broken",
    "add American 6-6-6 as a1 at Q5",
    "add American 6-6-6 as a2 at Q5",
]
TAKEN = ["phase RtPh 1 American", "surrender g1 g2 g3 to a1", "phase APh 1 American"]


def units(state, handle):
    return state.units[handle]


# name: (setup lines, the keys after "f" and the form's letter, check(state) or the
# refusal's rule). A key "=text" is text pasted into the focused field.
CASES: dict[str, tuple[list[str], list[str], Callable[[Any], bool] | str]] = {
    "add": (
        [],
        ["g", "enter", "=4-6-7 9-1", "enter", "=R2", "tab", "space"],
        lambda s: units(s, "g1").broken and units(s, "g2").location == "R2",
    ),
    "surrender": (
        BASE + ["phase RtPh 1 American"],
        ["asterisk", "enter", "enter", "y", "enter", "n"],
        lambda s: all(units(s, h).guard == "a1" for h in ("g1", "g2", "g3")),
    ),
    "capture": (
        ["add German 4-6-7 as g1 at Q4", "add American 6-6-6 as a1 at Q4", "phase CCPh 1 American"],
        ["enter", "enter", "=3-1", "enter", "=2"],
        lambda s: units(s, "g1").status == PRISONER and units(s, "g1").guard == "a1",
    ),
    "status": (BASE, ["enter", "down", "down", "enter"], lambda s: units(s, "a1").pinned),
    "move": (BASE, ["enter", "=R7"], lambda s: units(s, "a1").location == "R7"),
    "transfer": (BASE + TAKEN, ["enter"], lambda s: units(s, "g1").guard == "a2"),
    "abandon": (BASE + TAKEN, ["enter"], lambda s: units(s, "g1").status == UNARMED),
    "recapture": (
        BASE + TAKEN + ["abandon g3", "phase MPh 2 American"],
        ["enter", "down", "enter"],
        lambda s: units(s, "g3").guard == "a2",
    ),
    "exchange": (
        BASE + TAKEN,
        ["down", "space", "down", "space", "enter", "=g9"],
        lambda s: units(s, "g9").guard == "a1",
    ),
    "split": (
        BASE + TAKEN,
        ["enter"],
        lambda s: units(s, "g4").guard == "a1" and units(s, "g5").guard == "a1",
    ),
    "deploy": (
        BASE + TAKEN,
        ["enter", "=3-3-6", "enter", "=g2=2"],
        lambda s: units(s, "g2").guard == "a4",
    ),
    "escape": (BASE + TAKEN, ["enter", "space"], "A20.55"),  # only in the CCPh
    "rearm": (BASE + TAKEN + ["abandon g3"], ["enter", "a", "enter", "enter"], "A20.551"),
    "scrounge": (
        BASE + TAKEN + ["abandon g3", "phase MPh 2 German"],
        ["enter", "=2"],
        lambda s: units(s, "g3").status != UNARMED or units(s, "g3").armed,
    ),
    "massacre": (BASE + TAKEN, ["enter", "enter"], "A20.4"),  # Americans may not
    "fire": (
        BASE + TAKEN + ["phase DFPh 2 American"],  # fire is made in a fire phase (A7)
        ["e", "enter", "enter", "o", "enter"],
        lambda s: units(s, "g1").status == ELIMINATED,
    ),
    "eliminate": (
        BASE + TAKEN + ["phase DFPh 2 American"],
        ["enter", "e", "enter"],
        lambda s: units(s, "g1").guard == "a2" and units(s, "a1").status == ELIMINATED,
    ),
    "escort": (BASE + TAKEN, ["enter"], lambda s: units(s, "a1").status == ESCORTED),
    "end": (BASE, ["space"], lambda s: s.ended),
    "vc": (
        BASE,
        ["=American wins if amassed >= 4", "enter", "=The Americans win ..."],
        lambda s: (
            s.vc.conditions.clauses[0].side == "American"
            and s.vc.conditions.card == "The Americans win ..."
        ),
    ),
    "exit": (BASE, ["enter", "=east"], lambda s: units(s, "a1").status == "exited"),
    "control": (
        BASE,
        ["=P4 Q5", "enter", "g", "enter"],
        lambda s: s.vc.controller("P4") == "German",
    ),
}


# The cases in runs of five or six: one app a run (an app starts once, not once a form),
# and the runs spread over the workers.
RUNS = in_runs(list(CASES), 4)


def test_every_form_has_a_case():
    assert {spec.name for spec in all_specs()} == set(CASES)
    assert [name for run in RUNS for name in run] == list(CASES)  # each driven once


async def past_the_picker(pilot) -> FormScreen:
    """A form whose first field is a unit opens on the roster picker: close it."""
    from stockade.tui.forms.pick_screen import PickScreen

    await pilot.pause()
    if isinstance(pilot.app.screen, PickScreen):
        await pilot.press("escape")
        await pilot.pause()
    return pilot.app.screen


async def fill(form: FormScreen, values: dict) -> None:
    for name, value in values.items():
        widget = form.query_one(f"#f-{name}")
        if isinstance(widget, (ChoiceList, Input, TickBox, UnitPicker)):
            widget.value = value
        else:  # pragma: no cover - a new field kind
            raise AssertionError(f"no way to fill {widget!r}")


def _no_text(text, state):
    raise AssertionError(f"a form handed the core command text: {text!r}")


FORMS = Path(__file__).resolve().parents[2] / "tui" / "forms"


def test_no_form_writes_a_command_line():
    """The forms build ``Command`` values: no f-string or join there starts with a verb."""
    verbs = "|".join(re.escape(v) for v in VERBS)
    line = re.compile(rf"""f["'](?:{verbs})\b|["'] ["']\.join""")
    for path in FORMS.glob("*.py"):
        found = line.findall(path.read_text(encoding="utf-8"))
        assert not found, f"{path.name} writes command text: {found}"


async def _drive_the_form(app, pilot, name: str, game) -> None:
    """``f``, the form's letter and the case's keys, then ctrl+s: the entry is recorded
    and says so, or the core's refusal is shown with its rule and nothing is written."""
    _setup, keys, expect = CASES[name]
    before = len(game.records)
    key = next(spec.key for spec in all_specs() if spec.name == name)
    await pilot.press("f")
    assert app.screen.__class__.__name__ == "FormMenu"
    await press(pilot, [key, *keys])
    form = next(s for s in app.screen_stack if isinstance(s, FormScreen))
    assert form.spec.name == name
    verdict = str(form.query_one("#verdict").render())  # as it was when recorded
    await pilot.press("ctrl+s")
    await pilot.pause()
    if app.screen is form:
        verdict = str(form.query_one("#verdict").render())
    if isinstance(expect, str):
        # refused: the form stays open, the rule is shown, nothing is written
        assert app.screen is form
        assert f"✗ refused: {expect}" in verdict, verdict
        assert len(game.records) == before
        await pilot.press("escape")
        assert not isinstance(app.screen, FormScreen)
    else:
        assert not isinstance(app.screen, FormScreen), (app.screen, verdict)
        assert len(game.records) > before
        assert expect(game.state)
        assert status_text(app)  # the outcome is said on the status line


@pytest.mark.parametrize("run", RUNS, ids=run_id)
@sync
async def test_keys_alone_drive_every_form(tmp_path, monkeypatch, run):
    """One engine: enter picks and moves on, a letter picks within a list, space ticks,
    ctrl+s records (or the core's refusal is shown with its rule and nothing is written).

    Every case has its own game, set up beforehand; one app shows each case of the run in
    turn (the app handed the next game as a window following another's log is), so the
    app starts once a run, not once a form. A failure names its case."""
    from stockade.tui.screens.main import MainScreen
    from stockade.tui.widgets.status_line import StatusLine

    games = {}
    for name in run:
        setup, _keys, _expect = CASES[name]
        (tmp_path / name).mkdir()
        sides = [("German", "German", 3), ("American", "American", 4)]
        games[name] = game = new_game(tmp_path / name, "Forms", sides)
        for line in setup:
            execute(game, line)
    # From here on only Commands reach the core: the text parser must not be called.
    monkeypatch.setattr(command_parser, "parse", _no_text)
    driven: list[str] = []
    app = StockadeApp(games[run[0]], remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for name, game in games.items():
            assert isinstance(app.screen, MainScreen), (name, app.screen)
            if app.game is not game:
                app.game = game
                app.game_changed()
            app.screen.query_one(StatusLine).say("")  # the outcome must be this case's
            await pilot.pause()
            try:
                await _drive_the_form(app, pilot, name, game)
            except AssertionError as failed:
                raise AssertionError(f"the {name!r} form: {failed}") from failed
            driven.append(name)
    for game in games.values():
        game.close()
    assert driven == run


@sync
async def test_surrender_form_asks_only_the_questions_that_apply(tmp_path):
    game = new_game(tmp_path, "Forms", [("German", "German", 3), ("American", "American", 4)])
    for line in BASE + ["phase RtPh 1 American"]:
        execute(game, line)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("s")
        form = await past_the_picker(pilot)
        await fill(form, {"units": ["g1", "g2", "g3"]})  # the whole broken stack
        await pilot.pause()
        captor = form.query_one("#f-to", UnitPicker)
        offered = {c.handle for c in captor.choices}
        assert offered == {"a1", "a2"}  # no German captor is offered
        assert {c.handle for c in captor.legal} == {"a1", "a2"}, captor.choices
        assert captor.value == ""  # two could: the player picks
        await fill(form, {"to": "a1"})
        await pilot.pause()
        verdict = str(form.query_one("#verdict").render())
        assert "answer the questions" in verdict
        assert "accepts" not in verdict  # no verdict on an entry before the answers
        assert form.query_one("#f-free_rout").display
        adjacent = form.query_one("#f-adjacent", ChoiceList)
        captor.focus()
        await pilot.press("enter")  # a picked unit field: enter moves on, no list again
        await pilot.pause()
        assert app.screen is form and app.focused is adjacent
        await pilot.press("y")  # a letter picks within the list and stays there
        await pilot.pause()
        assert (app.focused, adjacent.value) == (adjacent, "yes")
        await pilot.press("enter")  # enter confirms and moves on
        await pilot.pause()
        assert app.focused is form.query_one("#f-free_rout")
        await fill(form, {"reason": "disrupted"})
        await pilot.pause()
        assert not form.query_one("#f-free_rout").display  # not asked of a Disrupted unit
        assert form.query_one("#f-adjacent").display
    game.close()


def _palette_offers(app, title: str) -> bool:
    """The command palette's search has finished and highlights ``title`` (the palette
    searches in the background: enter before it is done picks nothing, or another)."""
    found = app.screen.query(CommandList)
    if not found:
        return False
    option = found.first().highlighted_option
    return option is not None and str(option.prompt).startswith(title)


@sync
async def test_palette_lists_every_form_and_switches_theme(tmp_path):
    game = new_game(tmp_path, "Palette", [("German", "German", 3), ("American", "American", 4)])
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        from stockade.tui.palette import StockadeCommands

        titles = [title for title, _cb, _help in StockadeCommands(app.screen)._commands()]
        for spec in all_specs():
            assert f"Form: {spec.title}" in titles
        await pilot.press("ctrl+p")
        app.screen.query_one(Input).value = "Form: Escort off"
        await until(pilot, lambda: _palette_offers(app, "Form: Escort off"), "the escort form")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, FormScreen) and app.screen.spec.name == "escort"
        await pilot.press("escape", "ctrl+p")
        app.screen.query_one(Input).value = "Theme: stockade-light"
        await until(pilot, lambda: _palette_offers(app, "Theme: stockade-light"), "the theme")
        await pilot.press("enter")
        await pilot.pause()
        assert app.theme == "stockade-light"
        await app.workers.wait_for_complete()
    assert 'theme = "stockade-light"' in (tmp_path / "config" / "config.toml").read_text()
    game.close()


@sync
async def test_key_overrides_reach_replay_and_form_keys(tmp_path):
    config = tmp_path / "config"
    config.mkdir()
    (config / "config.toml").write_text(
        '[keys]\n"stockade.replay_undo_to" = "ctrl+u"\n'
        '"stockade.form_record" = "ctrl+r"\n'
        '"stockade.add_unit" = "plus"\n'
    )
    game = new_game(tmp_path, "Keys", [("German", "German", 3), ("American", "American", 4)])
    for line in BASE:
        execute(game, line)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not app._notifications  # every id was known
        await pilot.press("plus")
        form = await past_the_picker(pilot)
        assert isinstance(form, FormScreen) and form.spec.name == "add"
        await fill(form, {"side": "American", "counters": "8-0", "at": "Q5"})
        await pilot.pause()
        await pilot.press("ctrl+s")  # no longer the record key
        assert app.screen is form
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert "a3" in game.state.units
        await pilot.press("h")
        replay = app.screen
        replay.query_one("HistoryView").select_seq(2)
        await pilot.pause()
        await pilot.press("U")  # the default key is gone
        assert app.screen is replay
        await pilot.press("ctrl+u")
        assert app.screen.__class__.__name__ == "ConfirmScreen"
        await pilot.press("y")
        await pilot.pause()
        assert set(game.state.units) == {"g1"}
        assert "undid 5 entries" in status_text(app)
    game.close()


@sync
async def test_roster_is_one_key_away_and_filters_by_typing(tmp_path):
    game = new_game(tmp_path, "Roster", [("German", "German", 3), ("American", "American", 4)])
    for line in BASE + TAKEN:
        execute(game, line)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("w")
        await pilot.pause()
        from stockade.tui.widgets.roster import Roster

        roster = app.screen.query_one(Roster)
        assert [i.row.handle for i in roster._shown] == ["g1", "g2", "g3", "a1", "a2"]
        await pilot.press(*"prisoner", "space", *"g2")  # status word, then a handle
        await pilot.pause()
        assert [i.row.handle for i in roster._shown] == ["g2"]
        await pilot.press(*["backspace"] * 3)
        await pilot.pause()
        assert [i.row.handle for i in roster._shown] == ["g1", "g2", "g3"]
        roster_screen = app.screen
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is not roster_screen
    game.close()


@sync
async def test_a_tick_box_shows_a_tick_when_ticked_not_colour_alone(tmp_path):
    from textual.app import App, ComposeResult

    from stockade.tui.forms.tick_box import NO_TICK, TICK, TickBox

    class OneBox(App):
        def compose(self) -> ComposeResult:
            yield TickBox("broken")

    app = OneBox()
    async with app.run_test(size=(40, 5)) as pilot:
        box = app.query_one(TickBox)
        assert box.BUTTON_INNER == NO_TICK
        box.value = True
        await pilot.pause()
        assert box.BUTTON_INNER == TICK and TICK in str(box.render())
        box.value = False
        await pilot.pause()
        assert TICK not in str(box.render())
