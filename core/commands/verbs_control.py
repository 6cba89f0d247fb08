"""The control verbs: undo, redo, strike, unstrike, amend (they write control records,
not events), and help (it writes nothing)."""

from __future__ import annotations

import re
import shlex
from typing import ClassVar, Self

import msgspec

from stockade.core.commands.command import Command
from stockade.core.commands.grammar import VERBS, verb_named, words_for
from stockade.core.commands.handles import Context
from stockade.core.commands.lexer import Sections
from stockade.core.commands.meanings import meaning_hint, short_usage, term_named, terms_of
from stockade.core.commands.verb_spec import Kind, VerbSpec
from stockade.core.commands.vocabulary import Term
from stockade.core.commands.words import number, one
from stockade.core.model.columns import laid_out
from stockade.core.model.errors import InputRefusal
from stockade.core.model.state import GameState

# How the player names units, for help (docs/commands.md says the same at length).
UNIT_HELP = (
    "its handle (g1), its counter and Location (4-6-7@P4), or either alone (9-1, @P4) "
    "when only one unit fits"
)
UNITS_HELP = (
    "handles, or units named as the board shows them (4-6-7@P4); @P4 alone is every unit "
    "in P4 this slot may take (all of one side), and the reply lists them"
)


class Control(Command, frozen=True):
    """A verb that acts on the history instead of recording what happened."""

    @classmethod
    def read(cls, ctx: Context, sections: Sections) -> Self:
        words = sections.positional
        if words and not cls.spec().slots:
            raise InputRefusal(
                f"'{cls.verb}' takes nothing more; '{words[0]}' is out of place",
                "to go back to an entry, strike it or undo step by step",
            )
        return super().read(ctx, sections)


class Undo(Control, frozen=True):
    verb: ClassVar[str] = "undo"


class Redo(Control, frozen=True):
    verb: ClassVar[str] = "redo"


class Strike(Control, frozen=True):
    verb: ClassVar[str] = "strike"
    target: int
    reason: str = ""

    @classmethod
    def read(cls, ctx: Context, sections: Sections) -> Self:
        words = sections.positional
        if not words:
            raise InputRefusal("'strike' needs the entry number", cls.spec().example)
        return cls(target=number(words[0], "the entry number"), reason=" ".join(words[1:]))


class Amend(Control, frozen=True):
    """``amend N COMMAND``: COMMAND is read against the game as it stood at entry N's
    place (``core.commands.execute.amend``), not as it stands now."""

    verb: ClassVar[str] = "amend"
    whole_line: ClassVar[bool] = True  # the command's own keywords are its own
    target: int
    line: str

    @classmethod
    def read(cls, ctx: Context, sections: Sections) -> Self:
        words = sections.positional
        if len(words) < 2:
            raise InputRefusal(
                "'amend' needs the entry number and what it should have been",
                cls.spec().example,
            )
        # one word: the line as given whole (quoted); else the words, each read again
        # as it was typed
        line = words[1] if len(words) == 2 else " ".join(map(_quoted, words[1:]))
        command = cls(target=number(words[0], "the entry number"), line=line)
        command.check(ctx)
        return command

    def check(self, ctx: Context) -> None:
        if not self.line.strip():
            raise InputRefusal("'amend' needs what the entry should have been", self.spec().example)


def _quoted(word: str) -> str:
    """``word`` as the lexer reads it back as one word (quoted only when it must be)."""
    return shlex.quote(word) if not word or _SPECIAL.search(word) else word


_SPECIAL = re.compile(r"[\s'\"#\\]")


class Unstrike(Control, frozen=True):
    verb: ClassVar[str] = "unstrike"
    target: int

    @classmethod
    def read(cls, ctx: Context, sections: Sections) -> Self:
        words = sections.positional
        if not words:
            raise InputRefusal("'unstrike' needs the entry number", cls.spec().example)
        target = number(words[0], "the entry number")
        one(words, "entry number", "unstrike")
        return cls(target=target)


