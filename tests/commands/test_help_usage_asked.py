"""``help VERB`` in a game shows the verb's usage as that game asks it: a slot that
applies only to some games (escape's own-borders, A20.55 EXC) is listed where it applies
and left out where it cannot, as the escape form does; out of a game it is listed, with
where it applies. One declaration (core/commands/specs_prisoners.py) says both."""

from __future__ import annotations

from stockade.core.book.game import Game
from stockade.core.commands import execute, help_text, verb_named
from stockade.core.model import events as ev


def _help_in(nationalities: tuple[str, str]) -> str:
    game = Game.in_memory("test", [ev.SideSpec(n, n, 3) for n in nationalities])
    return execute(game, "help escape").message


def test_help_escape_leaves_own_borders_out_where_it_cannot_apply() -> None:
    text = _help_in(("German", "Russian"))
    assert text.startswith("escape H...") and "own-borders" not in text, text


def test_help_escape_lists_own_borders_where_it_applies() -> None:
    usage = _help_in(("Hungarian", "Russian")).splitlines()[0]
    assert usage.endswith("[melee] [own-borders]")


def test_help_escape_out_of_a_game_lists_it_and_says_where_it_applies() -> None:
    text = help_text("escape")
    assert text.splitlines()[0].endswith("[own-borders]")
    assert "own-borders: asked only in a game" in text


def test_the_escape_usage_is_not_written_twice() -> None:
    """The declared usage holds the slots every game asks; own-borders comes from its
    slot alone."""
    spec = verb_named("escape")
    assert spec is not None
    assert "own-borders" not in spec.usage
