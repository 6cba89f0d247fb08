"""The control verbs: undo, redo, strike, unstrike, amend (they write control records,
not events), and help (it writes nothing)."""

from __future__ import annotations

import difflib
import re
import shlex
from typing import ClassVar, Self

from stockade.core.commands.command import Command
from stockade.core.commands.grammar import UNIT_HELP, UNITS_HELP, VERBS, Kind, verb_named
from stockade.core.commands.handles import Context
from stockade.core.commands.lexer import Sections
from stockade.core.commands.words import number, one
from stockade.core.model.errors import InputRefusal


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
        words = sections.positional
        command = cls(topic=words[0] if words else "")
        command.text()
        return command

    def text(self) -> str:
        return help_text(self.topic)


def help_text(verb: str = "") -> str:
    if verb.lower() in ("rulings", "ruling"):
        from stockade.core.reads.rulings import rulings_text

        return rulings_text()
    from stockade.core.reads import conformance

    if conformance.is_rule_id(verb):  # help A20.55: that section's requirements
        text = conformance.section_text(verb)
        if text is None:
            raise InputRefusal(f"A20 has no section '{verb}'", "e.g. help A20.55")
        return text
    if verb:
        spec = verb_named(verb)
        if spec is None:
            raise InputRefusal(f"'{verb}' is not a command", did_you_mean(verb))
        aliases = f" (also: {', '.join(spec.aliases)})" if spec.aliases else ""
        lines = [spec.usage, f"  {spec.summary}{aliases}", f"  e.g. {spec.example}"]
        if any(slot.kind is Kind.UNITS for slot in spec.slots):
            lines.append(f"  H...: {UNITS_HELP}")
        filled = [slot for slot in spec.slots if slot.fill_when_single]
        if filled:
            names = " and ".join(slot.called for slot in filled)
            lines.append(
                f"  leave out {names} when the game allows only one: Stockade fills them "
                "in and says so; when it allows several it names them"
            )
        return "\n".join(lines)
    width = max(len(name) for name in VERBS)
    lines = [f"{name.ljust(width)}  {spec.summary}" for name, spec in VERBS.items()]
    return "\n".join(
        lines
        + [
            "",
            "help VERB for one verb; help rulings for Stockade's rulings; "
            "help A20.55 for a section of A20 and how Stockade stands on each sentence",
            f"a unit: {UNIT_HELP}; where a verb takes units (H...): @P4 is the stack "
            "there that fits",
        ]
    )


def did_you_mean(word: str) -> str:
    names = list(VERBS) + [a for spec in VERBS.values() for a in spec.aliases if len(a) > 1]
    close = difflib.get_close_matches(word.lower(), names, n=3, cutoff=0.6)
    return ("did you mean " + " or ".join(close) + "?") if close else "type 'help' for the verbs"
