"""``verify``'s list of added entries (issue 24): in time linear in the log, and an
undo, redo or strike never listed under the side of the entry it acts on (the log
does not say who made it: an opponent's strike of your entry is not yours)."""

from __future__ import annotations

from pathlib import Path

from bench.generate import Driver, new_game
from stockade.core import rules
from stockade.core.book import projection
from stockade.core.book.game import Game
from stockade.core.cli import main
from stockade.core.log.chain import chained
from stockade.core.model import events as ev
from stockade.core.reads.verify import acting_side, added_entries


def generated(length: int) -> list[ev.Record]:
    game = new_game()
    driver = Driver(game, 3, controls=True)
    while len(game.records) < length:
        driver.step()
    return list(game.records)


def test_each_added_entry_is_read_against_the_state_before_it_as_before():
    records = generated(400)
    game = Game.load(records)
    reference = [
        acting_side(r, game.state_at(r.seq - 1), records) for r in records[1:]
    ]  # the state rebuilt for each entry: what verify did
    found = added_entries(records, 1)
    assert [a.side or a.acts_on for a in found] == reference


def test_added_entries_cost_a_bounded_number_of_folds_and_copies(monkeypatch):
    """Work counted: events folded and state objects copied (a state rebuilt for each
    entry copied the state once per entry: ~n**2 / 2 objects)."""
    work = 0
    real_step, real_copy = rules.step, projection.copy_obj

    def step(state, event):
        nonlocal work
        work += 1
        real_step(state, event)

    def copy(obj):
        nonlocal work
        work += 1
        return real_copy(obj)

    monkeypatch.setattr(rules, "step", step)
    monkeypatch.setattr(projection, "copy_obj", copy)
    records = generated(1500)
    work = 0
    added_entries(records, 1)
    # one fold for the game, one carried forward
    assert work <= 3 * len(records), work


def _write(path: Path, records: list[ev.Record]) -> None:
    path.write_bytes(b"".join(line + b"\n" for line in chained([ev.encode(r) for r in records])))


def test_an_opponents_strike_of_your_entry_is_not_listed_under_your_side(tmp_path, capsys):
    sides = [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]
    game = Game.in_memory("T", sides)
    game.submit(
        [
            ev.UnitEntered(
                handle="a1", side="American", unit_kind="squad", counter="6-6-7", location="Q4"
            )
        ]
    )
    old = list(game.records)
    game.submit(
        [
            ev.UnitEntered(
                handle="g1", side="German", unit_kind="squad", counter="4-6-7", location="Q5"
            )
        ]
    )
    game.strike(2, "never there")  # the German player strikes the American's entry
    _write(tmp_path / "old.jsonl", old)
    _write(tmp_path / "new.jsonl", list(game.records))
    assert main(["verify", str(tmp_path / "old.jsonl"), str(tmp_path / "new.jsonl")]) == 0
    out = capsys.readouterr().out
    struck = next(line for line in out.splitlines() if "struck entry 2" in line)
    assert struck.split()[1] == "-" and "(an entry naming American)" in struck
    assert "sides named on the added entries: German 1\n" in out
    assert "and 1 undo, redo, strike or amend record, listed under '-'" in out


def test_an_added_entry_that_no_longer_holds_is_worded_as_it_was_written(tmp_path, capsys):
    sides = [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]
    game = Game.in_memory("T", sides)
    game.submit(
        [
            ev.UnitEntered(
                handle="g1", side="German", unit_kind="squad", counter="4-6-7", location="Q4"
            )
        ]
    )
    old = list(game.records)
    game.submit([ev.StatusChanged(handle="g1", broken=True)])
    game.strike(2, "never there")  # the break no longer holds: no g1 now
    assert 3 in game.conflicts
    _write(tmp_path / "old.jsonl", old)
    _write(tmp_path / "new.jsonl", list(game.records))
    assert main(["verify", str(tmp_path / "old.jsonl"), str(tmp_path / "new.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "German 4-6-7 (g1) broken" in out  # not the bare handle of today's history
