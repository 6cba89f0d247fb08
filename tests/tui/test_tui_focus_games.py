"""Focus comes back to the board after a command or a form; games are made and opened
inside the app (new game form, open recent games, back to the demo)."""

from __future__ import annotations

import os
from pathlib import Path

from textual import events

from stockade.tui.app import StockadeApp
from stockade.tui.widgets.command_bar import CommandInput
from stockade.tui.widgets.history_view import HistoryView
from tests.tui.support import new_game, sample_copy, status_text, sync, type_command


@sync
async def test_the_bar_stays_open_after_a_command_until_escape(tmp_path, small_game):
    game = small_game
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await type_command(pilot, "add German 4-6-7 as g1 at Q4")
        bar = app.screen.query_one(CommandInput)
        assert app.focused is bar and bar.value == ""  # open for the next command
        await pilot.press("n")  # typed ahead: text, never the board's key
        assert bar.value == "n" and game.state.phase == "RPh"
        # the clock's ctrl+ key and undo work inside the bar, which stays open
        await pilot.press("ctrl+t")
        assert (game.state.attacker, game.state.phase) == ("American", "RPh")
        assert app.focused is bar and bar.value == "n"
        await pilot.press("ctrl+z")
        assert game.state.attacker == "German" and app.focused is bar
        await pilot.press("escape")  # esc leaves the bar; the keys are the board's
        assert isinstance(app.focused, HistoryView) and bar.value == ""
        await pilot.press("n")
        assert game.state.phase == "PFPh"
        await pilot.press("u")
        assert game.state.phase == "RPh"
        # the next ':' opens an empty bar (no "::")
        await pilot.press("colon")
        assert app.focused is bar and bar.value == ""
        await pilot.press("escape")
        # Tab cycles through the board; it never lands in the (closed) bar
        for _ in range(6):
            await pilot.press("tab")
            assert app.focused is not bar
        await pilot.press("j")  # a key, not a letter typed into the bar
        assert bar.value == ""
        # a refused command stays in the bar to be fixed
        await pilot.press("colon")
        bar.post_message(events.Paste("transfer g9 to a1"))  # the keys are not the point
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert app.focused is bar and bar.value == "transfer g9 to a1"
        assert "g9" in status_text(app)
        await pilot.press("escape")
        assert isinstance(app.focused, HistoryView) and bar.value == ""
    game.close()


@sync
async def test_focus_returns_after_mouse_wheel_and_after_a_form(tmp_path, small_game):
    game = small_game
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        from textual.events import MouseScrollDown

        # the wheel over the history and a panel (Pilot has no wheel of its own)
        await pilot._post_mouse_events([MouseScrollDown], "#history", (5, 1))
        await pilot._post_mouse_events([MouseScrollDown], "SidePanelView", (5, 3))
        await pilot.press("tab", "n")
        assert game.state.phase == "PFPh"
        assert app.screen.query_one(CommandInput).value == ""
        await pilot.press("f")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "FormMenu"
        await pilot.press("escape")
        await pilot.press("a")  # the add-unit form, then cancel
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.focused, HistoryView)
        await pilot.press("n")
        assert game.state.phase == "MPh"
    game.close()


