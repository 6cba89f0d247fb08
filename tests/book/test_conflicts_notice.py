"""A log an older version accepted (a Melee across two Locations, refused since by A11)
opens with those entries in conflict: each is named with its entry, its rule and how to
fix it, and the game goes on (new entries are recorded; the conflicts are skipped)."""

from __future__ import annotations

from pathlib import Path

import pytest

import stockade.core.rules.setup as setup
from stockade.core.book.conflicts import conflict_line, conflicts_notice
from stockade.core.book.game import Game
from stockade.core.commands import control, execute
from stockade.core.model import events as ev


def old_log(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A log as an older version wrote it: ``melee g1 a1`` with g1 in D4, a1 in D5."""
    sides = [ev.SideSpec("Germans", "German", 3), ev.SideSpec("Americans", "American", 3)]
    game = Game.create(path, "old", sides, strict=True)
    for line in ["add German 4-6-7 as g1 at D4", "add American 6-6-6 as a1 at D5", "phase PFPh"]:
        execute(game, line)
    with monkeypatch.context() as m:
        m.setattr(setup, "require_melee_foe", lambda *a, **k: None)
        execute(game, "melee g1 a1")
    game.close()


def test_an_old_melee_across_locations_is_named_with_its_rule_and_fix(tmp_path, monkeypatch):
    path = tmp_path / "old.jsonl"
    old_log(path, monkeypatch)
    game = Game.open(path)
    try:
        assert sorted(game.conflicts) == [5, 6]
        line = conflict_line(game, 5)
        assert line.startswith("entry 5 (") and "g1" in line
        assert "no longer holds: A11: Melee is fought within one Location" in line
        assert line.endswith("to fix it: amend 5 with what the board showed, or strike 5")
        notice = conflicts_notice(game)
        assert notice.startswith("2 entries no longer hold (5, 6; entry 5: A11: ")
        assert "the game goes on" in notice and "amend 5" in notice and "strike 5" in notice
        execute(game, "break a1")  # still usable: a new entry is recorded
        assert game.state.units["a1"].broken
        control(game, "strike", 5)
        control(game, "strike", 6)
        assert not game.conflicts and conflicts_notice(game) == ""
    finally:
        game.close()
