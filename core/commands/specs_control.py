"""The declarations (``grammar.VERBS``) of the verbs that act on the history instead
of recording what happened: undo, redo, strike, amend, unstrike, and help."""

from __future__ import annotations

from stockade.core.commands.verb_spec import Kind, Slot, VerbSpec

CONTROL_SPECS: tuple[VerbSpec, ...] = (
    # --------------------------------------------------------------------- control
    VerbSpec("undo", "undo", "take back the last entry (all it made)", "undo", ("u",)),
    VerbSpec("redo", "redo", "bring back the last undone entry", "redo"),
    VerbSpec(
        "strike",
        "strike N [REASON...]",
        "strike entry N from the history; later entries are checked again",
        "strike 12 it was the HS that surrendered",
        (),
        (
            Slot("target", Kind.NUMBER, label="Entry", required=True),
            Slot("reason", Kind.TEXT, label="Why (optional)"),
        ),
    ),
    VerbSpec(
        "amend",
        "amend N COMMAND...",
        "mend entry N where it stands: COMMAND's event takes its place; later entries "
        "are checked again, those that still hold stay",
        "amend 12 transfer g1 to a3",
        ("fix",),
        (
            Slot("target", Kind.NUMBER, label="Entry", required=True),
            Slot("line", Kind.TEXT, label="What it should have been (a command)", required=True),
        ),
    ),
    VerbSpec(
        "unstrike",
        "unstrike N",
        "bring back a struck entry",
        "unstrike 12",
        (),
        (Slot("target", Kind.NUMBER, label="Entry", required=True),),
    ),
    VerbSpec(
        "help",
        "help [VERB]",
        "list the verbs, or show one verb's usage",
        "help surrender",
        ("?",),
        (Slot("topic", Kind.VERB, label="Verb or rule (optional)"),),
    ),
)