@sync
async def test_new_game_inside_the_app(tmp_path, small_game):
    game = small_game
    app = StockadeApp(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "NewGameScreen"
        app.screen.query_one("#new-side2-elr").value = "9"
        await pilot.press(*"Hill 621")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "NewGameScreen"  # the core refused ELR 9
        verdict = str(app.screen.query_one("#games-verdict").render())
        assert "ELR" in verdict
        app.screen.query_one("#new-side2-elr").value = "4"
        app.screen.query_one("#new-side2-name").value = "Russians"
        app.screen.query_one("#new-side2-nationality").value = "Russian"
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.pause()
        assert app.screen.__class__.__name__ == "MainScreen"
        made = tmp_path / "data" / "hill-621.jsonl"
        assert app.game.path == made and made.is_file()
        assert app.game.state.scenario == "Hill 621"
        assert app.game.state.sides["Russians"].elr == 4
        assert set(app.game.state.sides) == {"American", "Russians"}
        await app.workers.wait_for_complete()  # remembered in a thread
        assert (tmp_path / "data" / "last_game").read_text().strip() == str(made.resolve())
        await pilot.press("n")  # the new game's board has the keys
        assert app.game.state.phase == "PFPh"
    app.game.close()


@sync
async def test_open_a_recent_game_newest_first_and_back_to_the_demo(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    older = sample_copy(data, "ex05_rtph_surrender")
    newer = sample_copy(data, "demo")
    os.utime(older, (1_000_000, 1_000_000))
    (data / "camp.jsonl").write_text("not a game\n")
    # made after the copies: the game open now is the newest
    game = new_game(tmp_path, "Keys", [("German", "German", 3), ("American", "American", 4)])
    app = StockadeApp(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+o")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        from textual.widgets import OptionList

        options = app.screen.query_one(OptionList)
        ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
        # newest first (the game open now, remembered at start, is the newest); the
        # camp's log is not a game
        assert ids == [str(game.path.resolve()), str(newer), str(older)]
        assert "(open now)" in str(options.get_option_at_index(0).prompt)
        demo = str(options.get_option_at_index(1).prompt)
        assert "Demo: the Orchard at Gravenhof" in demo and "Turn 1" in demo
        assert "CVP American 0, German 2" in demo
        await pilot.press("down", "enter")  # the cursor starts on the demo
        await pilot.pause()
        await pilot.pause()
        assert app.screen.__class__.__name__ == "MainScreen"
        assert Path(app.game.path) == older
        await app.workers.wait_for_complete()  # remembered in a thread
        assert (data / "last_game").read_text().strip() == str(older.resolve())
        # a typed path that is not there is refused, the screen stays
        await pilot.press("ctrl+o")
        await pilot.pause()
        app.screen.query_one("#open-path").value = str(tmp_path / "nope.jsonl")
        await pilot.press("tab")
        await pilot.press("enter")
        await pilot.pause()
        assert "no such game file" in str(app.screen.query_one("#games-verdict").render())
        await pilot.press("escape")
        await pilot.press("ctrl+d")  # back to the demo (made in the data dir)
        await pilot.pause()
        await pilot.pause()
        assert Path(app.game.path) == data / "demo.jsonl"
    app.game.close()


@sync
async def test_keys_typed_fast_land_where_they_belong(tmp_path, small_game):
    """Keys arriving in one burst (a fast typist, a pasted script through tmux): the
    text after ':' goes in the bar, and so do the keys after enter (the bar stays open
    for the next command): a typed-ahead command never changes the phase. After esc,
    the keys are the board's."""

    game = small_game
    app = StockadeApp(game, remember=False)

    def burst(*keys: str) -> None:  # as the terminal driver posts them, no waiting
        for key in keys:
            char = {"colon": ":", "enter": "\r", "space": " ", "escape": None}.get(key, key)
            app.post_message(events.Key(key, char))

    def typed(text: str) -> list[str]:
        return ["space" if ch == " " else ch for ch in text]

    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        burst("colon", *typed("add German 4-6-7 as g1 at Q4"), "enter")
        burst(*typed("add American 8-0 as a1 at Q5"), "enter", *typed("next"), "enter")
        burst(*typed("nnu"))
        for _ in range(5):
            await pilot.pause()
        assert {"g1", "a1"} <= set(game.state.units)
        assert game.state.units["g1"].location == "Q4"  # nothing typed after it
        assert game.state.phase == "PFPh"  # the typed 'next' only; n, n, u are text
        assert app.screen.query_one(CommandInput).value == "nnu"
        burst("escape", "n")
        for _ in range(3):
            await pilot.pause()
        assert game.state.phase == "MPh"  # after esc, n is the board's key
    game.close()


@sync
async def test_a_line_typed_in_one_burst_keeps_its_edits_its_enter_and_its_reply(
    tmp_path, small_game
):
    """ctrl+u, the line and enter in one burst (a paste through tmux, a fast typist):
    the editing keys act where they were typed, not after the keys that follow them,
    and the reply to the entry stays on the status line (no hint of the text typed
    before enter replaces it)."""

    game = small_game
    app = StockadeApp(game, remember=False)

    def burst(*keys: str) -> None:  # as the terminal driver posts them, no waiting
        names = {"enter": "\r", "space": " ", "ctrl+u": "\x15", "backspace": "\x7f"}
        for key in keys:
            app.post_message(events.Key(key, names.get(key, key)))

    def typed(text: str) -> list[str]:
        return ["space" if ch == " " else ch for ch in text]

    async def settle() -> None:
        for _ in range(6):
            await pilot.pause()

    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        bar = app.screen.query_one(CommandInput)
        burst("colon", *typed("rally zz1"), "enter")
        await settle()
        assert bar.value == "rally zz1" and "zz1" in status_text(app)  # refused, stays
        burst("ctrl+u", *typed("rally zz2"), "enter")
        await settle()
        assert bar.value == "rally zz2" and "zz2" in status_text(app)
        assert "zz1" not in status_text(app)  # ctrl+u emptied the bar before zz2
        burst("ctrl+u", *typed("nexx"), "backspace", "t", "enter")
        await settle()
        assert game.state.phase == "PFPh" and bar.value == ""  # 'next', recorded
    game.close()