class Help(Control, frozen=True):
    """``help``, ``help VERB``, ``help rulings``, ``help A20.55``: refused when the
    topic is unknown, so the bar says so at once."""

    verb: ClassVar[str] = "help"
    topic: str = ""

    @classmethod
    def read(cls, ctx: Context, sections: Sections) -> Self:
        # every word: a term may take several (help no quarter)
        words = sections.positional + [w for ws in sections.keywords.values() for w in ws]
        command = cls(topic=" ".join(words))
        command.text(ctx.state)
        return command

    def text(self, state: GameState | None = None) -> str:
        return help_text(self.topic, state)

    def rows(self, state: GameState | None = None) -> list[HelpRow]:
        return help_rows(self.topic, state)


class HelpRow(msgspec.Struct, frozen=True):
    """One row of the help as a table: a verb (``head``) and what it records, or a
    line of its own (no head) at ``depth`` steps of indent. A screen lays the rows out
    so that a wrapped line goes on under its own text, never back at the margin."""

    text: str
    head: str = ""
    depth: int = 0


def rows_text(rows: list[HelpRow]) -> str:
    """The rows as plain lines (the command line's help, a reply's message): heads in
    a column, each row on one line."""
    head_w = _head_width(rows)
    return "\n".join(_lead(row, head_w) + row.text for row in rows)


def rows_lines(rows: list[HelpRow], width: int) -> list[str]:
    """``rows_text``'s lines for a terminal ``width`` columns wide, each row's text
    wrapped under itself past them (core/model/columns.py)."""
    head_w = _head_width(rows)
    return [line for row in rows for line in laid_out(_lead(row, head_w), row.text, width)]


def _head_width(rows: list[HelpRow]) -> int:
    return max((len(row.head) for row in rows if row.head), default=0)


def _lead(row: HelpRow, head_width: int) -> str:
    """What comes before a row's text: its indent, and its head in the heads' column."""
    return "  " * row.depth + (f"{row.head.ljust(head_width)}  " if row.head else "")


def help_rows(verb: str = "", state: GameState | None = None) -> list[HelpRow]:
    """The help on ``verb`` (all verbs when "") as rows; [] for a topic whose help is
    a text of its own (rulings, a section of A20, an A20 term)."""
    if verb.lower() in ("rulings", "ruling"):
        return []
    from stockade.core.reads import conformance

    if conformance.is_rule_id(verb):
        return []
    return _topic_rows(verb, verb_named(verb) if verb else None, state)


def _topic_rows(verb: str, spec: VerbSpec | None, state: GameState | None) -> list[HelpRow]:
    """``help_rows`` once ``verb`` is known to name no text of its own: ``spec``, the
    verb it names (None: none)."""
    if spec is not None:
        return _verb_rows(spec, state)
    if verb:
        term = term_named(verb)
        if term is not None:
            return term_rows(term)
        from stockade.core.reads.glossary import signs_named

        # a mark the screen shows (help US#, help ⑂): the mark, and what it means
        return [HelpRow(sign.means, sign.mark) for sign in signs_named(verb)]
    rows = [HelpRow(spec.summary, name) for name, spec in VERBS.items()]
    return rows + [
        HelpRow(""),
        HelpRow(
            "help VERB for one verb (each also answers to the words players use: "
            "refuse is reject, KIA is eliminate); help TERM for an A20 term and its verbs "
            "(help no quarter, help withdrawal); help rulings for Stockade's rulings; "
            "help A20.55 for a section of A20 and how Stockade stands on each sentence; "
            "help and a mark the screen shows for what it means (help US#, help ⑂)"
        ),
        HelpRow(
            f"a unit: {UNIT_HELP}; where a verb takes units (H...): @P4 is the stack "
            "there that fits"
        ),
    ]


