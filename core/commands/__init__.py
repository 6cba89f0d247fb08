"""The short command language shared by ``stockade do/run`` and the TUI's command bar.

Public API:

* ``execute(game, text) -> Outcome``: parse one line and record it (or undo, redo,
  strike, unstrike); raises ``core.model.errors.Refusal`` naming the rule;
* ``parse(text, state) -> Parsed``: the events a line would record, writing nothing;
* ``VERBS``: every verb's ``VerbSpec(name, usage, summary, example, aliases)``;
* ``complete(text, state) -> list[str]``: completions for the word being typed;
* ``run_script(game, lines) -> list[Outcome]``: stops at the first refusal, raised
  as a ``ScriptRefusal`` whose message starts "line N: ".

The language is described in docs/commands.md.
"""

from stockade.core.commands.complete import complete
from stockade.core.commands.execute import (
    Outcome,
    ScriptRefusal,
    control,
    execute,
    first_attacker,
    run_script,
)
from stockade.core.commands.grammar import VERBS, VerbSpec, verb_named
from stockade.core.commands.parser import Parsed, help_text, parse

__all__ = [
    "execute",
    "parse",
    "complete",
    "run_script",
    "Outcome",
    "Parsed",
    "VERBS",
    "VerbSpec",
    "ScriptRefusal",
    "help_text",
    "verb_named",
    "first_attacker",
    "control",
]
