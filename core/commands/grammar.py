"""Every verb of the command language, declared once (``VERBS``), and how a typed
word finds its verb: by name, shorthand or a player's word.

Each verb's ``VerbSpec`` (``core.commands.verb_spec``) gives its usage, summary,
example, aliases and slots; the tables are by room (``specs_setup``,
``specs_prisoners``, ``specs_victory``, ``specs_control``), read here in that order.

To add a verb: a ``VerbSpec`` in its room's table, a ``Command`` subclass with one field
per slot (``verb`` set to the name), and the class in ``parser.COMMANDS``.
"""

from __future__ import annotations

from stockade.core.commands.specs_control import CONTROL_SPECS
from stockade.core.commands.specs_prisoners import PRISONER_SPECS
from stockade.core.commands.specs_setup import SETUP_SPECS
from stockade.core.commands.specs_victory import VICTORY_SPECS
from stockade.core.commands.verb_spec import CAUSES, NO_TAKEOVER, REARM_HOWS, VerbSpec
from stockade.core.commands.vocabulary import PLAYER_WORDS

_SPECS = (*SETUP_SPECS, *PRISONER_SPECS, *VICTORY_SPECS, *CONTROL_SPECS)


VERBS: dict[str, VerbSpec] = {spec.name: spec for spec in _SPECS}
ALIASES: dict[str, str] = {alias: spec.name for spec in _SPECS for alias in spec.aliases}
CONTROL_VERBS = frozenset({"undo", "redo", "strike", "unstrike", "amend", "help"})

# Words that can never be a handle: every keyword and flag of every verb.
RESERVED_WORDS = frozenset(
    {k for spec in _SPECS for k in spec.arity}
    | set(CAUSES)
    | set(REARM_HOWS)
    | {"at", "as", "broken", "off", NO_TAKEOVER}
)


# The words players use for each verb (``vocabulary.PLAYER_WORDS``): one word or a
# two-word phrase, lower case.
PLAYER_WORD_VERBS: dict[str, str] = {
    word: verb for verb, words in PLAYER_WORDS.items() if verb in VERBS for word in words
}


def verb_named(word: str) -> VerbSpec | None:
    """The verb a typed word (or phrase) names: its name, a shorthand or a player's
    word for it, any case."""
    word = " ".join(word.lower().split())
    return VERBS.get(ALIASES.get(word, PLAYER_WORD_VERBS.get(word, word)))


def verb_at(tokens: list[str]) -> tuple[VerbSpec | None, int]:
    """The verb a line's first words name, and how many words name it: a player's
    two-word phrase ("escort off", "hand over") before a single word."""
    if len(tokens) >= 2:
        phrase = f"{tokens[0]} {tokens[1]}".lower()
        if phrase in PLAYER_WORD_VERBS:
            return VERBS[PLAYER_WORD_VERBS[phrase]], 2
    return (verb_named(tokens[0]), 1) if tokens else (None, 0)


def words_for(spec: VerbSpec) -> tuple[str, ...]:
    """Every other word a verb answers to: its shorthands, then the players' words."""
    return spec.aliases + PLAYER_WORDS.get(spec.name, ())
