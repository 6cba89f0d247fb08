"""The CC form's command: its canonical line has one space between words whatever the
result is, and it records the capture the results give."""

from __future__ import annotations

import pytest

from stockade.core.book.game import Game
from stockade.core.commands import plan, run_script
from stockade.core.model import events as ev
from stockade.core.rules.cc_table import CaptureEntry
from stockade.tui.forms.cc import capture_command


@pytest.mark.parametrize(
    ("entry", "hs_counter", "line"),
    [
        (CaptureEntry(("g2",), "", False), "", "capture g2 by a1"),
        (CaptureEntry(("g2", "g3"), "", False), "", "capture g2 g3 by a1"),
        (CaptureEntry((), "g5", False), "", "capture hs g5 by a1"),
        (CaptureEntry((), "g5", False), "2-4-7", "capture hs g5=2-4-7 by a1"),
        (CaptureEntry(("g2",), "g5", False), "2-4-7", "capture g2 hs g5=2-4-7 by a1"),
    ],
)
def test_the_line_has_single_spaces(entry, hs_counter, line):
    game = Game.in_memory(
        "cc", [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]
    )
    run_script(
        game, ["add American 6-6-6 at Q4", "add German 4-6-7 2-4-7 hs 2-4-7 hs 4-6-7 4-6-7 at Q4"]
    )
    assert str(capture_command(entry, "a1", game.state, hs_counter)) == line


def test_a_split_only_capture_records_the_split():
    game = Game.in_memory(
        "cc", [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]
    )
    run_script(game, ["add American 6-6-6 at Q4", "add German 4-6-7 at Q4"])
    command = capture_command(CaptureEntry((), "g1", False), "a1", game.state, "2-4-7")
    _clock_to_ccph, event = plan(command, game.state).events
    assert isinstance(event, ev.Captured)
    assert (event.units, event.split, event.hs_counter, event.guard) == ([], "g1", "2-4-7", "a1")
