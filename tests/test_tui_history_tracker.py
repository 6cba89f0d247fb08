"""The history view follows the game incrementally: what it shows after any sequence of
entries, undos, redos, undo-to-here, strikes and unstrikes is exactly what recomputing
the whole history would show, and an undo never walks the whole history."""

from __future__ import annotations

import random

import pytest

from bench.generate import Driver
from bench.generate import new_game as campaign
from stockade.core.errors import Refusal
from stockade.core.game import Game
from stockade.tui.app import StockadeApp
from stockade.tui.screens.main import history_lines
from stockade.tui.widgets.history_view import HistoryTracker, HistoryView
from tests.test_tui_support import sample_copy, sync


@pytest.fixture(autouse=True)
def _dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("STOCKADE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("STOCKADE_DATA_DIR", str(tmp_path / "data"))


def _follow(tracker: HistoryTracker, shown: dict) -> None:
    for line in tracker.changed():
        shown[line.seq] = line


def _step(game: Game, driver: Driver, rng: random.Random) -> None:
    roll = rng.random()
    try:
        if roll < 0.08 and game.can_undo():
            game.undo()
        elif roll < 0.12 and game.can_redo():
            game.redo()
        elif roll < 0.15 and len(game.effective) > 2:
            seq = rng.choice(game.effective[1:]).seq
            game.strike(seq, "test")
            if rng.random() < 0.4:
                game.unstrike(seq)
        elif roll < 0.16 and len(game.effective) > 2:
            game.undo_to(rng.choice(game.effective[len(game.effective) // 2 :]).seq)
        elif roll < 0.17 and game.timeline.struck:
            game.unstrike(rng.choice(sorted(game.timeline.struck)))
        else:
            driver.step()
    except Refusal:
        pass


@pytest.mark.parametrize("seed", [1, 2])
def test_tracker_lines_equal_the_whole_history_after_every_change(seed):
    game = campaign()
    driver = Driver(game, seed=seed)
    rng = random.Random(seed)
    tracker = HistoryTracker(game)
    shown = {line.seq: line for line in tracker.lines()}
    kinds = set()
    for _ in range(260):
        _step(game, driver, rng)
        _follow(tracker, shown)
        assert [shown[seq] for seq in sorted(shown)] == history_lines(game)
        kinds |= {line.status for line in shown.values()}
    # the walk went through every kind of mark
    assert {"ok", "undone", "struck", "abandoned", "conflict"} <= kinds


@sync
async def test_undo_redo_and_new_entries_never_walk_the_whole_history(tmp_path, monkeypatch):
    game = Game.open(sample_copy(tmp_path))
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        history = app.screen.query_one(HistoryView)
        count = history.option_count

        def whole(*_a, **_k):
            raise AssertionError("the whole history was recomputed")

        monkeypatch.setattr(Game, "history", whole)
        monkeypatch.setattr("stockade.tui.screens.main.history_lines", whole)
        side = next(iter(game.state.sides))
        app.run_command(f"add {side} 4-6-7 as zz1 at Q4")
        await pilot.pause()
        assert history.option_count == count + 1
        rebuilds = history.rebuilds
        await pilot.press("u")
        assert "zz1" not in game.state.units
        assert history.option_count == count + 1
        assert history.line(history.selected_seq or 0) is not None
        assert history.rebuilds == rebuilds + 1  # the one undone line, marked in place
        await pilot.press("r")
        assert "zz1" in game.state.units and history.rebuilds == rebuilds + 2
        await pilot.pause()
    game.close()


@sync
async def test_the_footer_is_laid_out_again_only_when_its_keys_change(tmp_path):
    game = Game.open(sample_copy(tmp_path))
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        footer = app.screen.query_one("StockadeFooter")

        def keys() -> dict[str, bool]:
            return {
                str(key.description): key.disabled or key.has_class("-disabled")
                for key in footer.query("FooterKey")
            }

        side = next(iter(game.state.sides))
        app.run_command(f"add {side} 4-6-7 as zz1 at Q4")
        app.run_command(f"add {side} 4-6-7 as zz2 at Q4")
        await pilot.pause()
        before = footer.recomposes
        assert keys()["Undo"] is False and keys()["Redo"] is True
        await pilot.press("u")  # redo becomes possible: the Redo key is marked in place
        await pilot.pause()
        assert keys()["Undo"] is False and keys()["Redo"] is False
        await pilot.press("n")  # a new entry: nothing to redo any more
        await pilot.pause()
        assert keys()["Redo"] is True
        assert footer.recomposes == before  # the same keys: never laid out again
        await pilot.press("colon")  # the command bar has other keys: laid out again
        await pilot.pause()
        assert footer.recomposes == before + 1
    game.close()
