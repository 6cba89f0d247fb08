"""Every verb of the command language, declared once: usage, summary, example, aliases
and its slots.

A ``Slot`` is one field of the verb's ``Command`` (``core.commands.command``): its
name, what it holds (``Kind``), the keyword that introduces it ("" for the words right
after the verb), which units it offers first, its label in a form and the core query
that fills its picker. The parser splits a line by these keywords and reads each slot
by its kind; ``str(command)`` writes the slots back in this order; ``help``, completion
and the TUI's forms read the same table.

To add a verb: a ``VerbSpec`` here, a ``Command`` subclass with one field per slot
(``verb`` set to the name), and the class in ``parser.COMMANDS``.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum

import msgspec

from stockade.core.commands import picks as p
from stockade.core.commands.lexer import FLAG, MANY, ONE
from stockade.core.commands.vocabulary import PLAYER_WORDS
from stockade.core.model import events as ev
from stockade.core.model.state import GameState
from stockade.core.rules.escape import own_borders_asked

# ``by WORD`` of an elimination; "fire" is the players' word for enemy fire
CAUSES = ("own", "enemy", "fire", "cc", "sniper", "rout", "other")
SURRENDER_REASONS: tuple[ev.SurrenderReason, ...] = ("disrupted", "encircled", "hob", "mopup")
REARM_HOWS: tuple[ev.RearmHow, ...] = ("cc", "alone", "surrender")
NO_TAKEOVER = "-"
# A word "@P4" in a units slot (H...) names the stack in P4: every unit there the slot
# offers. "@" marks it, so a Location never reads as a handle ("p4" of the Poles).
STACK_MARK = "@"

# How the player names units, for help (docs/commands.md says the same at length).
UNIT_HELP = (
    "its handle (g1), its counter and Location (4-6-7@P4), or either alone (9-1, @P4) "
    "when only one unit fits"
)
UNITS_HELP = (
    "handles, or units named as the board shows them (4-6-7@P4); @P4 alone is every unit "
    "in P4 this slot may take (all of one side), and the reply lists them"
)


class Kind(Enum):
    """What a slot holds, so that each reader, writer, completer and form knows it."""

    UNIT = "unit"  # one handle of a unit in the game
    UNITS = "units"  # one or more handles
    SIDE = "side"  # a side's name
    COUNTER = "counter"  # a counter as printed: 4-6-7
    COUNTERS = "counters"  # add's counters with their words; deploy's HS counters
    LOCATION = "loc"  # a hex or Location as the board names it
    NUMBER = "int"  # a whole number
    TEXT = "text"  # free words
    WORD = "word"  # one word as typed
    FLAG = "flag"  # a keyword alone: on or off
    ONE_OF = "one-of"  # one of ``choices``, each a keyword alone (surrender's reason)
    CHOICE = "choice"  # one word of ``choices`` in its place
    CAUSE = "cause"  # a cause word or a side's name
    TAKEOVER = "takeover"  # a unit, or "-" for nobody
    PHASE = "phase"  # a phase's name
    MERGES = "merge"  # H+H[=NEW] pairs
    NEW_HANDLE = "new"  # a handle for a counter the command makes
    NEW_HANDLES = "news"  # two of them
    PAIR = "pair"  # one H or H=COUNTER
    ASSIGN = "assign"  # H or H=COUNTER, one or more
    VERB = "verb"  # a verb, a rule or "rulings" (help's topic)


_MANY_KINDS = frozenset(
    {Kind.UNITS, Kind.COUNTERS, Kind.TEXT, Kind.MERGES, Kind.NEW_HANDLES, Kind.ASSIGN}
)
_UNIT_KINDS = frozenset({Kind.UNIT, Kind.UNITS, Kind.TAKEOVER, Kind.PAIR, Kind.ASSIGN})


class Slot(msgspec.Struct, frozen=True):
    name: str  # the Command's field
    kind: Kind
    keyword: str = ""  # "" = the words right after the verb
    label: str = ""  # what a form calls it; "(optional)" in it when it may stay empty
    which: str = "any"  # the units offered first (a key of ``picks.UNIT_FILTERS``)
    picks: p.Picks | None = None  # the core query for its picker; None: the ``which`` filter
    required: bool = False
    choices: tuple[str, ...] = ()  # CHOICE / ONE_OF: the words it takes
    meanings: tuple[str, ...] = ()  # what each of ``choices`` says happened, in order
    # Required, yet a line may leave it out when the game allows only one value: the
    # parser fills it from ``choices`` / ``picks`` (``command.fill_left_out``). Only a
    # trailing positional slot can be seen to be missing, so only those take it.
    fill_when_single: bool = False
    # Whether the slot's question applies to this game at all (None: always); a form
    # shows the field only where it does.
    asked: Callable[[GameState], bool] | None = None

    @property
    def arity(self) -> str:
        if self.kind in (Kind.FLAG, Kind.ONE_OF):
            return FLAG
        return MANY if self.kind in _MANY_KINDS else ONE

    @property
    def is_unit(self) -> bool:
        return self.kind in _UNIT_KINDS

    @property
    def keywords(self) -> tuple[str, ...]:
        """The words that introduce this slot on a line."""
        if self.kind is Kind.ONE_OF:
            return self.choices
        return (self.keyword,) if self.keyword else ()

    @property
    def called(self) -> str:
        """The slot as a reply or help names it: "how", "armed enemy"."""
        return (self.label.split(" (")[0] or self.name).lower().removeprefix("the ")

    def offers(self) -> p.Picks:
        """The list a picker shows for this slot (a unit slot)."""
        return self.picks or p.plain(self.which)


class VerbSpec(msgspec.Struct, frozen=True):
    name: str
    usage: str
    summary: str
    example: str
    aliases: tuple[str, ...] = ()
    slots: tuple[Slot, ...] = ()

    @property
    def arity(self) -> dict[str, str]:
        """How many words each keyword takes, for splitting a line into sections."""
        return {word: slot.arity for slot in self.slots for word in slot.keywords}

    @property
    def keyword_slots(self) -> dict[str, Slot]:
        return {word: slot for slot in self.slots for word in slot.keywords}

    @property
    def positional(self) -> tuple[Slot, ...]:
        """The slots read from the words right after the verb, in order."""
        return tuple(s for s in self.slots if not s.keywords)

    def slot(self, name: str) -> Slot:
        return next(s for s in self.slots if s.name == name)


def _merge(label: str = "Exchange HS pairs into squads (optional)") -> Slot:
    return Slot("merges", Kind.MERGES, "merge", label, which="prisoner")


def _because() -> Slot:
    return Slot("because", Kind.TEXT, "because", "Why the others do not (optional)")


def _status(
    name: str, summary: str, example: str, aliases: tuple[str, ...] = (), which: str = "any"
) -> VerbSpec:
    return VerbSpec(
        name,
        f"{name} H... [off]",
        summary,
        example,
        aliases,
        (
            Slot("units", Kind.UNITS, label="Units", which=which, required=True),
            Slot("off", Kind.FLAG, "off", "off: clear it"),
        ),
    )


def _units(name: str, label: str, which: str, picks: p.Picks | None = None) -> Slot:
    return Slot(name, Kind.UNITS, label=label, which=which, picks=picks, required=True)


def _unit(name: str, label: str, which: str, picks: p.Picks | None = None) -> Slot:
    return Slot(name, Kind.UNIT, label=label, which=which, picks=picks, required=True)


_SPECS = [
    # --------------------------------------------------------------- set-up, clock
    VerbSpec(
        "add",
        "add SIDE COUNTER [sq|hs|crew|leader|hero|smc|vehicle] [xN] [as H] "
        "[+fanatic +commissar +inexperienced +ss +elite +cavalry] [cvp=N] "
        "[COUNTER ...] [[at] LOC] [broken]; several Locations: each ends the counters "
        "placed there; a vehicle by its name: NAME vehicle cvp=N",
        "enter units; several counters, in one or several Locations, may follow one side",
        "add German 4-6-7 2-4-7 hs 9-1 at Q4 broken",
        ("a",),
        (
            Slot("side", Kind.SIDE, label="Side", required=True),
            Slot("counters", Kind.COUNTERS, label="Counters", required=True),
            Slot("at", Kind.LOCATION, "at", "Location (optional)"),
            Slot("broken", Kind.FLAG, "broken", "broken"),
        ),
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
        (
            Slot("phase", Kind.PHASE, label="Phase", required=True),
            Slot("turn", Kind.NUMBER, label="Game Turn (optional)"),
            Slot("attacker", Kind.SIDE, label="ATTACKER (optional)"),
        ),
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
        (
            _units("units", "Units", "active"),
            Slot("to", Kind.LOCATION, label="To the Location", required=True),
        ),
    ),
    VerbSpec(
        "nq",
        "nq SIDE [REASON...]",
        "a side is under No Quarter by SSR (A20.3)",
        "nq Russian SSR 2",
        (),
        (
            Slot("side", Kind.SIDE, label="Side under No Quarter", required=True),
            Slot("reason", Kind.TEXT, label="Why (optional: SSR)"),
        ),
    ),
    VerbSpec(
        "end",
        "end [now]",
        "end the game: prisoners still guarded count double; the clock goes on to this "
        "Player Turn's CCPh, where a scenario ends ('now': it ends in this phase)",
        "end",
        (),
        (Slot("now", Kind.FLAG, "now", "now: it ends in this phase (sudden death)"),),
    ),
    # --------------------------------------------------------------------- capture
    VerbSpec(
        "surrender",
        "surrender H... to G [disrupted|encircled|hob|mopup] [free H...] [merge H+H[=NEW] ...] "
        '[because "WHY THE OTHERS DO NOT"]',
        "a stack surrenders (A20.21, A19.12, A15.5, A12.153)",
        "surrender g1 g2 g3 to a1 free g3",
        ("sur",),
        (
            _units("units", "Surrendering units", "broken", p.surrendering_units),
            Slot(
                "to",
                Kind.UNIT,
                "to",
                "Captor (the new Guard)",
                which="captor",
                required=True,
                picks=p.surrender_captors,
            ),
            Slot("reason", Kind.ONE_OF, label="Why", choices=SURRENDER_REASONS),
            Slot(
                "free",
                Kind.UNITS,
                "free",
                "Free as Unarmed (over the captor's capacity; optional)",
                which="broken",
                picks=p.surrendering_among,
            ),
            _merge(),
            _because(),
        ),
    ),
    VerbSpec(
        "reject",
        'reject H... by SIDE [because "WHY THE OTHERS DO NOT"]',
        "refuse a surrender: No Quarter (A20.3)",
        "reject g1 g2 by American",
        (),
        (
            _units("units", "Units whose surrender is rejected", "broken"),
            Slot("by", Kind.SIDE, "by", "Rejected by", required=True),
            _because(),
        ),
    ),
    VerbSpec(
        "capture",
        "capture [H...] [hs SQUAD[=COUNTER]] by G [as COUNTER] [merge H+H ...]",
        "CC capture: all named units, or one HS of a squad (A20.22); an unarmed captor "
        "rearms (A20.551), as COUNTER where the table has none",
        "capture g4 hs g5=2-4-7 by a2",
        ("cap",),
        (
            Slot(
                "units",
                Kind.UNITS,
                label="Defenders captured whole",
                which="active",
                picks=p.capture_defenders,
            ),
            Slot("hs", Kind.PAIR, "hs", "One HS of this squad (optional)", which="squad"),
            Slot(
                "by",
                Kind.UNIT,
                "by",
                "Attacker (the new Guard)",
                which="captor",
                required=True,
                picks=p.capture_attackers,
            ),
            Slot("as_", Kind.COUNTER, "as", "Counter an unarmed captor becomes (optional)"),
            _merge(),
        ),
    ),
    VerbSpec(
        "mutual",
        "mutual H... [H=COUNTER ...]",
        "simultaneous CC wipe-out: the remaining units rearm (A20.221)",
        "mutual g7 a3=5-4-6",
        (),
        (Slot("units", Kind.ASSIGN, label="Every unit left", which="prisoner", required=True),),
    ),
    VerbSpec(
        "recapture",
        "recapture H... by G [merge H+H ...]",
        "retake free unarmed units (A20.54)",
        "recapture g6 by a3",
        (),
        (
            _units("units", "Unarmed units recaptured", "unarmed"),
            Slot(
                "by",
                Kind.UNIT,
                "by",
                "By (the new Guard)",
                which="captor",
                required=True,
                picks=p.recapture_guards,
            ),
            _merge(),
        ),
    ),
    # ---------------------------------------------------------------------- guards
    VerbSpec(
        "transfer",
        "transfer H... to G [merge H+H ...]",
        "hand prisoners to another unit in the Location (A20.5)",
        "transfer g1 g2 to a4",
        ("tr",),
        (
            _units("units", "Prisoners", "prisoner"),
            Slot(
                "to",
                Kind.UNIT,
                "to",
                "To the new Guard",
                which="captor",
                required=True,
                picks=p.transfer_guards,
            ),
            _merge(),
        ),
    ),
    VerbSpec(
        "exchange",
        "exchange H H [as NEW]",
        "two prisoner HS become one squad (A20.51)",
        "exchange g2 g3",
        ("ex",),
        (
            _units("units", "Two prisoner HS", "prisoner"),
            Slot("as_", Kind.NEW_HANDLE, "as", "New handle (optional)"),
        ),
    ),
    VerbSpec(
        "split",
        "split H [as NEW NEW]",
        "a prisoner squad becomes two HS",
        "split g1",
        (),
        (
            _unit("unit", "Prisoner squad", "prisoner"),
            Slot("as_", Kind.NEW_HANDLES, "as", "New handles (optional)"),
        ),
    ),
    VerbSpec(
        "deploy",
        "deploy G [COUNTER [COUNTER]] [as NEW NEW] [P=1|2 ...]",
        "a Guard squad deploys into two HS; P=2 sends prisoner P to the second",
        "deploy a1 2-4-6 g3=2",
        (),
        (
            _unit("unit", "Guard squad", "squad", p.plain("squad", first="guard")),
            Slot("counters", Kind.COUNTERS, label="HS counters (optional)"),
            Slot("assign", Kind.ASSIGN, label="Prisoners for the second HS (optional)"),
            Slot("as_", Kind.NEW_HANDLES, "as", "New handles (optional)"),
        ),
    ),
    VerbSpec(
        "abandon",
        "abandon H...",
        "free prisoners as abandoned Unarmed units (A20.5)",
        "abandon g1",
        (),
        (_units("units", "Prisoners", "prisoner"),),
    ),
    VerbSpec(
        "escort",
        "escort G",
        "Guard and prisoners leave by a Friendly Board Edge (A20.53)",
        "escort a1",
        (),
        (_unit("unit", "Guard", "guard"),),
    ),
    # ---------------------------------------------------------------------- losses
    VerbSpec(
        "eliminate",
        "eliminate H [by own|enemy|fire|cc|sniper|rout|other|SIDE] [takeover G|takeover -] "
        "[keep H...]",
        "a unit is eliminated; a Guard's prisoners pass on or go free (A20.5)",
        "eliminate a1 by sniper takeover a2",
        ("elim",),
        (
            _unit("unit", "Unit", "any", p.plain("any", first="guard")),
            Slot("by", Kind.CAUSE, "by", "Cause (optional)", choices=CAUSES),
            Slot(
                "takeover",
                Kind.TAKEOVER,
                "takeover",
                "New Guard (if a Guard dies)",
                which="captor",
                picks=p.takeover_guards,
            ),
            Slot(
                "keep",
                Kind.UNITS,
                "keep",
                "Prisoners the new Guard keeps (optional: if not all)",
                which="prisoner",
                picks=p.prisoners_of_guard,
            ),
        ),
    ),
    VerbSpec(
        "reduce",
        "reduce H [by own|enemy|SIDE] [to COUNTER] [lost H]",
        "Casualty Reduction (A7.302, A20.54)",
        "reduce g1 by own",
        ("cr",),
        (
            _unit("unit", "Unit hit", "captive", p.plain("any", first="captive")),
            Slot("by", Kind.CAUSE, "by", "Whose fire (optional)", choices=("enemy", "own")),
            Slot("to", Kind.COUNTER, "to", "Counter after reduction (optional)"),
            Slot("lost", Kind.WORD, "lost", "The HS lost, of a merged squad (optional)"),
        ),
    ),
    VerbSpec(
        "massacre",
        "massacre H... by G",
        "eliminate unarmed units in the Location (A20.4)",
        "massacre g1 g2 by r1",
        (),
        (
            _units("units", "Unarmed units", "captive"),
            Slot(
                "by", Kind.UNIT, "by", "By", which="active", picks=p.massacre_units, required=True
            ),
        ),
    ),
    # ---------------------------------------------------------------------- escape
    VerbSpec(
        "escape",
        "escape H... [ntcfail H...] [killed H...] [guard-dies] [melee] [own-borders]",
        "prisoners attack their Guard in the CCPh (A20.55)",
        "escape g1 g2 ntcfail g2 guard-dies",
        ("esc",),
        (
            _units(
                "units",
                "Prisoners attempting",
                "prisoner",
                p.escapers,
            ),
            Slot(
                "ntcfail",
                Kind.UNITS,
                "ntcfail",
                "Failed the NTC (optional)",
                "prisoner",
                p.among("units"),
            ),
            Slot(
                "killed",
                Kind.UNITS,
                "killed",
                "Killed while escaping (optional)",
                "prisoner",
                p.among("units"),
            ),
            Slot("guard_dies", Kind.FLAG, "guard-dies", "the Guard was eliminated"),
            Slot("melee", Kind.FLAG, "melee", "a Melee formed"),
            Slot(
                "own_borders",
                Kind.FLAG,
                "own-borders",
                "Axis Minor within own borders",
                asked=own_borders_asked,
            ),
        ),
    ),
    VerbSpec(
        "withdraw",
        "withdraw H...",
        "prisoners withdraw from Melee: escaped (A11.2)",
        "withdraw g1",
        (),
        (_units("units", "Prisoners withdrawing", "prisoner"),),
    ),
    VerbSpec(
        "infiltrate",
        "infiltrate H...",
        "prisoners infiltrate out of Melee (A11.22)",
        "infiltrate g1",
        (),
        (_units("units", "Prisoners infiltrating", "prisoner"),),
    ),
    VerbSpec(
        "guard-infiltrates",
        "guard-infiltrates G",
        "the Guard infiltrates away; its prisoners escape (Example 16)",
        "guard-infiltrates a1",
        ("gi",),
        (_unit("unit", "Guard", "guard"),),
    ),
    VerbSpec(
        "rearm",
        "rearm H [cc|alone|surrender [ENEMY]] [as COUNTER]",
        "an unarmed unit rearms (A20.551); how and ENEMY may be left out when the game "
        "allows only one",
        "rearm g1 cc a3",
        (),
        (
            _unit("unit", "Unarmed unit", "unarmed", p.rearmable_units),
            Slot(
                "how",
                Kind.CHOICE,
                label="How",
                required=True,
                choices=REARM_HOWS,
                meanings=(
                    "it eliminated or captured the armed enemy in CC",
                    "the armed enemy was eliminated by other means and no other enemy "
                    "unit is in its Location",
                    "the armed enemy in its Location surrendered to a friendly armed unit",
                ),
                fill_when_single=True,
            ),
            Slot(
                "enemy",
                Kind.UNIT,
                label="The armed enemy (eliminated, captured or surrendered)",
                picks=p.rearm_enemies,
                required=True,
                fill_when_single=True,
            ),
            Slot("as_", Kind.COUNTER, "as", "Counter it becomes (optional)"),
        ),
    ),
    VerbSpec(
        "scrounge",
        "scrounge H DR [wreck] [as COUNTER]",
        "a Scrounging DR at the end of the MPh (A20.552)",
        "scrounge g1 2",
        (),
        (
            _unit("unit", "Unarmed unit", "unarmed"),
            Slot("roll", Kind.NUMBER, label="The DR (or dr vs a wreck)", required=True),
            Slot("wreck", Kind.FLAG, "wreck", "vs a wreck (D10.5)"),
            Slot("as_", Kind.COUNTER, "as", "Counter it becomes (optional)"),
        ),
    ),
    # -------------------------------------------------------- Victory Conditions
    VerbSpec(
        "vc",
        'vc CLAUSE[; CLAUSE...][; otherwise SIDE|draw] [card "THE CARD\'S WORDS"] | vc none',
        "set the scenario's Victory Conditions (judged live; see docs/commands.md)",
        'vc German wins at end if amassed >= 20 card "The Germans win at game end if '
        'they have amassed >= 20 CVP"',
        ("victory",),
        (
            Slot("conditions", Kind.TEXT, label="Victory Conditions (or none)", required=True),
            Slot("card", Kind.TEXT, "card", "The card's own words (optional)"),
        ),
    ),
    VerbSpec(
        "exit",
        "exit H... [off EDGE] [vp N]",
        "units exit off a board edge for Exit VP (a Guard takes its prisoners: A20.53)",
        "exit g1 g2 off east",
        (),
        (
            _units("units", "Units that exit", "active"),
            Slot("off", Kind.WORD, "off", "Off the board edge (optional)"),
            Slot("vp", Kind.NUMBER, "vp", "Exit VP of each (optional: their CVP)"),
        ),
    ),
    VerbSpec(
        "control",
        "control LOC... SIDE|nobody",
        "set who controls objective Locations (for the Victory Conditions)",
        "control P4 Q5 German",
        (),
        (
            Slot("locations", Kind.TEXT, label="Locations", required=True),
            Slot("side", Kind.SIDE, label="Controlled by (a side, or nobody)", required=True),
        ),
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
]


VERBS: dict[str, VerbSpec] = {spec.name: spec for spec in _SPECS}
ALIASES: dict[str, str] = {alias: spec.name for spec in _SPECS for alias in spec.aliases}
CONTROL_VERBS = frozenset({"undo", "redo", "strike", "unstrike", "amend", "help"})

# Words that can never be a handle: every keyword and flag of every verb.
RESERVED_WORDS = frozenset(
    {k for spec in _SPECS for k in spec.arity}
    | set(CAUSES)
    | set(REARM_HOWS)
    | {"at", "as", "broken", "off", NO_TAKEOVER}
)


# The words players use for each verb (``vocabulary.PLAYER_WORDS``): one word or a
# two-word phrase, lower case.
PLAYER_WORD_VERBS: dict[str, str] = {
    word: verb for verb, words in PLAYER_WORDS.items() if verb in VERBS for word in words
}


def verb_named(word: str) -> VerbSpec | None:
    """The verb a typed word (or phrase) names: its name, a shorthand or a player's
    word for it, any case."""
    word = " ".join(word.lower().split())
    return VERBS.get(ALIASES.get(word, PLAYER_WORD_VERBS.get(word, word)))


def verb_at(tokens: list[str]) -> tuple[VerbSpec | None, int]:
    """The verb a line's first words name, and how many words name it: a player's
    two-word phrase ("escort off", "hand over") before a single word."""
    if len(tokens) >= 2:
        phrase = f"{tokens[0]} {tokens[1]}".lower()
        if phrase in PLAYER_WORD_VERBS:
            return VERBS[PLAYER_WORD_VERBS[phrase]], 2
    return (verb_named(tokens[0]), 1) if tokens else (None, 0)


def words_for(spec: VerbSpec) -> tuple[str, ...]:
    """Every other word a verb answers to: its shorthands, then the players' words."""
    return spec.aliases + PLAYER_WORDS.get(spec.name, ())
