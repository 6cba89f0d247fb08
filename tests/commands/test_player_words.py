"""The player's words: every verb answers to the words players use (one table beside
the grammar), a word that is not a verb is answered with the verbs whose meaning fits,
``help`` explains any A20 term, and completion offers every outcome word of a verb."""

from __future__ import annotations

import pytest

from stockade.core.book.game import Game
from stockade.core.commands import VERBS, complete, help_text, parse, run_script
from stockade.core.commands.grammar import ALIASES, verb_at
from stockade.core.commands.handles import check_new_handle
from stockade.core.commands.verb_spec import Kind
from stockade.core.commands.vocabulary import PLAYER_WORDS, TERMS
from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal


@pytest.fixture
def game() -> Game:
    """American a1 a2 in Q4; German g1 prisoner of a2, g2 g3 broken in Q5, g4 free
    unarmed (abandoned); the American APh."""
    g = Game.in_memory(
        "words", [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]
    )
    run_script(
        g,
        [
            "add American 9-2 6-6-6 at Q4",
            "add German 4-6-7 2-4-7 hs 8-0 at Q5 broken",
            "add German 4-6-7 at Q5 broken",
            "phase rtph",
            'surrender g1 to a2 because "g2 g3 g4 have a legal rout path"',
            'surrender g4 to a1 because "g2 g3 have a legal rout path"',
            "next",
            "abandon g4",
        ],
    )
    return g


# ------------------------------------------------------------------ the table
def test_every_verb_has_the_words_players_use_and_each_word_names_one_verb():
    assert set(VERBS) <= set(PLAYER_WORDS), "a verb without players' words"
    # a key that is no verb is a typo; amend's words are ready for the verb
    assert set(PLAYER_WORDS) - set(VERBS) <= {"amend"}, "a stray verb in the table"
    seen: dict[str, str] = {}
    for verb, words in PLAYER_WORDS.items():
        assert words, verb
        for word in words:
            assert word == word.lower() and 1 <= len(word.split()) <= 2, word
            assert word not in VERBS and word not in ALIASES, f"{word} is already a verb"
            assert seen.setdefault(word, verb) == verb, f"{word} names {seen[word]} and {verb}"


@pytest.mark.parametrize(
    ("word", "verb"),
    [(w, verb) for verb, words in PLAYER_WORDS.items() if verb in VERBS for w in words],
)
def test_each_players_word_names_its_verb_at_the_start_of_a_line(word, verb):
    spec, used = verb_at([*word.upper().split(), "g1"])
    assert spec is not None and spec.name == verb and used == len(word.split())


@pytest.mark.parametrize(
    ("line", "canonical"),
    [
        ("refuse g2 g3 by American", "reject g2 g3 by American"),
        ("decline g2 g3 by American", "reject g2 g3 by American"),
        ("kill a1", "eliminate a1"),
        ("elim a1", "eliminate a1"),
        ("KIA a1 by sniper", "eliminate a1 by sniper"),
        ("release g1", "abandon g1"),
        ("escort off a2", "escort a2"),
        ("hand over g1 to a1", "transfer g1 to a1"),
        ("execute g4 by a1", "massacre g4 by a1"),
        ("withdrawal g1", "withdraw g1"),
    ],
)
def test_a_line_in_the_players_words_reads_as_the_verb(game, line, canonical):
    assert str(parse(line, game.state)) == canonical


def test_a_players_word_cannot_be_asked_for_as_a_handle():
    for words in (ws for verb, ws in PLAYER_WORDS.items() if verb in VERBS):
        for word in (w for w in words if w.isalpha()):
            with pytest.raises(InputRefusal, match="command word"):
                check_new_handle(word)


# ----------------------------------------------------- a word that is not a verb
def test_refuse_alone_is_answered_with_reject_no_quarter_and_its_rule(game):
    with pytest.raises(InputRefusal) as caught:
        parse("refuse", game.state)
    assert "'refuse' is reject H... by SIDE" in str(caught.value)
    assert "No Quarter (A20.3)" in str(caught.value)


@pytest.mark.parametrize(
    ("word", "verbs"),
    [
        ("refusal", ["reject H... by SIDE"]),  # not "did you mean reduce?"
        ("quarter", ["reject H... by SIDE", "massacre H... by G", "nq SIDE"]),
        ("withdrawl", ["withdraw H..."]),
        ("takeover", ["eliminate H"]),
        ("ntc", ["escape H..."]),
        ("surender", ["surrender H... to G"]),
    ],
)
def test_a_word_that_is_not_a_verb_gets_the_verbs_whose_meaning_fits(game, word, verbs):
    with pytest.raises(InputRefusal) as caught:
        parse(f"{word} g2", game.state)
    said = str(caught.value)
    assert said.startswith(f"'{word}' is not a command")
    for usage in verbs:
        assert usage in said
    assert "reduce" not in said


def test_no_quarter_typed_as_a_command_is_answered_as_the_term(game):
    with pytest.raises(InputRefusal) as caught:
        parse("no quarter g2 by American", game.state)
    assert "'no quarter' is not a command (for No Quarter (A20.3): reject H... by SIDE" in str(
        caught.value
    )


def test_a_word_nothing_fits_points_to_help(game):
    with pytest.raises(InputRefusal) as caught:
        parse("frobnicate", game.state)
    assert "help no quarter" in str(caught.value)


