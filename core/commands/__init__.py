"""The short command language shared by ``stockade do/run`` and the TUI's command bar.

Public API:

* ``execute(game, command_or_text) -> Outcome``: record one ``Command`` (or a line)
  (or undo, redo, strike, unstrike); raises ``core.model.errors.Refusal`` naming the rule;
* ``parse(text, state) -> Command``: what a line means, one typed value per verb;
  ``str(command)`` is its canonical line;
* ``plan(command_or_text, state) -> Parsed``: the events it would record, writing nothing;
* ``VERBS``: every verb's ``VerbSpec``: usage, summary, example, aliases and slots
  (fields, their kinds and the core queries that fill their pickers), declared once
  and read by the parser, ``help``, completion and the TUI's forms;
* ``COMMANDS``: every verb's ``Command`` class; ``fill.from_fields(verb, values,
  state)`` builds one from a form's fields (slot name -> value), never from text;
* ``complete(text, state) -> list[str]``: completions for the word being typed;
* ``offers.offers(state) -> list[Offer]``: the A20 entries that may happen now, as
  commands ready to complete (what the empty command bar lists);
* ``vocabulary``: the words players use for each verb and the A20 terms with the
  verbs that record them (the parser, ``help``, completion and ``meanings`` read it);
* ``run_script(game, lines) -> list[Outcome]``: stops at the first refusal, raised
  as a ``ScriptRefusal`` whose message starts "line N: "; ``script_outcomes``: the
  same a line at a time, nothing kept (``stockade run``);

The language is described in docs/commands.md.
"""

from stockade.core.commands.command import Command
from stockade.core.commands.complete import complete
from stockade.core.commands.execute import (
    Outcome,
    ScriptRefusal,
    control,
    execute,
    first_attacker,
    run_script,
    script_outcomes,
    told,
)
from stockade.core.commands.grammar import VERBS, verb_named
from stockade.core.commands.parser import COMMANDS, Parsed, help_text, parse, plan, writes_nothing
from stockade.core.commands.verb_spec import Kind, Slot, VerbSpec

__all__ = [
    "writes_nothing",
    "execute",
    "parse",
    "plan",
    "Command",
    "COMMANDS",
    "Kind",
    "Slot",
    "complete",
    "run_script",
    "script_outcomes",
    "Outcome",
    "Parsed",
    "VERBS",
    "VerbSpec",
    "ScriptRefusal",
    "help_text",
    "verb_named",
    "first_attacker",
    "told",
    "control",
]
