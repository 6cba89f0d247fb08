"""What a word means when it is not a verb: the verbs whose meaning fits it.

A word is looked up among the A20 terms (``vocabulary.TERMS``: "quarter" is part of
No Quarter, recorded by ``reject``, ``massacre`` and ``nq``), then by its spelling
among every verb, shorthand, player's word and term ("refuze" is "refuse", which is
``reject``). The answer names each verb with its short usage and what it records,
so that a player who types "refusal" learns ``reject H... by SIDE`` and its rule,
not only the nearest spelling.
"""

from __future__ import annotations

import difflib

import msgspec

from stockade.core.commands.grammar import ALIASES, PLAYER_WORD_VERBS, VERBS
from stockade.core.commands.verb_spec import VerbSpec
from stockade.core.commands.vocabulary import TERMS, Term

_MOST = 3  # verbs named in one answer


class Meaning(msgspec.Struct, frozen=True):
    """A verb that fits a word, and what made it fit (the term, or the word it was
    taken to be)."""

    spec: VerbSpec
    term: Term | None = None
    like: str = ""  # the word it was taken for ("refuse" for "refuze")

    @property
    def text(self) -> str:
        return f"{short_usage(self.spec)}: {self.spec.summary}"


def short_usage(spec: VerbSpec) -> str:
    """The usage up to its first optional part: ``reject H... by SIDE``."""
    return spec.usage.split(" [")[0].split(";")[0].strip()


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def term_named(text: str) -> Term | None:
    """The term ``text`` spells exactly ("no quarter", "nq", "withdrawal")."""
    text = _norm(text)
    return next((t for t in TERMS if text in t.spellings), None)


def terms_of(verb: str) -> list[Term]:
    """The terms a verb records, in the order of the table."""
    return [t for t in TERMS if verb in t.verbs]


_TELLING = 4  # letters from which a word alone says which term it is part of


def _terms_with(text: str) -> list[Term]:
    """Terms one of whose spellings is ``text``, or, from four letters on, holds it as
    a word or begins one with it ("withdraw" begins "withdrawal", "casualty" is a word
    of Casualty Reduction). A shorter word of a longer spelling says nothing alone:
    "new" of "new guard", "no" of "no quarter" are every phrase's words, and a player
    who types "new" means something else than Take over."""
    out = []
    for term in TERMS:
        for spelling in term.spellings:
            words = spelling.split()
            if text == spelling or (
                len(text) >= _TELLING and any(w.startswith(text) for w in words)
            ):
                out.append(term)
                break
    return out


def _spellings() -> dict[str, list[str]]:
    """Every spelling a word may be taken for, with the verbs it leads to."""
    out: dict[str, list[str]] = {name: [name] for name in VERBS}
    for word, verb in {**ALIASES, **PLAYER_WORD_VERBS}.items():
        if len(word) > 1:
            out.setdefault(word, []).append(verb)
    for term in TERMS:
        for spelling in term.spellings:
            out.setdefault(spelling, []).extend(term.verbs)
    return out


def meanings(text: str) -> list[Meaning]:
    """The verbs whose meaning fits ``text`` (a word or a phrase), the likeliest first."""
    text = _norm(text)
    found: dict[str, Meaning] = {}

    def add(verb: str, term: Term | None = None, like: str = "") -> None:
        if verb in VERBS and verb not in found:
            found[verb] = Meaning(VERBS[verb], term, like)

    exact = term_named(text)
    for term in [exact] if exact else _terms_with(text):
        for verb in term.verbs:
            add(verb, term)
    spellings = _spellings()
    for close in difflib.get_close_matches(text, list(spellings), n=4, cutoff=0.75):
        for verb in spellings[close]:
            add(verb, term_named(close), close)
    return list(found.values())


def meaning_hint(word: str) -> str:
    """The answer to a word that is not a verb: the verbs that fit, or where to look."""
    fits = meanings(word)[:_MOST]
    if not fits:
        return "type 'help' for the verbs, or 'help' and an A20 term (help no quarter)"
    first = fits[0]
    about = (
        f"{first.term.title} ({first.term.rule})"
        if first.term is not None
        else f"'{first.like}'"
        if first.like and first.like != first.spec.name
        else ""
    )
    lead = f"for {about}: " if about else "did you mean: "
    return lead + "; ".join(m.text for m in fits)


def said_as(said: str, spec: VerbSpec) -> str:
    """How a player's word was read: ``'refuse' is reject H... by SIDE (...)``."""
    return f"'{said}' is {short_usage(spec)}: {spec.summary}"
