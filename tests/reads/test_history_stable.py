"""A book never rewrites its old pages: every history sentence names the units as they
were when the entry was recorded, so exchanging, splitting, deploying, reducing and
rearming them later changes no earlier sentence, byte for byte: in the core, in
``stockade history``, in the TUI history and on the replay screen."""

from __future__ import annotations

import pytest

from stockade.core.book.describe import sentence
from stockade.core.book.game import Game
from stockade.core.cli import main
from stockade.core.commands import run_script
from stockade.core.model import events as ev
from tests.tui.support import sync

FIRST = [
    "add American 6-6-7 6-6-7 3-4-7 hs at Q4",
    "add German 4-6-7 2-4-7 hs 2-4-7 hs at Q5 broken",
    "add German 2-4-7 hs at Q6 broken",
    "phase RtPh 1 American",
    "surrender g1 g2 g3 to a1",
    "surrender g4 to a3",
    "move a1 R4",
]
LATER = [
    "next",
    "exchange g2 g3",  # merge: g2 and g3 are gone, g5 stands for both
    "split g1",  # g1 gone: g6 and g7
    "deploy a1 3-3-7",  # a1 gone: a4 and a5
    "reduce a2 to 3-3-7",  # a2 is a 3-3-7 HS now
    "abandon g4",
    "next",
    "eliminate a3 by cc",  # in CC: it rearms g4 by cc (A20.551)
    "rearm g4 cc a3",  # g4 rearms: a Green/Conscript HS (A20.551, of its size)
]


# no snapshot cache: each open folds the whole log
pytestmark = pytest.mark.usefixtures("cache_off")


def sides() -> list[ev.SideSpec]:
    return [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]


def sentences(game: Game) -> dict[int, str]:
    return {e.seq: sentence(e, game) for e in game.history()}


def test_core_sentences_stay_byte_identical():
    game = Game.in_memory("Stable", sides())
    run_script(game, FIRST)
    before = sentences(game)
    assert "American 6-6-7 (a2) entered in Q4" in before[3]
    run_script(game, LATER)
    after = sentences(game)
    assert {seq: after[seq] for seq in before} == before
    # the units did change: the same handles are named otherwise now
    assert game.state.units["a2"].counter == "3-3-7"
    assert game.state.units["g1"].status == "gone" and game.state.units["a1"].status == "gone"
    # and a fresh read of the log says the same
    fresh = sentences(Game.load(list(game.records)))
    assert {s: t for s, t in fresh.items() if s in before} == before


