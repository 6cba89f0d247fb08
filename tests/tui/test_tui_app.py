"""Pilot tests of the main screen: every key, the command bar, undo/redo, sizes."""

from __future__ import annotations

from rich.console import Console

from stockade.core.book.game import Game
from stockade.core.commands import run_script
from stockade.tui.app import StockadeApp
from stockade.tui.widgets.history_view import HistoryView
from tests.tui.support import sample_copy, status_text, sync, type_command


@sync
async def test_phase_keys_move_the_clock(tmp_path, small_game):
    game = small_game
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert game.state.phase == "RPh"
        await pilot.press("n", "n")
        assert game.state.phase == "MPh"
        await pilot.press("N")
        assert game.state.phase == "PFPh"
        turn_attacker = game.state.attacker
        await pilot.press("t")
        assert game.state.phase == "RPh" and game.state.attacker != turn_attacker
        assert "PFPh" in status_text(app) or "RPh" in status_text(app)
    game.close()


@sync
async def test_undo_redo_keys_mark_the_history_without_rebuilding_it(tmp_path, small_game):
    game = small_game
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        # Nothing to undo yet: the key is there but disabled (greyed out, not hidden).
        assert app.screen.check_action("undo", ()) is None
        await type_command(pilot, "add German 4-6-7 as g1 at Q4")
        await pilot.press("escape")
        history = app.screen.query_one(HistoryView)
        count = history.line_count
        assert app.screen.check_action("undo", ()) is True
        await pilot.press("u")
        assert "g1" not in game.state.units
        # marked, not removed; the undo record has its own line ("3 · undo of entry 2")
        assert history.line_count == count + 1
        assert history.line(3).text == "undo of entry 2"
        assert history.line(2).status == "undone"
        assert "undone" in str(history.prompt(2))
        assert history.rebuilds == 1
        await pilot.press("ctrl+y")
        assert "g1" in game.state.units and history.line(2).status == "ok"
        await pilot.press("ctrl+z")
        assert "g1" not in game.state.units
        await pilot.press("r")
        assert "g1" in game.state.units
    game.close()


@sync
async def test_command_bar_shows_the_refusal_with_its_rule(tmp_path, small_game):
    game = small_game
    # the units entered through the core: the bar's refusal of what follows is the test
    run_script(game, ["add German 4-6-7 as g1 at Q4 broken", "add American 8-0 as a1 at Q5"])
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await type_command(pilot, "transfer g9 to a1")
        text = status_text(app)
        assert "g9" in text  # an input mistake: the sentence, no rule tag
        assert app.screen.query_one("StatusLine").kind == "refusal"
        assert "refused" in str(app.screen.query_one("StatusLine").render())
        n = len(game.records)
        await type_command(pilot, "massacre g1 by a1")
        assert status_text(app).startswith("A20.4")  # Americans may not Massacre
        assert "g1" in game.state.units and game.state.units["g1"].status == "active"
        assert game.state.phase == "RPh" and len(game.records) == n  # nothing recorded
    game.close()


@sync
async def test_command_bar_completion_from_the_core(tmp_path, small_game):
    game = small_game
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("colon", "s", "u", "r")
        await pilot.pause()
        await pilot.press("tab")
        assert app.focused.value.startswith("surrender")
        await pilot.press("escape")
        assert isinstance(app.focused, HistoryView)
    game.close()


@sync
async def test_help_palette_tally_history_and_quit_keys(tmp_path):
    path = sample_copy(tmp_path)
    game = Game.open(path)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        assert app.screen.__class__.__name__ == "HelpScreen"
        console = Console(width=76, record=True, color_system=None)
        for static in app.screen.query("Static"):
            console.print(static.content)
        shown = console.export_text()
        assert "Stockade's rulings where the rules are silent" in shown  # where players look
        await pilot.press("escape", "f1")
        assert app.screen.__class__.__name__ == "HelpScreen"
        await pilot.press("escape", "v")
        assert app.screen.__class__.__name__ == "TallyScreen"
        await pilot.press("escape", "h")
        assert app.screen.__class__.__name__ == "ReplayScreen"
        await pilot.press("escape", "ctrl+p")
        assert app.screen.__class__.__name__ == "CommandPalette"
        await pilot.press(*"tally", "enter")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "TallyScreen"
        await pilot.press("escape", "q")
        await pilot.pause()
    assert app.return_value == 0
    game.close()


@sync
async def test_too_small_terminal_says_so(tmp_path, small_game):
    game = small_game
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(70, 20)) as pilot:
        await pilot.pause()
        assert app.screen.query_one("#too-small").display
        assert "need 80x24" in str(app.screen.query_one("#too-small").render())
        shown = [w for w in app.screen.children if w.display and w.id != "too-small"]
        assert shown == []  # nothing of the board, the bars or the footer
    async with StockadeApp(game, remember=False).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not any(notice.display for notice in pilot.app.screen.query("#too-small"))
        assert pilot.app.screen.query_one("#history").display
        await pilot.resize_terminal(70, 20)
        await pilot.pause()
        assert pilot.app.screen.query_one("#too-small").display
        shown = [w for w in pilot.app.screen.children if w.display and w.id != "too-small"]
        assert shown == []
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not pilot.app.screen.query_one("#too-small").display
        assert pilot.app.screen.query_one("#history").display
    game.close()


@sync
async def test_keymap_from_config_and_bad_theme_fall_back(tmp_path, small_game):
    config = tmp_path / "config"
    config.mkdir()
    (config / "config.toml").write_text('theme = "nope"\n[keys]\n"stockade.next_phase" = "space"\n')
    game = small_game
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme == "stockade-dark"
        assert any("no theme 'nope'" in n.message for n in app._notifications)
        await pilot.press("space")
        assert game.state.phase == "PFPh"
    game.close()


@sync
async def test_theme_switch_is_remembered(tmp_path, small_game):
    game = small_game
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.theme = "stockade-okabe-ito"
        await pilot.pause()
        await app.workers.wait_for_complete()
    text = (tmp_path / "config" / "config.toml").read_text()
    assert 'theme = "stockade-okabe-ito"' in text
    game.close()


@sync
async def test_units_sharing_an_rtph_hint_fit_the_status_line_at_80x24(tmp_path, small_game):
    game = small_game
    # the units and the clock to the AFPh through the core; the key moves it to the RtPh
    run_script(
        game,
        ["add American 6-6-6 as a1 at Q4"]
        + [f"add German 4-6-7 as {handle} at Q5 broken" for handle in ("g4", "g5", "g6")]
        + ["next"] * 4,
    )
    assert game.state.phase == "AFPh"
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        while game.state.phase != "RtPh":
            await pilot.press("n")
        await pilot.pause()
        text = status_text(app)
        assert "g4, g5, g6 (German) surrender if ADJACENT" in text
        assert text.count("if ADJACENT") == 1  # one hint for the three, not three
        status = app.screen.query_one("StatusLine")
        assert status.size.height <= 3
        rendered = "".join(strip.text for strip in status.render_lines(status.region.reset_offset))
        assert "Low Crawl (A20.21)" in rendered  # not cut: the hint's end is on screen
    game.close()


@sync
async def test_the_end_reply_says_prisoners_count_double_once(tmp_path, small_game):
    game = small_game
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(160, 40)) as pilot:
        await pilot.pause()
        await type_command(pilot, "end")
        text = status_text(app)
        assert text.count("count double") == 1, text
    game.close()
