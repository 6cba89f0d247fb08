"""The app paints its frame before the game is read, and reads it in a thread: what the
player types meanwhile is kept, shown, and entered in order once the game is up, once
each; a game that cannot be read is said on the frame, with what was typed, and nothing
is written."""

from __future__ import annotations

import json
import subprocess
import sys
import threading

import pytest
from textual.widgets import Static

import stockade.tui.app as app_module
from stockade.core.book.game import Game
from stockade.tui.app import StockadeApp
from stockade.tui.reading import read_game
from stockade.tui.screens.opening import OpeningScreen
from tests.tui.support import sample_copy, sync, until


@pytest.fixture
def gate(monkeypatch):
    """The read waits for the test to open the gate; which thread read is recorded."""
    opened = threading.Event()
    readers: list[threading.Thread] = []

    def gated(path):
        readers.append(threading.current_thread())
        assert opened.wait(60), "the test never let the read finish"
        return read_game(path)

    monkeypatch.setattr(app_module, "read_game", gated)
    return opened, readers


def frame_text(app, part: str) -> str:
    return str(app.screen.query_one(f"#opening-{part}", Static).render())


def entries(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@sync
async def test_a_command_typed_before_the_game_is_read_is_entered_once(tmp_path, gate):
    opened, readers = gate
    path = sample_copy(tmp_path)
    before = entries(path)
    app = StockadeApp(path, remember=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: bool(readers), "the read started")
        assert isinstance(app.screen, OpeningScreen)
        assert "reading demo.jsonl" in frame_text(app, "header")
        await pilot.press("colon", *"next", "enter")
        assert frame_text(app, "bar") == "typed: :next⏎"
        assert entries(path) == before  # kept, not entered: there is no game yet
        opened.set()
        await until(pilot, lambda: app.type_ahead is None, "the typed keys handed on")
        await pilot.pause()
        assert app.game.state.phase != "CCPh"  # the demo stops in the CCPh
    app.game.close()
    assert readers[0] is not threading.main_thread()  # never on the event loop
    added = entries(path)[len(before) :]
    assert [entry["kind"] for entry in added] == ["phase"], added  # once


@sync
async def test_board_keys_and_a_command_typed_ahead_keep_their_order(tmp_path, gate):
    """'n' (next phase) and then ':undo': the phase moves, then the undo takes it back;
    handed on at once, the undo could run first and take back the demo's last entry."""
    opened, readers = gate
    path = sample_copy(tmp_path)
    before = entries(path)
    app = StockadeApp(path, remember=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: bool(readers), "the read started")
        await pilot.press("n", "colon", *"undo", "enter")
        opened.set()
        await until(pilot, lambda: app.type_ahead is None, "the typed keys handed on")
        await pilot.pause()
    app.game.close()
    added = entries(path)[len(before) :]
    assert [entry["kind"] for entry in added] == ["phase", "undo"], added
    assert added[1]["target"] == added[0]["grp"], added


@sync
async def test_a_file_that_cannot_be_read_is_said_and_what_was_typed_kept(tmp_path):
    path = tmp_path / "broken.jsonl"
    path.write_bytes(b'{"kind": "game", "v": 1\nnot json at all\n')
    before = path.read_bytes()
    app = StockadeApp(path, remember=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: bool(app.problem), "the reason it cannot be read")
        await pilot.press("colon", *"next", "enter")
        await pilot.pause()
        assert isinstance(app.screen, OpeningScreen)
        assert frame_text(app, "header").startswith(f"Stockade · cannot open {path}")
        assert "Nothing was written" in frame_text(app, "history")
        assert frame_text(app, "bar") == "not entered (no game): :next⏎"
    assert app.typed_ahead() == ":next⏎"
    assert not app.game_is_open
    assert path.read_bytes() == before


def test_the_frame_paints_before_the_core_is_imported(tmp_path):
    """Counted in a fresh interpreter: when the frame has painted (the app starts the
    read), none of the core's game modules is loaded."""
    game = sample_copy(tmp_path)
    child = f"""
import asyncio, json, sys
from pathlib import Path
from stockade.tui.app import StockadeApp

async def main():
    app = StockadeApp(Path({str(game)!r}), remember=False)

    def painted():  # what the frame calls once painted, to start the read
        app.loaded = sorted(m for m in sys.modules if m.startswith("stockade.core"))
        app.exit()

    app.start_reading = painted
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
    print(json.dumps(app.loaded))

asyncio.run(main())
"""
    out = subprocess.run(
        [sys.executable, "-c", child], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    loaded = set(json.loads(out.stdout))
    for module in ("stockade.core.book.game", "stockade.core.rules", "stockade.core.log.store"):
        assert module not in loaded, sorted(loaded)


@sync
async def test_another_game_is_read_in_a_thread_and_the_keys_typed_meanwhile_reach_it(
    tmp_path, gate
):
    """Opening another game (the open-game screen's choice) reads it as the first one
    was: the frame, the read in a thread, the keys kept for the new game's screen,
    never entered in the game open meanwhile."""
    opened, readers = gate
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first_path, other = sample_copy(tmp_path / "a"), sample_copy(tmp_path / "b")
    before_first, before_other = entries(first_path), entries(other)
    app = StockadeApp(Game.open(first_path), remember=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.call_later(app.switch_game, other)  # as the open-game screen hands it on
        await until(pilot, lambda: bool(readers), "the read started")
        assert isinstance(app.screen, OpeningScreen)
        await pilot.press("n")
        assert frame_text(app, "bar") == "typed: n"
        opened.set()
        await until(
            pilot,
            lambda: app.type_ahead is None and app.game.path == other,
            "the other game shown and the typed key handed on",
        )
        await pilot.pause()
    app.game.close()
    assert readers[0] is not threading.main_thread()  # never on the event loop
    assert [entry["kind"] for entry in entries(other)[len(before_other) :]] == ["phase"]
    assert entries(first_path) == before_first  # the key never reached the first game


@sync
async def test_a_game_that_cannot_be_read_leaves_the_open_one_and_says_what_was_typed(
    tmp_path, gate
):
    opened, readers = gate
    path = sample_copy(tmp_path)
    before = entries(path)
    junk = tmp_path / "junk.jsonl"
    junk.write_text("not a log\n")
    game = Game.open(path)
    app = StockadeApp(game, remember=False)
    said: list[str] = []
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        real_notify = app.notify
        app.notify = lambda message, **kw: (said.append(message), real_notify(message, **kw))
        app.call_later(app.switch_game, junk)
        await until(pilot, lambda: bool(readers), "the read started")
        await pilot.press("n")
        opened.set()
        await until(pilot, lambda: app.type_ahead is None, "the read ended")
        await pilot.pause()
        assert app.game is game and type(app.screen).__name__ == "MainScreen"
        assert any("junk.jsonl" in s and "typed, not entered: n" in s for s in said), said
    game.close()
    assert entries(path) == before
