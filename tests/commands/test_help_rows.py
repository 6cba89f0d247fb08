"""``help`` comes as rows (each verb of the grammar and its summary; ``help VERB``'s
lines at their depth) so that a screen can lay it out as a table; the text the command
line prints is the same rows, one line each."""

from __future__ import annotations

from stockade.core.book.game import Game
from stockade.core.commands import VERBS, execute
from stockade.core.model import events as ev


def _game() -> Game:
    return Game.in_memory("test", [ev.SideSpec(n, n, 3) for n in ("German", "Russian")])


def test_help_is_one_row_per_verb_of_the_grammar_then_its_notes() -> None:
    outcome = execute(_game(), "help")
    headed = [(row.head, row.text) for row in outcome.rows if row.head]
    assert headed == [(name, spec.summary) for name, spec in VERBS.items()]
    lines = outcome.message.splitlines()
    assert len(lines) == len(outcome.rows)
    assert lines[0].split(None, 1) == ["add", VERBS["add"].summary]


def test_help_verb_rows_keep_their_depth() -> None:
    outcome = execute(_game(), "help escape")
    assert outcome.rows[0].depth == 0 and outcome.rows[0].text.startswith("escape H...")
    words = [row for row in outcome.rows if row.text.startswith("ntcfail:")]
    assert words and words[0].depth == 2
    assert outcome.message.splitlines()[0] == outcome.rows[0].text


def test_a_term_is_rows_its_verbs_under_it_and_rulings_text_without_rows() -> None:
    outcome = execute(_game(), "help no quarter")
    assert [row.depth for row in outcome.rows[:3]] == [0, 1, 2]
    assert outcome.rows[1].text.startswith("reject H... by SIDE: ")
    assert outcome.message.splitlines()[1] == "  " + outcome.rows[1].text
    assert execute(_game(), "help rulings").rows == []
