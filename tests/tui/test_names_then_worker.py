"""The replay that names never-folded entries (``Game.names_then``) off the TUI's event
loop, built once however many callers ask, and the time it gives ``history()``.

The game is ``record_game``'s (tests/book/kit.py): undone, abandoned and struck
entries that never fold when the log is opened again."""

from __future__ import annotations

import json
import threading
import time

import pytest

from stockade.core.book import names_replay as names_then_module
from stockade.core.book.game import Game
from stockade.core.book.names_replay import NamesThen
from stockade.core.cli import main
from stockade.core.model import events as ev
from tests.book.kit import record_game
from tests.tui.support import sync

# no snapshot cache: each open folds the whole log
pytestmark = pytest.mark.usefixtures("cache_off")


def _recorded(tmp_path):
    path = tmp_path / "g.jsonl"
    book = record_game(path)
    book.game.close()
    return path, book


def test_history_gives_never_folded_entries_their_time_then(tmp_path, capsys):
    path, book = _recorded(tmp_path)
    times = {e.seq: (e.turn, e.phase, e.attacker) for e in book.game.history()}
    again = Game.open(path, read_only=True)
    try:
        never = [r.seq for r in again.records if r.seq not in again.when and not ev.is_control(r)]
        assert any(times[s][0] for s in never)  # a time to give: the test can fail
        got = {e.seq: (e.turn, e.phase, e.attacker) for e in again.history()}
        assert {s: got[s] for s in never} == {s: times[s] for s in never}
        assert not again.needs_names_then()  # history() built the replay
        assert {e.seq: (e.turn, e.phase, e.attacker) for e in again.history()} == got
    finally:
        again.close()
    capsys.readouterr()
    assert main(["history", str(path), "--json"]) == 0
    printed = {e["seq"]: (e["turn"], e["phase"], e["attacker"]) for e in _json(capsys)}
    assert {s: printed[s] for s in never} == {s: times[s] for s in never}


def _json(capsys) -> list[dict]:
    return json.loads(capsys.readouterr().out)["entries"]


def test_two_threads_asking_at_once_build_the_replay_once(tmp_path, monkeypatch):
    path, _ = _recorded(tmp_path)
    built: list[int] = []

    def slow(records):  # long enough that both ask before the first is done
        built.append(1)
        time.sleep(0.3)
        return NamesThen(records)

    monkeypatch.setattr(names_then_module, "NamesThen", slow)
    game = Game.open(path, read_only=True)
    both = threading.Barrier(2)
    got: list[object] = []

    def ask() -> None:
        both.wait()
        got.append(game.names_then())

    threads = [threading.Thread(target=ask) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    game.close()
    assert len(built) == 1
    assert len(got) == 2 and got[0] is got[1]


@sync
async def test_tui_history_reads_never_folded_names_in_a_worker(tmp_path, monkeypatch):
    from stockade.tui.app import StockadeApp
    from stockade.tui.widgets.history_view import PENDING, HistoryView

    path, book = _recorded(tmp_path)
    held = threading.Event()
    threads: list[threading.Thread] = []

    def gated(records):  # the replay, held back until the test lets it go
        threads.append(threading.current_thread())
        # on the event loop (the old way) it would block the app; the timeout only
        # frees the thread if the test fails before letting it go
        held.wait(timeout=120)
        return NamesThen(records)

    monkeypatch.setattr(names_then_module, "NamesThen", gated)
    game = Game.open(path)
    domain = {s: t for s, t in book.said.items() if not ev.is_control(game.records[s - 1])}
    never = {s for s in domain if s not in game.when}
    assert never
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        view = app.screen.query_one(HistoryView)
        shown = {s: view.line(s) for s in domain}
        assert {s for s, line in shown.items() if line and line.text == PENDING} == never
        assert {s: shown[s].text for s in domain if s not in never} == {
            s: domain[s] for s in domain if s not in never
        }
        held.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert {s: getattr(view.line(s), "text", None) for s in domain} == domain
        assert threads and threading.main_thread() not in threads
    game.close()
