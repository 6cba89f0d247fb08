"""Splitting a command line into words, and words into a verb's sections.

A command is one line: a verb, its leading words (the *positional* part), then
keyword sections such as ``to a1`` or ``free g3 g4``. Which words are keywords, and
how many words each takes, is the verb's grammar (``core.commands.grammar``); this
module only does the splitting so that every verb reads its line the same way.
"""

from __future__ import annotations

import shlex

import msgspec

from stockade.core.model.errors import InputRefusal

# How many words a keyword takes.
FLAG = "flag"  # none: ``broken``, ``guard-dies``
ONE = "one"  # exactly one: ``to a1``
MANY = "many"  # one or more: ``free g3 g4``


def words(text: str) -> list[str]:
    """The words of a line; quotes group words, ``#`` starts a comment."""
    try:
        return shlex.split(text, comments=True, posix=True)
    except ValueError as exc:  # an unbalanced quote
        raise InputRefusal(
            f"cannot read the line ({exc})", "close the quote, or leave quotes out"
        ) from None


def next_word_start(text: str, at: int) -> int:
    """Where the next word of ``text`` after position ``at`` starts (its end if none).

    A word runs to the next blank, as the command language reads it: a counter
    (4-4-7), a leader (9-1), a handle or a Location is one word, never split at '-'."""
    i = at
    while i < len(text) and not text[i].isspace():
        i += 1
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def previous_word_start(text: str, at: int) -> int:
    """Where the word of ``text`` before position ``at`` starts (or the word ``at`` is
    inside of, when it is not at its start); 0 if none."""
    i = min(at, len(text))
    while i > 0 and text[i - 1].isspace():
        i -= 1
    while i > 0 and not text[i - 1].isspace():
        i -= 1
    return i


def is_blank(text: str) -> bool:
    """Blank lines and ``#`` comment lines are no-ops in the bar and in scripts."""
    stripped = text.strip()
    return not stripped or stripped.startswith("#")


class Sections(msgspec.Struct):
    """A command's words after the verb: the positional part and keyword sections."""

    verb: str
    positional: list[str] = msgspec.field(default_factory=list)
    keywords: dict[str, list[str]] = msgspec.field(default_factory=dict)

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords

    def one(self, keyword: str) -> str | None:
        values = self.keywords.get(keyword)
        return values[0] if values else None

    def many(self, keyword: str) -> list[str]:
        return list(self.keywords.get(keyword, []))


def split_sections(verb: str, tokens: list[str], arity: dict[str, str]) -> Sections:
    """Split ``tokens`` (the words after the verb) by the keywords in ``arity``.

    Keywords match case-insensitively and may each appear once. A keyword's words run
    to the next keyword; the count must fit its arity, so ``to a1 a2`` is refused
    rather than silently dropping ``a2``.
    """
    sections = Sections(verb)
    current: str | None = None
    for token in tokens:
        key = token.lower()
        if key in arity:
            if key in sections.keywords:
                raise InputRefusal(f"'{key}' is given twice in '{verb}'")
            sections.keywords[key] = []
            current = key
        elif current is None:
            sections.positional.append(token)
        else:
            sections.keywords[current].append(token)
    for key, values in sections.keywords.items():
        _check_arity(verb, key, arity[key], values)
    return sections


def _check_arity(verb: str, key: str, kind: str, values: list[str]) -> None:
    if kind == FLAG and values:
        raise InputRefusal(f"'{key}' takes no value; '{values[0]}' is out of place in '{verb}'")
    if kind == ONE and len(values) != 1:
        if not values:
            raise InputRefusal(f"'{key}' needs a value in '{verb}'")
        raise InputRefusal(f"'{key}' takes one value, not {len(values)} ({' '.join(values)})")
    if kind == MANY and not values:
        raise InputRefusal(f"'{key}' needs at least one value in '{verb}'")