# ------------------------------------------------------------------ help
@pytest.mark.parametrize("topic", ["no quarter", "nq", "No Quarter"])
def test_help_on_no_quarter_leads_to_reject_with_an_example(topic):
    text = help_text(topic)
    assert "reject H... by SIDE" in text and VERBS["reject"].example in text
    assert VERBS["massacre"].example in text


def test_help_withdrawal_names_its_verb_and_an_example():
    text = help_text("withdrawal")
    assert text.startswith("withdraw H...") and VERBS["withdraw"].example in text


@pytest.mark.parametrize("term", TERMS, ids=lambda t: t.title)
def test_help_on_every_a20_term_names_its_verbs_and_examples(term):
    for spelling in term.spellings:
        text = help_text(spelling)
        first = VERBS[term.verbs[0]]
        assert first.usage.split()[0] in text and first.example in text, spelling


def test_help_on_a_verb_lists_the_words_players_use_for_it():
    assert "refuse" in help_text("reject") and "KIA" not in help_text("reject")
    assert "kia" in help_text("eliminate")


def test_help_on_an_unknown_topic_is_refused_with_what_fits():
    with pytest.raises(InputRefusal) as caught:
        help_text("refusal")
    assert "reject H... by SIDE" in str(caught.value)


def test_help_takes_a_term_of_several_words_from_a_line(game):
    assert parse("help no quarter", game.state).text().startswith("No Quarter (A20.3)")


# ------------------------------------------------------------------ completion
def test_completion_offers_every_outcome_word_of_escape_before_units_that_do_not_fit(game):
    offered = complete("escape g1 ", game.state)
    outcomes = ["ntcfail", "killed", "guard-dies", "melee", "own-borders"]
    assert offered[: len(outcomes)] == outcomes
    after = complete("escape g1 ntcfail g1 ", game.state)
    assert after[:4] == ["killed", "guard-dies", "melee", "own-borders"]


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("surrender g2 to a1 ", ["disrupted", "encircled", "hob", "mopup", "free", "merge"]),
        ("eliminate a2 ", ["by", "takeover", "keep"]),
        ("rearm g4 ", ["cc", "alone", "surrender"]),
        ("eliminate a2 by ", ["own", "enemy", "cc", "sniper", "rout", "other"]),
    ],
)
def test_completion_offers_every_outcome_word_a_verb_takes(game, line, words):
    offered = complete(line, game.state)
    assert all(w in offered for w in words), (line, offered)


def test_completion_offers_the_players_words_for_the_verbs(game):
    assert complete("refu", game.state) == ["refuse"]  # one word per verb
    assert complete("ki", game.state) == ["kill"]
    assert complete("KIA", game.state) == ["kia"]
    assert complete("tr", game.state) == ["transfer"]  # the verb itself: no other word
    assert complete("", game.state) == list(VERBS)  # an empty line: the verbs alone


def test_completion_of_help_offers_the_a20_terms(game):
    assert "no quarter" in complete("help no", game.state)


def test_completion_after_a_players_phrase_reads_its_verb(game):
    assert complete("escort off ", game.state)[0] == "a2"


@pytest.mark.parametrize("verb", ["escape", "rearm"])
def test_help_on_a_verb_says_what_each_outcome_word_means(verb):
    """A new player met `rearm g1 cc|alone|surrender` and `escape ... guard-dies` with
    no word of what each means: every outcome word has its meaning on its own line."""
    text = help_text(verb)
    spec = VERBS[verb]
    words = [
        w for s in spec.slots if s.kind in (Kind.FLAG, Kind.CHOICE) for w in s.keywords or s.choices
    ]
    assert words
    for word in words:
        line = next(line for line in text.splitlines() if line.strip().startswith(f"{word}:"))
        assert len(line.split(":", 1)[1].split()) >= 3, line  # a meaning, not the word again


def test_by_fire_is_the_players_word_for_enemy_fire(game):
    """`eliminate g2 by fire` was refused "no side 'fire' in this game"."""
    from stockade.core.commands import execute

    execute(game, "phase AFPh")  # fire is made in a fire phase (A7)
    execute(game, "eliminate g2 by fire")
    record = game.records[-1]
    assert isinstance(record, ev.Eliminated)
    assert (record.cause, record.by_side) == ("fire-enemy", "American")
    with pytest.raises(InputRefusal, match="'flak' is neither a cause .*fire.* nor a side"):
        execute(game, "eliminate g3 by flak")


@pytest.mark.parametrize("word", ["new", "no", "up", "of", "to"])
def test_a_short_common_word_is_not_taken_for_a_term_it_is_only_part_of(game, word):
    """'new' is a word of "new guard" (Take over), 'no' of "no quarter": alone, the
    player meant something else, and the answer must not send them to eliminate."""
    with pytest.raises(InputRefusal) as caught:
        parse(word, game.state)
    said = str(caught.value)
    assert said.startswith(f"'{word}' is not a command")
    assert "Take over" not in said and "No Quarter" not in said and "Mopping" not in said


@pytest.mark.parametrize(
    ("word", "term"), [("guard", "Guards"), ("close", "CC capture"), ("casualty", "Casualty")]
)
def test_a_telling_word_of_a_longer_term_still_finds_it(game, word, term):
    with pytest.raises(InputRefusal) as caught:
        parse(word, game.state)
    assert term in str(caught.value)
