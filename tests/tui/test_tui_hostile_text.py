"""Text that did not come from the program never drives the app or the terminal
(issue 24): a file name with escape sequences, game text that looks like markup, a
record kind appended to a followed log. Every notice goes through one escaping path
(``StockadeApp.notify``); these tests read what reached Textual's notify."""

from __future__ import annotations

import json
import os

from stockade.core.book.game import Game
from stockade.tui.app import StockadeApp
from tests.tui.support import sample_copy, sync

OSC_NAME = "evil\x1b]0;PWNED-FN\x07\x1b]52;c;cHduZWQ=\x07.jsonl"


@sync
async def test_a_file_name_and_a_notice_with_escapes_are_shown_not_sent(tmp_path, notices):
    """A damaged game's file name with escapes in its notes, and a notice with escapes
    and markup (one app: each is checked in the notices it gave)."""
    source = sample_copy(tmp_path, "demo").read_bytes().split(b"\n")
    source[4] = b"{damaged"
    path = tmp_path / OSC_NAME
    path.write_bytes(b"\n".join(source))
    game = Game.open(path)
    app = StockadeApp(game, notes=[f"opened {path}"], remember=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.is_running
        app.notify("a1 moved to [/nope]R4 \x1b]0;T\x07", title="[b]x\x9b", markup=False)
        await pilot.pause()
        assert app.is_running
    game.close()
    said = "\n".join(n.message + n.title for n in notices)
    assert "\x1b" not in said and "\x07" not in said and "\x9b" not in said
    assert "evil\\x1b]0;PWNED-FN\\x07\\x1b]52;c;" in said  # verbatim, escaped
    assert not any(n.markup for n in notices)
    assert ("a1 moved to [/nope]R4 \\x1b]0;T\\x07", "[b]x\\x9b", False) in notices


def test_every_notice_stockade_gives_passes_markup_false():
    """A notice holds game text or a file name: every ``notify`` call in tui/ (also
    one handed to ``call_from_thread``) says ``markup=False``. Read from the sources."""
    import ast
    from pathlib import Path

    import stockade.tui

    missing = []
    for path in sorted(Path(stockade.tui.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call):
                continue  # super().notify(...): the escaping path itself
            named = isinstance(func, ast.Attribute) and func.attr == "notify"
            handed = any(isinstance(a, ast.Attribute) and a.attr == "notify" for a in node.args)
            if not (named or handed):
                continue
            said = {k.arg: k.value for k in node.keywords}
            off = isinstance(said.get("markup"), ast.Constant) and said["markup"].value is False
            if not off:
                missing.append(f"{path.name}:{node.lineno}")
    assert not missing, f"notify without markup=False: {missing}"


@sync
async def test_a_markup_kind_appended_to_a_followed_log_leaves_the_window_alive(tmp_path, notices):
    path = sample_copy(tmp_path, "demo")
    writer = Game.open(path)
    follower_game = Game.open(path)
    assert follower_game.read_only
    app = StockadeApp(follower_game, remember=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        seq = len(writer.records) + 1
        line = json.dumps({"kind": "x[/]", "seq": seq, "v": 1, "grp": seq}).encode()
        with open(path, "ab") as log:
            log.write(line + b"\n")
            log.flush()
            os.fsync(log.fileno())
        await pilot.pause(1.5)
        assert app.is_running
    writer.close()
    follower_game.close()
    assert any("unknown record kind 'x[/]'" in n.message for n in notices), notices
    assert not any(n.markup for n in notices)


@sync
async def test_striking_in_the_replay_with_a_markup_location_later_keeps_the_app(tmp_path, notices):
    """The issue's case: the strike is recorded, then its notice names a later entry
    whose Location is '[/nope]R4' (MarkupError killed the app after the write)."""
    from stockade.core.model import events as ev
    from stockade.tui.widgets.history_view import HistoryView
    from tests.tui.support import new_game

    game = new_game(tmp_path, "Strike", [("American", "American", 4), ("German", "German", 3)])
    where = "[/nope]R4"
    game.submit([ev.UnitEntered(handle="a1", side="American", unit_kind="squad",
                                counter="8-0", location=where)])  # fmt: skip
    game.submit([ev.UnitEntered(handle="g1", side="German", unit_kind="squad",
                                counter="4-6-7", location=where, broken=True)])  # fmt: skip
    game.submit([ev.PhaseSet(turn=1, attacker="American", phase="RtPh")])
    game.submit([ev.Surrendered(units=["g1"], guard="a1")])
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("escape", "h")
        history = app.screen.query_one(HistoryView)
        history.select_seq(3)  # adding g1: the surrender depends on it
        await pilot.pause()
        await pilot.press("x", *"typo", "enter")
        await pilot.pause()
        assert app.is_running
        assert {e.seq: e.status for e in game.history()}[3] == "struck"
    game.close()
    assert not any(n.markup for n in notices)
