"""Word jumps in a command line (ctrl+arrows, ctrl+w in the bar): a word is what the
command language reads as one, so a counter (4-4-7), a leader (9-1), a handle (g1) or a
Location (Q4) is one word, not three."""

from __future__ import annotations

import pytest

from stockade.core.commands.lexer import next_word_start, previous_word_start

LINE = "add Russian 4-4-7 9-1 at K5"


def test_ctrl_right_steps_over_a_counter_whole():
    stops, at = [], 0
    while at < len(LINE):
        at = next_word_start(LINE, at)
        stops.append(at)
    assert [LINE[s:].split(" ")[0] for s in stops[:-1]] == ["Russian", "4-4-7", "9-1", "at", "K5"]
    assert stops[-1] == len(LINE)


def test_ctrl_left_steps_back_over_a_counter_whole():
    stops, at = [], len(LINE)
    while at > 0:
        at = previous_word_start(LINE, at)
        stops.append(at)
    assert [LINE[s:].split(" ")[0] for s in stops] == [
        "K5",
        "at",
        "9-1",
        "4-4-7",
        "Russian",
        "add",
    ]


@pytest.mark.parametrize(
    "text, at, right, left",
    [
        ("add R 4-4-7 at K5", 8, 12, 6),  # inside 4-4-7: on to "at", back to "4-4-7"
        ("add R 4-4-7", 8, 11, 6),  # inside the last word: to the end
        ("  add", 0, 2, 0),  # leading blanks
        ("add   ", 4, 6, 0),  # trailing blanks
        ("", 0, 0, 0),
    ],
)
def test_from_inside_a_word(text, at, right, left):
    assert next_word_start(text, at) == right
    assert previous_word_start(text, at) == left
