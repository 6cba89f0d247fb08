"""Entries that never folded keep the sentence they had when they were recorded.

An undone, abandoned or struck entry is not in the effective history, so reopening the
log never folds it. Its units must still be named as they were then, including units
its own branch made (a deploy's HS, whose handles are later given to other units) and
counters its own branch changed (a Casualty Reduction before an entry naming the
reduced unit): byte for byte in the same session, after reopening the log with the
snapshot cache off and on, in ``stockade history``, the TUI history and the replay
screen."""

from __future__ import annotations

import pytest

from stockade.core.book.describe import sentence
from stockade.core.book.game import Game
from stockade.core.cli import main
from stockade.core.log import snap_sizes
from stockade.core.model import events as ev
from tests.book.kit import record_game
from tests.tui.support import sync

# no snapshot cache: each open folds the whole log
pytestmark = pytest.mark.usefixtures("cache_off")


def test_never_folded_entries_keep_their_sentences_in_session_and_reopened(tmp_path):
    path = tmp_path / "g.jsonl"
    book = record_game(path)
    said = book.said
    assert said[8].endswith("American 3-3-7 (a4) broken")  # not the 9-2 that is a4 now
    assert said[14].endswith("American 4-3-8 (a3) broken")  # not the 8-3-8 before it
    assert said[len(said) - 2].endswith("American 3-3-7 (a2) moved to R4")
    assert book.sentences() == said  # (a) the same session
    book.game.close()
    again = Game.open(path, read_only=True)  # (b) reopened, no snapshot cache
    try:
        assert {e.seq: sentence(e, again) for e in again.history()} == said
    finally:
        again.close()


def test_never_folded_entries_keep_their_sentences_from_a_snapshot(
    tmp_path, monkeypatch, stockade_dirs
):
    """(c) The branches lie before the snapshot's position: the entries there never
    fold when the game opens from it, effective or not."""
    monkeypatch.setenv("STOCKADE_CACHE_DIR", str(stockade_dirs.cache))  # this one uses it
    monkeypatch.setattr(snap_sizes, "MIN_EVENTS", 60)
    monkeypatch.setattr(snap_sizes, "TAIL", 10)
    monkeypatch.setattr(snap_sizes, "REFRESH", 20)
    path = tmp_path / "g.jsonl"
    book = record_game(path, pad=70)
    book.game.close()
    for _ in range(2):  # the first open may write the snapshot, the second reads it
        again = Game.open(path, read_only=True)
        try:
            got = {e.seq: sentence(e, again) for e in again.history()}
            from_snapshot = again.projection.journal_gap(0)
        finally:
            again.close()
        assert got == book.said
    assert from_snapshot  # the second open did start from the snapshot


def test_stockade_history_prints_the_recorded_sentences(tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    book = record_game(path)
    book.game.close()
    capsys.readouterr()
    assert main(["history", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    printed = {int(line[:5]): line[8:].split("  <")[0] for line in lines}
    assert printed == book.said


@sync
async def test_tui_history_and_replay_show_the_recorded_sentences(tmp_path):
    from stockade.tui.app import StockadeApp
    from stockade.tui.screens.replay import ReplayScreen
    from stockade.tui.widgets.history_view import HistoryView

    path = tmp_path / "g.jsonl"
    book = record_game(path)
    book.game.close()
    domain = {s: t for s, t in book.said.items() if not ev.is_control(book.game.records[s - 1])}
    game = Game.open(path)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()  # the never-folded names: read in a worker
        await pilot.pause()
        view = app.screen.query_one(HistoryView)
        assert {s: getattr(view.line(s), "text", None) for s in domain} == domain
        app.push_screen(ReplayScreen(3))
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        replay = app.screen.query_one(HistoryView)
        assert {s: getattr(replay.line(s), "text", None) for s in domain} == domain
    game.close()


@pytest.mark.parametrize("seed", [1, 7])
def test_the_replay_gives_every_entry_the_names_its_session_folded(seed):
    """Campaigns bench/generate.py plays in one session (undo, redo, strike, unstrike,
    abandoned branches): the session folded every entry, so it kept each one's names
    and time from its last fold. Replaying the log's records gives the very same, for
    every entry up to the last control record, effective or not."""
    from bench.generate import generate
    from stockade.core.book.names_replay import NamesThen

    game = generate(1200, seed=seed)
    replayed = NamesThen(game.records)
    last = max(r.seq for r in game.records if ev.is_control(r))
    domain = [r.seq for r in game.records[:last] if not ev.is_control(r)]
    assert any(not game.timeline.is_effective(game.records[s - 1]) for s in domain)
    assert {s: replayed.names.by_seq.get(s) for s in domain} == {
        s: game.names.by_seq.get(s) for s in domain
    }
    assert {s: replayed.when.get(s) for s in domain} == {s: game.when.get(s) for s in domain}
