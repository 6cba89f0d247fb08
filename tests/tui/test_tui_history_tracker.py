"""The history view follows the game from each write's ``Change``: what it shows after
any sequence of entries, undos, redos, undo-to-here, strikes and unstrikes is exactly
what recomputing the whole history would show, and an undo never walks the whole
history."""

from __future__ import annotations

import random

import pytest

from bench.generate import Driver
from bench.generate import new_game as campaign
from stockade.core.book.game import Game
from stockade.core.model.errors import Refusal
from stockade.tui.app import StockadeApp
from stockade.tui.screens.main import history_lines
from stockade.tui.widgets.history_view import HistoryView, all_lines, lines_for_change
from tests.tui.support import sample_copy, sync


def _step(game: Game, driver: Driver, rng: random.Random):
    """One random write; returns its Change (None when refused or when the driver
    wrote, which the test then reads from a full fill)."""
    roll = rng.random()
    try:
        if roll < 0.08 and game.can_undo():
            return game.undo()
        if roll < 0.12 and game.can_redo():
            return game.redo()
        if roll < 0.15 and len(game.effective) > 2:
            seq = rng.choice(game.effective[1:]).seq
            change = game.strike(seq, "test")
            return game.unstrike(seq) if rng.random() < 0.4 else change
        if roll < 0.16 and len(game.effective) > 2:
            return game.undo_to(rng.choice(game.effective[len(game.effective) // 2 :]).seq)
        if roll < 0.17 and game.timeline.struck:
            return game.unstrike(rng.choice(sorted(game.timeline.struck)))
        events = driver._plan.pop(0) if driver._plan else None
        if callable(events):
            events = events()
        if events:
            return game.submit(events)
        driver.step()
    except Refusal:
        pass
    return None


@pytest.mark.parametrize("seed", [1, 2])
def test_lines_from_each_change_equal_the_whole_history_after_every_change(seed):
    game = campaign()
    driver = Driver(game, seed=seed, controls=False)
    rng = random.Random(seed)
    shown = {line.seq: line for line in all_lines(game)}
    seen = len(game.records)
    kinds = set()
    for _ in range(260):
        change = _step(game, driver, rng)
        if change is not None and change.appended and change.appended[0] == seen + 1:
            for line in lines_for_change(game, change, sorted(shown)):
                shown[line.seq] = line
        elif len(game.records) != seen:  # the driver wrote several: a full fill
            shown = {line.seq: line for line in all_lines(game)}
        seen = len(game.records)
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
        count = history.line_count

        def whole(*_a, **_k):
            raise AssertionError("the whole history was recomputed")

        monkeypatch.setattr(Game, "history", whole)
        monkeypatch.setattr("stockade.tui.screens.main.history_lines", whole)
        side = next(iter(game.state.sides))
        app.run_command(f"add {side} 4-6-7 as zz1 at Q4")
        await pilot.pause()
        assert history.line_count == count + 1
        rebuilds = history.rebuilds
        await pilot.press("u")
        assert "zz1" not in game.state.units
        assert history.line_count == count + 2  # the undo record has its own line
        undo = history.line(history.selected_seq or 0)
        assert undo is not None and undo.text == f"undo of entry {count + 1}"
        assert history.rebuilds == rebuilds + 1  # the one undone line, marked in place
        await pilot.press("r")
        assert "zz1" in game.state.units and history.rebuilds == rebuilds + 2
        assert history.line_count == count + 3
        await pilot.pause()
    game.close()


@sync
async def test_the_footer_is_laid_out_again_only_when_its_keys_change(tmp_path):
    """Only when the keys shown change; when only which of them are enabled changes
    (an undo makes redo possible), the keys are dimmed or undimmed in place, and a
    click on each then does what a freshly made key's would."""
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

        def key(description: str):
            return next(k for k in footer.query("FooterKey") if k.description == description)

        side = next(iter(game.state.sides))
        app.run_command(f"add {side} 4-6-7 as zz1 at Q4")
        app.run_command(f"add {side} 4-6-7 as zz2 at Q4")
        await pilot.pause()
        before, restyles = footer.recomposes, footer.restyles
        assert keys()["Undo"] is False and keys()["Redo"] is True
        app.run_command("pin zz1")
        await pilot.pause()
        assert (footer.recomposes, footer.restyles) == (before, restyles)  # untouched
        await pilot.press("u")  # redo becomes possible: the Redo key undimmed in place
        await pilot.pause()
        assert keys()["Undo"] is False and keys()["Redo"] is False
        assert (footer.recomposes, footer.restyles) == (before, restyles + 1)
        n = len(game.records)
        await pilot.click(key("Redo"))  # enabled now: the click redoes
        await pilot.pause()
        assert len(game.records) == n + 1 and keys()["Redo"] is True
        assert (footer.recomposes, footer.restyles) == (before, restyles + 2)
        bells = []
        app.bell = lambda: bells.append(1)
        await pilot.click(key("Redo"))  # dimmed again: a click rings and records nothing
        await pilot.pause()
        assert len(game.records) == n + 1 and bells == [1]
        await pilot.press("colon")  # the command bar has other keys: laid out again
        await pilot.pause()
        assert footer.recomposes == before + 1
    game.close()
