"""The glossary: every mark and short word the screens show, with what it means, in
one declaration that ``help`` answers from (``help US#``, ``help ⑂``)."""

from __future__ import annotations

from stockade.core.book.game import Game
from stockade.core.book.tally import tally
from stockade.core.commands import execute
from stockade.core.model import events as ev
from stockade.core.model.units import UNARMED_COUNTER, US_NUMBER, unarmed_counter_text
from stockade.core.reads.glossary import GUARD_USAGE, GUARD_USAGE_KEY, LEGEND, signs_named
from stockade.core.reads.rulings import rulings
from stockade.core.reads.views import counter_text, side_panel


def _game() -> Game:
    return Game.in_memory("glossary", [ev.SideSpec(n, n, 3) for n in ("American", "German")])


def test_the_usage_it_explains_is_the_one_a_guard_line_shows():
    game = _game()
    for line in ("add American 4-6-7 at T4", "add German 4-6-7 4-6-7 at T5 broken"):
        execute(game, line)
    execute(game, "phase RtPh 1")
    execute(game, "surrender g1 g2 to a1")
    guard = side_panel(game.state, "American").guards[0]
    assert (guard.used, guard.capacity) == (6, 15)
    assert guard.usage == GUARD_USAGE.mark  # "US# 6/15", as the panel shows it
    assert "A20.51" in GUARD_USAGE.means
    for kind in ("squad", "hs", "leader"):
        assert str(US_NUMBER[kind]) in GUARD_USAGE.means
    # the one-line key fits a side panel's line at 80x24 (40 columns less border,
    # padding and scrollbar)
    assert len(GUARD_USAGE_KEY) <= 35 and "A20.51" in GUARD_USAGE_KEY


def test_help_says_what_a_mark_means_in_the_bar():
    game = _game()
    usage = execute(game, "help US#")  # the lexer reads "#" as a comment: "help US"
    assert usage.rows[0].head == "US# 6/15" and "A20.51" in usage.message
    fork = execute(game, "help ⑂")
    assert fork.rows[0].head == "⑂" and "superseded" in fork.message
    # a mark shown in two places answers both
    assert {s.means.split(":")[0] for s in signs_named("⚠")} == {
        "the Guard holds more US# than it may",
        "CONFLICT",
    }


def test_every_sign_is_found_by_its_own_mark():
    for _, signs in LEGEND:
        for sign in signs:
            assert sign in signs_named(sign.mark), sign


def test_an_unarmed_counter_says_what_it_was_and_help_explains_it():
    """A captured crew is shown as ASL prints an unarmed counter, with its VP record in
    brackets, built in one place; ``help (1)-0-6`` explains the counter and the brackets,
    and names the rules (A20.5 its FP, A20.54 its morale) and the ruling."""
    game = _game()
    for line in ("add American 4-6-7 at T4", "add German 2-2-8 crew at T5 broken"):
        execute(game, line)
    execute(game, "phase RtPh 1")
    execute(game, "surrender g1 to a1")
    g1 = game.state.units["g1"]
    assert counter_text(g1) == unarmed_counter_text(g1.origins) == "(1)-0-6 [was 2-2-8 crew]"
    (line,) = tally(game.state).sides["American"].lines
    assert (line.counter, line.unit_kind) == ("(1)-0-6 [was 2-2-8]", "crew")
    said = execute(game, "help (1)-0-6")
    assert said.rows[0].head == UNARMED_COUNTER
    for words in ("FP (1)", "CC vs Personnel (A20.5)", "range 0", "morale 6", "A20.54"):
        assert words in said.message, words
    assert "[was 4-6-7 squad]" in said.message and "help rulings" in said.message
    assert any(r.topic == "Unarmed counters" for r in rulings())
