"""The one binding registry (tui/bindings.py): every screen's keys come from it, the
keymap check accepts exactly its ids, and a remapped key shows in the footer, the help,
the hints and the palette."""

from __future__ import annotations

from textual.widgets._footer import FooterKey

from stockade.tui.app import StockadeApp
from stockade.tui.bindings import BY_ID, KEYS, display, hint, ids
from tests.tui.support import new_game, status_text, sync


def _all_binding_classes():
    from stockade.tui.camp.modals import EndScreen
    from stockade.tui.camp.modals import HelpScreen as CampHelp
    from stockade.tui.camp.screen import CampScreen
    from stockade.tui.forms.base import FormScreen
    from stockade.tui.forms.menu import FormMenu
    from stockade.tui.forms.pick_screen import PickScreen
    from stockade.tui.forms.picker import UnitPicker
    from stockade.tui.forms.tick_box import TickBox
    from stockade.tui.screens.confirm import ConfirmScreen
    from stockade.tui.screens.games import GameModal, NewGameScreen, OpenGameScreen
    from stockade.tui.screens.help import HelpScreen
    from stockade.tui.screens.main import MainScreen
    from stockade.tui.screens.replay import ReplayScreen
    from stockade.tui.screens.roster import RosterScreen
    from stockade.tui.screens.tally import TallyScreen
    from stockade.tui.screens.text_screen import TextScreen
    from stockade.tui.widgets.command_bar import CommandInput
    from stockade.tui.widgets.history_view import HistoryView
    from stockade.tui.widgets.side_panel import SidePanelView

    return [
        StockadeApp, MainScreen, ReplayScreen, TallyScreen, HelpScreen, ConfirmScreen,
        FormScreen, FormMenu, GameModal, NewGameScreen, OpenGameScreen, CommandInput,
        HistoryView, SidePanelView, CampScreen, CampHelp, EndScreen, TextScreen,
        RosterScreen, PickScreen, UnitPicker, TickBox,
    ]  # fmt: skip


def test_every_bound_id_is_in_the_registry_and_every_registered_key_is_bound():
    bound = set()
    for cls in _all_binding_classes():
        for b in cls.BINDINGS:
            assert b.id in BY_ID, f"{cls.__name__} binds {b.id}, which the registry lacks"
            bound.add(b.id)
    assert bound == ids()  # nothing registered that no screen binds
    assert len({k.id for k in KEYS}) == len(KEYS)


def test_the_keymap_check_accepts_what_the_help_lists():
    from stockade.tui.config import check_keymap

    good, problems = check_keymap({"stockade.confirm_yes": "Y", "stockade.nope": "x"}, ids())
    assert good == {"stockade.confirm_yes": "Y"}
    assert len(problems) == 1 and "stockade.nope" in problems[0]


def test_keys_are_named_as_the_footer_names_them():
    assert display("colon") == ":"
    assert display("question_mark") == "?"
    assert display("ctrl+n") == "^n"

    class Remapped:
        keys_in_force = {"stockade.next_phase": "space"}

    assert hint(Remapped(), "stockade.next_phase") == "space: next phase"
    assert hint(object(), ("stockade.forms", "forms")) == "f: forms"


@sync
async def test_a_remapped_key_shows_in_footer_help_hint_and_palette_and_works(tmp_path):
    config = tmp_path / "config"
    config.mkdir()
    (config / "config.toml").write_text(
        '[keys]\n"stockade.next_phase" = "space"\n"stockade.confirm_yes" = "Y"\n'
    )
    game = new_game(tmp_path, "Keys", [("German", "German", 3), ("American", "American", 4)])
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app._problems == []  # confirm_yes is remappable, as the help says
        footer = [(k.key_display, k.description) for k in app.screen.query(FooterKey)]
        assert ("space", "Next") in footer and ("n", "Next") not in footer
        assert footer[0] == ("space", "Next")  # a remapped key keeps its place
        assert "space: next phase" in status_text(app)
        assert "n: next phase" not in status_text(app)
        # the footer is not cut at 80 columns: every key lies inside the screen
        for key in app.screen.query(FooterKey):
            assert key.region.right <= 80, key.key_display
        await pilot.press("n")
        await pilot.pause()
        assert game.state.phase == "RPh"  # n no longer moves the clock
        await pilot.press("space")
        await pilot.pause()
        assert game.state.phase == "PFPh"
        await pilot.press("space", "space", "space", "space")
        await pilot.pause()
        assert game.state.phase == "RtPh"
        assert "space: next phase" in status_text(app)  # the phase hint names it

        from stockade.tui.screens.help import keys_tables

        rows = []
        for table in keys_tables(app):
            keys, _does, bids = (list(c.cells) for c in table.columns)
            rows += [(str(k), b) for k, b in zip(keys, bids, strict=True)]
        assert ("space", "stockade.next_phase") in rows
        assert ("Y", "stockade.confirm_yes") in rows

        from stockade.tui.palette import StockadeCommands

        provider = StockadeCommands(app.screen)
        helps = {title: text for title, _cb, text in provider._commands()}
        assert helps["Next phase"] == "key space"
        assert "New game: scenario, sides, nationalities, ELRs" in helps
    game.close()
