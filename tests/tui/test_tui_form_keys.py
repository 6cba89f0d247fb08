"""A form as a fast typist meets it: a key typed before a list is drawn never picks
from it, and the focused field is marked plainly (not by a shade alone)."""

from __future__ import annotations

from textual import events

from stockade.core.commands import run_script
from stockade.tui.app import StockadeApp
from stockade.tui.forms.pick_screen import PickScreen
from stockade.tui.forms.surrender import SurrenderForm
from tests.tui.support import new_game, sync, until

SETUP = [
    "add Russian 4-4-7 4-4-7 at K5",
    "add German 4-6-7 at K6 broken",
    "phase RtPh",
]


@sync
async def test_an_enter_typed_before_the_captor_list_is_drawn_picks_no_captor(tmp_path):
    game = new_game(tmp_path, "Keys", [("Russian", "Russian", 3), ("German", "German", 3)])
    run_script(game, SETUP)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.screen.action_form("surrender")
        await until(pilot, lambda: isinstance(app.screen, PickScreen), "the units list")
        await pilot.pause()
        form = next(s for s in app.screen_stack if isinstance(s, SurrenderForm))
        # Enters typed quickly: the first takes g1 from the units list; the others were
        # meant for the form, typed before the captor list (which opens by itself) was
        # drawn. One is read with the first, one reaches the app once the list is up.
        late = events.Key("enter", "\r")
        app.post_message(events.Key("enter", "\r"))
        app.post_message(events.Key("enter", "\r"))
        await until(
            pilot,
            lambda: isinstance(app.screen, PickScreen) and form.query_one("#f-units").value,
            "the captor list",
        )
        await pilot.pause()
        await pilot.pause()
        assert form in app.screen_stack, "the second enter closed the form"
        app.post_message(late)
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, PickScreen), "the early enter closed the captor list"
        assert form.query_one("#f-to").value == ""  # no captor the player did not choose
        await pilot.press("enter")  # typed once the list is there: it picks
        await until(pilot, lambda: form.query_one("#f-to").value == "r1", "the captor picked")
        # The focused field is marked by more than a shade: its label is pointed at.
        focused = app.focused
        assert focused is not None and focused.id is not None
        label = str(form.query_one(f"#l-{focused.id[2:]}").render())
        assert label.startswith("▶"), label
        others = [str(w.render()) for w in form.query("Label") if w.id != f"l-{focused.id[2:]}"]
        assert not any(text.startswith("▶") for text in others), others
    game.close()


@sync
async def test_a_list_field_shown_late_takes_no_key_typed_before_it_was_drawn():
    from textual.app import App

    from stockade.tui.forms.choice_list import ChoiceList

    class OneList(App[None]):
        def compose(self):
            yield ChoiceList([("yes", "yes"), ("no", "no")], id="answer")

    app = OneList()
    early = events.Key("n", "n")  # typed before the list was drawn
    async with app.run_test(size=(40, 6)) as pilot:
        await pilot.pause()
        choice = app.query_one(ChoiceList)
        choice.focus()
        await pilot.pause()
        app.post_message(early)
        await pilot.pause()
        assert choice.value == ""  # not "no": the player had not seen the list
        await pilot.press("n")
        assert choice.value == "no"
