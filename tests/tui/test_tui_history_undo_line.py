"""The app's history lists undo / redo / strike records, as ``stockade history`` does:
after an undo and a new entry the numbers run on without a gap, and the line between
says what happened ("41 · undo of entry 40")."""

from __future__ import annotations

from stockade.core.model import events as ev
from stockade.tui.widgets.history_view import all_lines, line_prompt, lines_for_change
from tests.rules.kit import DE, US, add, new_game


def test_an_undo_has_its_own_line_so_the_numbers_run_on():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g1", DE, "squad", "4-6-7")
    undone = len(game.records)
    change = game.undo()
    undo_seq = change.appended[0]
    assert [line.seq for line in lines_for_change(game, change, [])] == [undone, undo_seq]
    add(game, "g2", DE, "squad", "4-6-7")
    lines = {line.seq: line for line in all_lines(game)}
    assert sorted(lines) == list(range(1, len(game.records) + 1))  # no gap
    assert lines[undone].status == "abandoned"
    undo = lines[undo_seq]
    assert (undo.status, undo.text) == ("control", f"undo of entry {undone}")
    assert line_prompt(undo).plain == f"{undo_seq:>3} · undo of entry {undone}"


def test_a_strike_record_has_its_line_too():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-7")
    add(game, "g1", DE, "squad", "4-6-7")
    target = len(game.records)
    change = game.strike(target, "entered twice")
    record = game.records[change.appended[0] - 1]
    assert isinstance(record, ev.Strike)
    texts = [line.text for line in lines_for_change(game, change, [])]
    assert f"struck entry {target} (entered twice)" in texts
