"""A whole short game from an empty log with keys, the roster and the pickers only (no
handle is ever typed): the same keystrokes as the recorded tmux playthrough
(docs/playthrough/playthrough.py), checked against the book and the final tally."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from stockade.core.book.tally import tally
from stockade.core.model.tracked_unit import ELIMINATED
from stockade.tui.app import StockadeApp
from tests.tui.support import new_game, sync

SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "playthrough" / "playthrough.py"
TMUX_TO_PILOT = {
    "Enter": "enter",
    "Tab": "tab",
    "Space": "space",
    "Down": "down",
    "Escape": "escape",
    "C-s": "ctrl+s",
    "*": "asterisk",
}


def steps():
    spec = importlib.util.spec_from_file_location("playthrough", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.STEPS


@sync
async def test_a_short_game_with_keys_roster_and_pickers_only(tmp_path):
    game = new_game(tmp_path, "Hill 621", [("American", "American", 4), ("German", "German", 3)])
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for label, _action, keys in steps():
            for key in keys:
                if key.startswith("="):  # a counter, Location, odds, DR: pasted
                    await pilot.pause()
                    assert hasattr(app.focused, "insert_text_at_cursor"), (label, app.focused)
                    app.focused.insert_text_at_cursor(key[1:])
                elif key.startswith("~"):  # a roster filter: typed
                    await pilot.press(*key[1:])
                else:
                    await pilot.press(TMUX_TO_PILOT.get(key, key))
            await app.workers.wait_for_complete()
            await pilot.pause()
        units = game.state.units
        assert units["g1"].guard == "a1" and units["g3"].guard == "a1"  # surrender
        assert units["g2"].guard == "a2"  # transfer
        assert units["a4"].status == ELIMINATED  # CC capture, then its prisoner escaped
        assert units["g4"].armed and units["g4"].counter == "4-3-6"  # rearmed from a4
        assert units["a1"].status != ELIMINATED  # the takeover was undone at the end
        assert (tmp_path / "game.tally.md").exists()  # exported
    sides = tally(game.state).sides
    assert sides["German"].cvp == 2  # a4, the Guard killed by its escaping prisoner
    assert sides["American"].cvp == 0
    assert sides["American"].cvp_if_ended == 8  # g1, g2, g3 still guarded: double
    game.close()
