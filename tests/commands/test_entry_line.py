"""An entry reads back as the command that records it: the line ``entry_line`` gives
for each entry of the sample games, read at the entry's place (as amend reads it),
records the same event. The amend form starts from this line."""

from __future__ import annotations

import msgspec
import pytest

from stockade.core.book.game import Game
from stockade.core.commands.entry_line import entry_line
from stockade.core.commands.execute import amendment
from stockade.core.model import events as ev
from stockade.sample_games import catalog

_STAMPS = ("seq", "v", "grp", "at")


def _bare(record: ev.Record) -> dict[str, object]:
    fields = msgspec.to_builtins(record)
    return {k: v for k, v in fields.items() if k not in _STAMPS}


@pytest.mark.parametrize("name", catalog.names())
def test_each_entry_reads_back_as_its_own_line(name):
    game = Game.open(catalog.log_path(name), read_only=True)
    try:
        said = 0
        for entry in game.history():
            record = game.records[entry.seq - 1]
            line = entry_line(record)
            if not line or entry.status != "ok":
                continue
            said += 1
            assert _bare(amendment(game, entry.seq, line)) == _bare(record), line
    finally:
        game.close()
    if name.startswith("ex"):
        assert said, "a worked example records at least one A20 entry a command says"


def test_an_escape_with_a_guard_killed_reads_as_typed():
    record = ev.EscapeAttempted(
        units=["r4", "r5"], ntc_failed=["r5"], guard_eliminated=True, outcome="escaped"
    )
    assert entry_line(record) == "escape r4 r5 ntcfail r5 guard-dies"


def test_an_entry_no_command_records_has_no_line():
    assert entry_line(ev.PhaseSet(turn=1, attacker="German", phase="CCPh")) == ""