def test_stockade_history_prints_the_same_lines(tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    main(
        ["new", str(path), "--scenario", "Stable"]
        + ["--side", "American:American:4"] * 1
        + [
            "--side",
            "German:German",
        ]
    )
    first, later = tmp_path / "first.txt", tmp_path / "later.txt"
    first.write_text("\n".join(FIRST) + "\n")
    later.write_text("\n".join(LATER) + "\n")
    assert main(["run", str(path), str(first), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["history", str(path)]) == 0
    before = capsys.readouterr().out.splitlines()
    assert main(["run", str(path), str(later), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["history", str(path)]) == 0
    after = capsys.readouterr().out.splitlines()
    assert after[: len(before)] == before and len(after) > len(before)


@sync
async def test_tui_history_and_replay_keep_the_old_lines(tmp_path):
    from stockade.tui.app import StockadeApp
    from stockade.tui.screens.replay import ReplayScreen
    from stockade.tui.widgets.history_view import HistoryView

    game = Game.create(tmp_path / "g.jsonl", "Stable", sides())
    run_script(game, FIRST)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        view = app.screen.query_one(HistoryView)
        before = {seq: view.line(seq).text for seq in range(2, len(game.records) + 1)}
        for text in LATER:
            app.run_command(text)
            await pilot.pause()
        after = {seq: app.screen.query_one(HistoryView).line(seq).text for seq in before}
        assert after == before
        app.push_screen(ReplayScreen(3))
        await pilot.pause()
        replay = app.screen.query_one(HistoryView)
        assert {seq: replay.line(seq).text for seq in before} == before
    game.close()


def test_an_undone_entry_keeps_its_unit_when_the_handle_is_given_again(tmp_path):
    """Found playing at 80x24 (docs/playthrough/round3.md): "add American 7-4-7" made
    a4, was undone and left behind by a new entry; a CC capture then gave the freed
    handle a4 to a captured HS. Opened again, the abandoned entry read "American HS of
    7-4-7 (a4) entered": the old page rewritten by the later unit. It must still read
    "American 7-4-7 (a4) entered", in the session and after the log is opened again."""
    path = tmp_path / "reuse.jsonl"
    game = Game.create(path, "Reuse", sides())
    run_script(game, ["add American 6-6-6 at Q5", "add German 4-6-7 at Q5"])
    run_script(game, ["add American 7-4-7 at R5"])  # a2
    game.undo()
    run_script(game, ["add American 9-2 at R6"])  # a new entry: a2's add is abandoned
    entered = next(
        e for e in game.history() if isinstance(e.record, ev.UnitEntered) and e.status != "ok"
    )
    assert game.state.units["a2"].counter == "9-2"  # the handle names another unit now
    assert "American 7-4-7 (a2) entered in R5" in sentence(entered, game)
    game.close()
    again = Game.open(path, read_only=True)
    old = next(e for e in again.history() if e.seq == entered.seq)
    assert "American 7-4-7 (a2) entered in R5" in sentence(old, again), sentence(old, again)
    again.close()


def test_one_escaping_prisoner_attacks_its_guard_two_attack_their_guard():
    game = Game.in_memory("Grammar", sides())
    run_script(
        game,
        [
            "add American 6-6-6 at Q5",
            "add German 4-6-7 4-6-7 at Q4 broken",
            "phase RtPh 1 American",
            "surrender g1 g2 to a1",
            "break a1",
            "phase CCPh 1 German",
        ],
    )
    run_script(game, ["escape g1 melee"])
    run_script(game, ["phase CCPh 2 American", "escape g1 g2 melee"])  # once per CCPh
    said = [sentence(e, game) for e in game.history() if isinstance(e.record, ev.EscapeAttempted)]
    assert "German 4-6-7 (g1) attacked its Guard" in said[0], said
    assert "German 4-6-7 (g1) and German 4-6-7 (g2) attacked their Guard" in said[1], said


def test_abandoned_and_struck_entries_keep_their_units_when_handles_are_reused(
    tmp_path, monkeypatch
):
    """Several entries name a2 on an abandoned branch and a3 in a struck add; the
    handles are then given to new units. Every earlier sentence stays byte-identical:
    before the reuse, after it, and after opening the log again."""
    path = tmp_path / "reuse.jsonl"
    game = Game.create(path, "Reuse", sides())
    run_script(game, ["add American 6-6-6 at Q5", "add German 4-6-7 at Q5"])
    run_script(game, ["add American 7-4-7 at R5", "move a2 R6", "break a2"])
    game.undo()
    game.undo()
    game.undo()
    run_script(game, ["add American 8-3-8 at S5", "move a2 S6"])
    struck = game.records[-2].seq
    game.strike(struck)
    before = sentences(game)
    run_script(game, ["add American 9-2 at T6", "add American 4-4-7 at T7"])  # a2, a3 again
    after = sentences(game)
    assert {s: after[s] for s in before} == before
    game.close()
    for cache in ("off", str(tmp_path / "cache")):
        monkeypatch.setenv("STOCKADE_CACHE_DIR", cache)
        for _ in range(2):  # the second open reads the snapshot cache, if any
            again = Game.open(path, read_only=True)
            got = sentences(again)
            again.close()
            assert {s: got[s] for s in before} == before


def test_a_prisoner_that_failed_the_ntc_is_not_said_to_attack():
    game = Game.in_memory("Grammar", sides())
    run_script(
        game,
        [
            "add American 6-6-6 at Q5",
            "add German 4-6-7 2-4-7 hs at Q4 broken",
            "phase RtPh 1 American",
            "surrender g1 g2 to a1",
            "break a1",
            "phase CCPh 1 German",
            "escape g1 g2 ntcfail g2 guard-dies",
        ],
    )
    said = next(
        sentence(e, game) for e in game.history() if isinstance(e.record, ev.EscapeAttempted)
    )
    assert "German 4-6-7 (g1) attacked its Guard (g2 failed the NTC and did not attack)" in said
