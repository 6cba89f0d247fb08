"""The one exception the rules raise: a refusal that names its rule."""

from __future__ import annotations


class Refusal(Exception):
    """An entry the rules forbid, or that the program cannot make sense of.

    ``rule`` is the rulebook reference ("A20.51") or a short tag for input errors
    ("input"); ``text`` is one sentence for the player. ``hint`` optionally says what
    would be accepted instead.
    """

    def __init__(self, rule: str, text: str, hint: str = ""):
        self.rule = rule
        self.text = text
        self.hint = hint
        super().__init__(str(self))

    def __str__(self) -> str:
        # Input mistakes are not rulings: the player sees the sentence, not a tag.
        shown = self.rule and self.rule != "input"
        message = f"{self.rule}: {self.text}" if shown else self.text
        return f"{message} ({self.hint})" if self.hint else message


def refuse(rule: str, text: str, hint: str = "") -> None:
    raise Refusal(rule, text, hint)


def require(condition: bool, rule: str, text: str, hint: str = "") -> None:
    """Raise a Refusal naming ``rule`` unless ``condition`` holds."""
    if not condition:
        raise Refusal(rule, text, hint)
