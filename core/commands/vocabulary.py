"""The words players use, beside the grammar: for each verb, the words and phrases
that name it at the start of a line ("refuse", "KIA", "escort off"), and the A20
terms ("No Quarter", "withdrawal") with the verbs that record them.

The grammar (``grammar.verb_named`` / ``grammar.verb_at``) reads ``PLAYER_WORDS`` to
take a line that starts with any of them as that verb; ``help``, the answer to a
word that is not a verb (``meanings``) and completion read both tables. A verb's
typing shorthands (``sur``, ``tr``) stay in its ``VerbSpec.aliases``.

Words are lower case; a phrase is at most two words. The player's words come from
the rulebook and the article (``../shared/seeds``): A20 says a captor may "reject"
a surrender, a Guard may "abandon" its prisoners, "escort" them off; players say
refuse, release, walk off, KIA.
"""

from __future__ import annotations

import msgspec

# verb -> the words and phrases that name it (each word names one verb only); a
# verb not (yet) in the grammar is skipped
PLAYER_WORDS: dict[str, tuple[str, ...]] = {
    # set-up, clock
    "add": ("enter", "place", "setup", "set-up"),
    "next": ("next phase", "continue"),
    "prev": ("previous", "previous phase", "back"),
    "skip": ("skip ahead", "jump"),
    "turn": ("next turn", "new turn", "player turn"),
    "phase": ("set phase", "goto"),
    "break": ("breaks", "broke"),
    "rally": ("rallies", "rallied", "self-rally"),
    "pin": ("pins", "pinned"),
    "unpin": ("unpinned",),
    "berserk": ("goes berserk", "zerk"),
    "disrupt": ("disrupts", "disrupted"),
    "melee": ("in melee",),
    "move": ("moves", "moved", "advance", "advances", "rout", "routs"),
    "nq": ("ssr nq", "nq ssr"),
    "end": ("game over", "end game", "finish"),
    # capture
    "surrender": ("surrenders", "surrendered", "give up", "gives up", "yield", "yields"),
    "reject": (
        "refuse",
        "refuses",
        "refused",
        "decline",
        "declines",
        "declined",
        "rejects",
        "rejected",
        "no prisoners",
    ),
    "capture": ("captures", "captured", "take prisoner", "take prisoners", "cc capture"),
    "mutual": ("wipe-out", "wipeout", "mutual elimination"),
    "recapture": ("recaptures", "recaptured", "retake", "retakes"),
    # guards
    "transfer": ("transfers", "transferred", "hand over", "hands over", "handover"),
    "exchange": ("combine", "recombine", "exchanges"),
    "split": ("splits", "break down"),
    "deploy": ("deploys", "deployed"),
    "abandon": (
        "release",
        "releases",
        "released",
        "abandons",
        "abandoned",
        "let go",
        "set free",
        "free",
    ),
    "escort": ("escort off", "escorts", "escorted", "walk off", "march off"),
    # losses
    "eliminate": (
        "kill",
        "kia",
        "killed",
        "kills",
        "eliminates",
        "eliminated",
        "dies",
        "died",
        "destroy",
        "destroyed",
    ),
    "reduce": ("casualty reduction", "step reduce", "reduces", "reduced"),
    "massacre": ("execute", "executes", "executed", "massacres", "massacred", "shoot prisoners"),
    # escape
    "escape": ("escapes", "escaped", "break out", "breakout", "attack guard"),
    "withdraw": ("withdrawal", "withdraws", "withdrew"),
    "infiltrate": ("infiltration", "infiltrates", "infiltrated"),
    "guard-infiltrates": ("guard infiltrates", "guard-infiltrate"),
    "rearm": ("re-arm", "rearms", "rearmed", "arm"),
    "scrounge": ("scrounging", "scrounges", "search"),
    # Victory Conditions
    "vc": ("victory conditions", "conditions"),
    "exit": ("exits", "exited", "exit off"),
    "control": ("controls", "controlled", "take control"),
    # control
    "undo": ("oops", "take back"),
    "redo": ("do again", "put back"),
    "strike": ("delete", "cross out", "scratch"),
    "unstrike": ("restore", "uncross"),
    "amend": ("correct", "mend", "edit"),
    "help": ("how", "usage"),
}


class Term(msgspec.Struct, frozen=True):
    """An A20 term as players say it, and the verbs that record what it names, the
    likeliest first."""

    title: str  # as the rulebook writes it: "No Quarter"
    rule: str  # "A20.3"
    verbs: tuple[str, ...]
    names: tuple[str, ...] = ()  # other words for it: "nq", "quarter"

    @property
    def spellings(self) -> tuple[str, ...]:
        return (self.title.lower(), *self.names)


TERMS: tuple[Term, ...] = (
    Term("Value", "A20.1", ("end", "escort"), ("cvp", "double", "doubled", "victory points")),
    Term("Capture", "A20.2", ("surrender", "capture", "recapture"), ("captured", "prisoner")),
    Term(
        "RtPh surrender",
        "A20.21",
        ("surrender", "reject"),
        ("rtph", "rout phase", "interdiction", "low crawl", "failure to rout"),
    ),
    Term("CC capture", "A20.22", ("capture", "mutual"), ("close combat", "cc", "capture attempt")),
    Term("Simultaneous CC", "A20.221", ("mutual",), ("simultaneous",)),
    Term("Mopping Up", "A12.153", ("surrender",), ("mop up", "mopup", "mopping up")),
    Term("Heat of Battle", "A15.5", ("surrender", "berserk"), ("hob",)),
    Term("Encircled", "A7.7", ("surrender",), ("encirclement",)),
    Term("Disrupted", "A19.12", ("surrender", "disrupt"), ("disruption",)),
    Term("No Quarter", "A20.3", ("reject", "massacre", "nq"), ("nq", "quarter", "no-quarter")),
    Term("Massacre", "A20.4", ("massacre",), ("execution",)),
    Term(
        "Guards & unarmed units",
        "A20.5",
        ("transfer", "abandon", "escort", "deploy", "eliminate"),
        ("guard", "guards", "unarmed", "pow", "pows", "prisoners"),
    ),
    Term("Take over", "A20.5", ("eliminate",), ("takeover", "take over", "new guard")),
    Term("Stacking", "A20.51", ("exchange", "split", "deploy"), ("capacity", "us#", "overstack")),
    Term("Guard FP", "A20.52", ("transfer",), ("guard fp",)),
    Term(
        "Movement",
        "A20.53",
        ("escort", "exit", "move"),
        ("friendly board edge", "board edge", "escorted", "exit vp"),
    ),
    Term(
        "Attack effects",
        "A20.54",
        ("reduce", "eliminate", "recapture"),
        ("fire", "k/#", "#kia", "random selection"),
    ),
    Term("Escape", "A20.55", ("escape",), ("ntc", "ntcfail", "guard-dies", "escape attempt")),
    Term("Withdrawal from Melee", "A11.2", ("withdraw",), ("withdrawal", "melee withdrawal")),
    Term("Infiltration", "A11.22", ("infiltrate", "guard-infiltrates"), ("infiltration",)),
    Term("Melee", "A11.7", ("melee", "escape", "withdraw"), ()),
    Term("Rearming", "A20.551", ("rearm", "mutual"), ("rearming", "rearmed", "armed")),
    Term("Scrounging", "A20.552", ("scrounge",), ("scrounging", "wreck")),
    Term("Casualty Reduction", "A7.302", ("reduce",), ("cr", "step reduction")),
    Term("Berserk", "A15.4", ("berserk", "massacre"), ("berserker",)),
)
