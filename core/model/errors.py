"""What the core raises when it will not record an entry: a refusal, typed by its kind.

Every refusal is a ``Refusal`` (``except Refusal`` catches them all); its class says
why, so no caller reads a tag:

* ``RuleRefusal``: the rules forbid it; ``rule`` names the rule ("A20.51");
* ``InputRefusal``: the program cannot make sense of what was typed or sent;
* ``HistoryRefusal``: an undo, redo, strike or unstrike with nothing to act on;
* ``LogRefusal``: the log cannot be read or written as asked;
* ``InternalRefusal``: the program failed; the entry is not recorded.

``text`` is one sentence for the player; ``hint`` optionally says what would be
accepted instead.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar, Literal

HistoryAction = Literal["undo", "redo", "strike", "unstrike", "amend"]


class Refusal(Exception):
    """An entry the program will not record: raised as one of the subclasses below
    (tests/architecture/test_refusal_kinds.py checks that no code raises the base class itself)."""

    _KIND: ClassVar[str] = "refusal"

    def __init__(self, rule: str, text: str, hint: str = ""):
        self.rule = rule
        self.text = text
        self.hint = hint
        super().__init__(str(self))

    def __reduce__(self) -> tuple[object, ...]:  # copy and pickle call the constructor
        return (type(self), self._arguments())

    def _arguments(self) -> tuple[str, ...]:
        return (self.rule, self.text, self.hint)

    @property
    def label(self) -> str:
        """What precedes the sentence when it is shown: the rule, or nothing."""
        return self.rule

    @property
    def kind(self) -> str:
        """Its kind as a word, for a program reading the reply (the CLI's JSON
        ``"kind"``): rule, input, history, log or internal."""
        return self._KIND

    def with_hint(self, hint: str) -> Refusal:
        """The same refusal, of the same kind, with ``hint`` (kept when empty)."""
        if not hint:
            return self
        same = copy.copy(self)
        same.hint = hint
        same.args = (str(same),)
        return same

    def row(self) -> tuple[str, list[str]]:
        """Its kind and arguments, as plain data (the snapshot cache keeps it so)."""
        return type(self).__name__, list(self._arguments())

    @staticmethod
    def from_row(kind: str, arguments: list[str]) -> Refusal:
        """The refusal ``row`` gave; KeyError or TypeError if it is not one."""
        made: Refusal = _KINDS[kind](*arguments)
        return made

    def __str__(self) -> str:
        message = f"{self.label}: {self.text}" if self.label else self.text
        return f"{message} ({self.hint})" if self.hint else message


class RuleRefusal(Refusal):
    """The rules forbid the entry: ``rule`` names the rule."""

    _KIND = "rule"


class _Unruled(Refusal):
    """A refusal that no rule makes: its text (and hint) alone."""

    def __init__(self, text: str, hint: str = ""):
        super().__init__("", text, hint)

    def _arguments(self) -> tuple[str, ...]:
        return (self.text, self.hint)


class InputRefusal(_Unruled):
    """A mistake in what was typed or sent (a word, a handle, a number): not a ruling,
    so the player sees the sentence alone."""

    _KIND = "input"


class HistoryRefusal(Refusal):
    """An undo, redo, strike or unstrike that has nothing to act on."""

    _KIND = "history"

    def __init__(self, action: HistoryAction, text: str, hint: str = ""):
        self.action: HistoryAction = action
        super().__init__("", text, hint)

    @property
    def label(self) -> str:
        return self.action

    def _arguments(self) -> tuple[str, ...]:
        return (self.action, self.text, self.hint)


class LogRefusal(_Unruled):
    """The log cannot be read or written as asked (the file, not the game)."""

    _KIND = "log"

    @property
    def label(self) -> str:
        return "log"


class InternalRefusal(_Unruled):
    """The program failed while making the entry; nothing was recorded."""

    _KIND = "internal"

    @property
    def label(self) -> str:
        return "internal"


# Each kind by its class name, for ``Refusal.from_row``.
_KINDS: dict[str, Any] = {
    kind.__name__: kind
    for kind in (RuleRefusal, InputRefusal, HistoryRefusal, LogRefusal, InternalRefusal)
}


def refuse(rule: str, text: str, hint: str = "") -> None:
    raise RuleRefusal(rule, text, hint)


def require(condition: bool, rule: str, text: str, hint: str = "") -> None:
    """Raise a RuleRefusal naming ``rule`` unless ``condition`` holds."""
    if not condition:
        raise RuleRefusal(rule, text, hint)


def refuse_input(text: str, hint: str = "") -> None:
    raise InputRefusal(text, hint)


def require_input(condition: bool, text: str, hint: str = "") -> None:
    """Raise an InputRefusal unless ``condition`` holds."""
    if not condition:
        raise InputRefusal(text, hint)
