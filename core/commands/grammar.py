"""Every verb of the command language: its usage, summary, example and grammar.

One table serves help, completion and parsing: ``positional`` says what the words
right after the verb are, ``keywords`` what each keyword takes. Argument kinds are
strings so the completer can offer the right words:

* ``units:WHICH`` / ``unit:WHICH``: handles, with the WHICH units offered first
  (``prisoner``, ``broken``, ``unarmed``, ``captor``, ``guard``, ``captive``,
  ``squad``, ``any``);
* ``side``, ``counter``, ``loc``, ``int``, ``text``, ``phase``, ``merge``;
* ``choice:a|b|c``: one of these words.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from stockade.core.commands.lexer import FLAG, MANY, ONE
from stockade.core.model import events as ev

CAUSES = ("own", "enemy", "cc", "sniper", "rout", "other")
SURRENDER_REASONS: tuple[ev.SurrenderReason, ...] = ("disrupted", "encircled", "hob", "mopup")
REARM_HOWS: tuple[ev.RearmHow, ...] = ("cc", "alone", "surrender")


@dataclass(frozen=True)
class VerbSpec:
    name: str
    usage: str
    summary: str
    example: str
    aliases: tuple[str, ...] = ()
    positional: str = ""  # argument kind of the words after the verb ("" = none)
    keywords: dict[str, tuple[str, str]] = field(default_factory=dict)  # kw -> (arity, kind)

    @property
    def arity(self) -> dict[str, str]:
        return {key: spec[0] for key, spec in self.keywords.items()}


_MERGE = {"merge": (MANY, "merge")}


def _status(
    name: str, summary: str, example: str, aliases: tuple[str, ...] = (), which: str = "any"
) -> VerbSpec:
    return VerbSpec(
        name, f"{name} H... [off]", summary, example, aliases, f"units:{which}", {"off": (FLAG, "")}
    )


_SPECS = [
    # --------------------------------------------------------------- set-up, clock
    VerbSpec(
        "add",
        "add SIDE COUNTER [sq|hs|crew|leader|hero|smc|vehicle] [xN] [as H] "
        "[+fanatic +commissar +inexperienced +ss +elite +cavalry] [cvp=N] "
        "[COUNTER ...] [at LOC] [broken]; a vehicle by its name: NAME vehicle cvp=N",
        "enter units; several counters may follow one side",
        "add German 4-6-7 2-4-7 hs 9-1 at Q4 broken",
        ("a",),
        "side",
    ),
    VerbSpec("next", "next", "next phase (after the CCPh: the next Player Turn)", "next", ("n",)),
    VerbSpec("prev", "prev", "previous phase", "prev", ("p",)),
    VerbSpec(
        "skip",
        "skip",
        "on to the next phase where A20 has something waiting (else the next Player Turn)",
        "skip",
    ),
    VerbSpec("turn", "turn", "start the next Player Turn (RPh, the other side attacking)", "turn"),
    VerbSpec(
        "phase",
        "phase NAME [TURN] [SIDE]",
        "set the phase (and Game Turn, ATTACKER)",
        "phase RtPh",
        (),
        "phase",
    ),
    _status("break", "mark units broken ('break H off' rallies)", "break g1 g2", which="active"),
    _status("rally", "rally broken units", "rally g1", which="broken"),
    _status("pin", "mark units pinned", "pin a2", which="active"),
    _status("unpin", "clear pinned", "unpin a2", which="active"),
    _status("berserk", "mark units berserk", "berserk r3", which="active"),
    _status("disrupt", "mark units Disrupted (A19.12)", "disrupt i2", which="active"),
    _status("melee", "put units in Melee ('melee H off' ends it)", "melee a1 g2", which="active"),
    VerbSpec(
        "move",
        "move H... LOC",
        "set where units are (prisoners move with their Guard)",
        "move a1 R5",
        ("mv",),
        "units:active",
    ),
    VerbSpec(
        "nq",
        "nq SIDE [REASON...]",
        "a side is under No Quarter by SSR (A20.3)",
        "nq Russian SSR 2",
        (),
        "side",
    ),
    VerbSpec("end", "end", "end the game: prisoners still guarded count double", "end"),
    # --------------------------------------------------------------------- capture
    VerbSpec(
        "surrender",
        "surrender H... to G [disrupted|encircled|hob|mopup] [free H...] [merge H+H[=NEW] ...] "
        '[because "WHY THE OTHERS DO NOT"]',
        "a stack surrenders (A20.21, A19.12, A15.5, A12.153)",
        "surrender g1 g2 g3 to a1 free g3",
        ("sur",),
        "units:broken",
        {
            "to": (ONE, "unit:captor"),
            "free": (MANY, "units:broken"),
            "because": (MANY, "text"),
            **{r: (FLAG, "") for r in SURRENDER_REASONS},
            **_MERGE,
        },
    ),
    VerbSpec(
        "reject",
        'reject H... by SIDE [because "WHY THE OTHERS DO NOT"]',
        "refuse a surrender: No Quarter (A20.3)",
        "reject g1 g2 by American",
        (),
        "units:broken",
        {"by": (ONE, "side"), "because": (MANY, "text")},
    ),
    VerbSpec(
        "capture",
        "capture [H...] [hs SQUAD[=COUNTER]] by G [as COUNTER] [merge H+H ...]",
        "CC capture: all named units, or one HS of a squad (A20.22); an unarmed captor "
        "rearms (A20.551), as COUNTER where the table has none",
        "capture g4 hs g5=2-4-7 by a2",
        ("cap",),
        "units:active",
        {
            "by": (ONE, "unit:captor"),
            "hs": (ONE, "unit:squad"),
            "as": (ONE, "counter"),
            **_MERGE,
        },
    ),
    VerbSpec(
        "mutual",
        "mutual H... [H=COUNTER ...]",
        "simultaneous CC wipe-out: the remaining units rearm (A20.221)",
        "mutual g7 a3=5-4-6",
        (),
        "units:prisoner",
    ),
    VerbSpec(
        "recapture",
        "recapture H... by G [merge H+H ...]",
        "retake free unarmed units (A20.54)",
        "recapture g6 by a3",
        (),
        "units:unarmed",
        {"by": (ONE, "unit:captor"), **_MERGE},
    ),
    # ---------------------------------------------------------------------- guards
    VerbSpec(
        "transfer",
        "transfer H... to G [merge H+H ...]",
        "hand prisoners to another unit in the Location (A20.5)",
        "transfer g1 g2 to a4",
        ("tr",),
        "units:prisoner",
        {"to": (ONE, "unit:captor"), **_MERGE},
    ),
    VerbSpec(
        "exchange",
        "exchange H H [as NEW]",
        "two prisoner HS become one squad (A20.51)",
        "exchange g2 g3",
        ("ex",),
        "units:prisoner",
        {"as": (ONE, "")},
    ),
    VerbSpec(
        "split",
        "split H [as NEW NEW]",
        "a prisoner squad becomes two HS",
        "split g1",
        (),
        "units:prisoner",
        {"as": (MANY, "")},
    ),
    VerbSpec(
        "deploy",
        "deploy G [COUNTER [COUNTER]] [as NEW NEW] [P=1|2 ...]",
        "a Guard squad deploys into two HS; P=2 sends prisoner P to the second",
        "deploy a1 2-4-6 g3=2",
        (),
        "unit:squad",
        {"as": (MANY, "")},
    ),
    VerbSpec(
        "abandon",
        "abandon H...",
        "free prisoners as abandoned Unarmed units (A20.5)",
        "abandon g1",
        (),
        "units:prisoner",
    ),
    VerbSpec(
        "escort",
        "escort G",
        "Guard and prisoners leave by a Friendly Board Edge (A20.53)",
        "escort a1",
        (),
        "unit:guard",
    ),
    # ---------------------------------------------------------------------- losses
    VerbSpec(
        "eliminate",
        "eliminate H [by own|enemy|cc|sniper|rout|other|SIDE] [takeover G|takeover -] [keep H...]",
        "a unit is eliminated; a Guard's prisoners pass on or go free (A20.5)",
        "eliminate a1 by sniper takeover a2",
        ("elim", "kill"),
        "unit:any",
        {"by": (ONE, "cause"), "takeover": (ONE, "unit:captor"), "keep": (MANY, "units:prisoner")},
    ),
    VerbSpec(
        "reduce",
        "reduce H [by own|enemy|SIDE] [to COUNTER] [lost H]",
        "Casualty Reduction (A7.302, A20.54)",
        "reduce g1 by own",
        ("cr",),
        "unit:captive",
        {"by": (ONE, "cause"), "to": (ONE, "counter"), "lost": (ONE, "")},
    ),
    VerbSpec(
        "massacre",
        "massacre H... by G",
        "eliminate unarmed units in the Location (A20.4)",
        "massacre g1 g2 by r1",
        (),
        "units:captive",
        {"by": (ONE, "unit:active")},
    ),
    # ---------------------------------------------------------------------- escape
    VerbSpec(
        "escape",
        "escape H... [ntcfail H...] [killed H...] [guard-dies] [melee] [own-borders]",
        "prisoners attack their Guard in the CCPh (A20.55)",
        "escape g1 g2 ntcfail g2 guard-dies",
        ("esc",),
        "units:prisoner",
        {
            "ntcfail": (MANY, "units:prisoner"),
            "killed": (MANY, "units:prisoner"),
            "guard-dies": (FLAG, ""),
            "melee": (FLAG, ""),
            "own-borders": (FLAG, ""),
        },
    ),
    VerbSpec(
        "withdraw",
        "withdraw H...",
        "prisoners withdraw from Melee: escaped (A11.2)",
        "withdraw g1",
        (),
        "units:prisoner",
    ),
    VerbSpec(
        "infiltrate",
        "infiltrate H...",
        "prisoners infiltrate out of Melee (A11.22)",
        "infiltrate g1",
        (),
        "units:prisoner",
    ),
    VerbSpec(
        "guard-infiltrates",
        "guard-infiltrates G",
        "the Guard infiltrates away; its prisoners escape (Example 16)",
        "guard-infiltrates a1",
        ("gi",),
        "unit:guard",
    ),
    VerbSpec(
        "rearm",
        "rearm H cc|alone|surrender ENEMY [as COUNTER]",
        "an unarmed unit rearms (A20.551)",
        "rearm g1 cc a3",
        (),
        "unit:unarmed",
        {"as": (ONE, "counter")},
    ),
    VerbSpec(
        "scrounge",
        "scrounge H DR [wreck] [as COUNTER]",
        "a Scrounging DR at the end of the MPh (A20.552)",
        "scrounge g1 2",
        (),
        "unit:unarmed",
        {"wreck": (FLAG, ""), "as": (ONE, "counter")},
    ),
    # --------------------------------------------------------------------- control
    VerbSpec("undo", "undo", "take back the last entry (all it made)", "undo", ("u",)),
    VerbSpec("redo", "redo", "bring back the last undone entry", "redo"),
    VerbSpec(
        "strike",
        "strike N [REASON...]",
        "strike entry N from the history; later entries are checked again",
        "strike 12 it was the HS that surrendered",
        (),
        "int",
    ),
    VerbSpec("unstrike", "unstrike N", "bring back a struck entry", "unstrike 12", (), "int"),
    VerbSpec(
        "help",
        "help [VERB]",
        "list the verbs, or show one verb's usage",
        "help surrender",
        ("?",),
        "verb",
    ),
]

VERBS: dict[str, VerbSpec] = {spec.name: spec for spec in _SPECS}
ALIASES: dict[str, str] = {alias: spec.name for spec in _SPECS for alias in spec.aliases}
CONTROL_VERBS = frozenset({"undo", "redo", "strike", "unstrike", "help"})

# Words that can never be a handle: every keyword and flag of every verb.
RESERVED_WORDS = frozenset(
    {k for spec in _SPECS for k in spec.keywords}
    | set(CAUSES)
    | set(REARM_HOWS)
    | {"at", "as", "broken", "off", "-"}
)


def verb_named(word: str) -> VerbSpec | None:
    """The verb a typed word names: its name or an alias, any case."""
    word = word.lower()
    return VERBS.get(ALIASES.get(word, word))
