"""The new game form's sides and ELRs show their defaults as placeholders: what the
player types replaces them (never appended to "American"), and a field left empty
takes its default."""

from __future__ import annotations

from stockade.tui.app import StockadeApp
from tests.tui.support import new_game, sync

SIDES = [("American", "American", 4), ("German", "German", 3)]


@sync
async def test_typing_in_a_side_field_replaces_its_default(tmp_path):
    game = new_game(tmp_path, "Old", SIDES)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+n")
        await pilot.pause()
        await pilot.press(*"Hill 621", "enter")  # to side 1's name
        name = app.screen.query_one("#new-side1-name")
        assert app.focused is name
        name.cursor_position = 0  # wherever the cursor is, there is no text to add to
        await pilot.press(*"Finns", "enter", *"Finnish", "enter", "5")
        assert name.value == "Finns"
        assert app.screen.query_one("#new-side1-nationality").value == "Finnish"
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.pause()
        made = app.game.state
        assert made.scenario == "Hill 621"
        assert [(s, v.nationality, v.elr) for s, v in made.sides.items()] == [
            ("Finns", "Finnish", 5),
            ("German", "German", 3),
        ]
    app.game.close()


@sync
async def test_keys_typed_right_after_enter_or_tab_go_to_the_next_field(tmp_path):
    from textual import events

    game = new_game(tmp_path, "Old", SIDES)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+n")
        await pilot.pause()
        # typed faster than the fields handle each key: all queued before any is read
        # (tab then "Russian" once gave "RussianRussian3" in side 1's name)
        keys = ["H", "i", "enter", "F", "i", "tab", "R", "u"]
        for key in keys:
            app.post_message(events.Key(key, {"enter": "\r", "tab": "\t"}.get(key, key)))
        await pilot.pause()
        await pilot.pause()
        assert app.screen.query_one("#new-scenario").value == "Hi"
        assert app.screen.query_one("#new-side1-name").value == "Fi"
        assert app.screen.query_one("#new-side1-nationality").value == "Ru"
    game.close()