def help_text(verb: str = "", state: GameState | None = None) -> str:
    """The help on ``verb`` (all verbs when ""); in a game (``state``) a verb's usage is
    as that game asks it."""
    if verb.lower() in ("rulings", "ruling"):
        from stockade.core.reads.rulings import rulings_text

        return rulings_text()
    from stockade.core.reads import conformance

    if conformance.is_rule_id(verb):  # help A20.55: that section's requirements
        text = conformance.section_text(verb)
        if text is None:
            raise InputRefusal(f"A20 has no section '{verb}'", "e.g. help A20.55")
        return text
    spec = verb_named(verb) if verb else None
    rows = _topic_rows(verb, spec, state)
    if verb and spec is None and not rows:  # neither a verb, an A20 term nor a mark
        raise InputRefusal(f"'{verb}' is neither a verb nor an A20 term", meaning_hint(verb))
    return rows_text(rows)


def _verb_rows(spec: VerbSpec, state: GameState | None) -> list[HelpRow]:
    others = words_for(spec)
    aliases = f" (also: {', '.join(others)})" if others else ""
    lines = [f"{spec.summary}{aliases}", f"e.g. {spec.example}"]
    if state is None:
        lines += spec.where_asked()
    rows = [HelpRow(spec.usage_in(state)), *(HelpRow(line, depth=1) for line in lines)]
    rows += _outcome_words(spec, state)
    rows += [HelpRow(line, depth=1) for line in _related(spec)]
    if any(slot.kind is Kind.UNITS for slot in spec.slots):
        rows.append(HelpRow(f"H...: {UNITS_HELP}", depth=1))
    filled = [slot for slot in spec.slots if slot.fill_when_single]
    if filled:
        names = " and ".join(slot.called for slot in filled)
        rows.append(
            HelpRow(
                f"leave out {names} when the game allows only one: Stockade fills them "
                "in and says so; when it allows several it names them",
                depth=1,
            )
        )
    return rows


def term_rows(term: Term) -> list[HelpRow]:
    """An A20 term: the verbs that record it, each with an example."""
    rows = [HelpRow(f"{term.title} ({term.rule}) is recorded with:")]
    for verb in term.verbs:
        spec = VERBS[verb]
        rows += [
            HelpRow(f"{short_usage(spec)}: {spec.summary}", depth=1),
            HelpRow(f"e.g. {spec.example}", depth=2),
        ]
    rows.append(HelpRow(f"help {term.verbs[0]} for the whole of it", depth=1))
    return rows


def _outcome_words(spec: VerbSpec, state: GameState | None = None) -> list[HelpRow]:
    """The words of a verb that say what happened (escape's ntcfail, guard-dies...),
    each with what it means: a flag's or a keyword's label, a choice's meaning (in a
    game, those it asks)."""
    words: list[tuple[str, str]] = []
    for slot in spec.slots_in(state):
        if not (
            slot.kind in (Kind.FLAG, Kind.ONE_OF, Kind.CHOICE, Kind.CAUSE)
            or (slot.keyword and slot.kind is Kind.UNITS)
        ):
            continue
        if slot.keywords:
            meaning = slot.label.replace("(optional)", "").strip()
            words += [(word, meaning) for word in slot.keywords]
        else:
            meanings = slot.meanings or ("",) * len(slot.choices)
            words += list(zip(slot.choices, meanings, strict=True))
    if len(words) < 2:
        return []
    rows = [HelpRow("outcome words:", depth=1)]
    rows += [HelpRow(f"{word}: {meaning}" if meaning else word, depth=2) for word, meaning in words]
    return rows


def _related(spec: VerbSpec) -> list[str]:
    """The A20 terms this verb records, with the other verbs that record them."""
    lines = []
    for term in terms_of(spec.name):
        if len(term.verbs) > 3:
            continue  # a broad heading (Guards & unarmed units): help on it lists them
        others = [VERBS[v] for v in term.verbs if v != spec.name and v in VERBS]
        if others:
            also = "; ".join(f"{short_usage(o)} (e.g. {o.example})" for o in others)
            lines.append(f"{term.title} ({term.rule}) also: {also}")
    return lines
