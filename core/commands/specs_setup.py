"""The set-up and clock verbs' declarations (``grammar.VERBS``): entering units, their
status, where they are, the phase and the game's end."""

from __future__ import annotations

from stockade.core.commands.verb_spec import Kind, Slot, VerbSpec, units_slot


def _status(
    name: str,
    summary: str,
    example: str,
    aliases: tuple[str, ...] = (),
    which: str = "any",
    both_sides: bool = False,
) -> VerbSpec:
    return VerbSpec(
        name,
        f"{name} H... [off]",
        summary,
        example,
        aliases,
        (
            Slot(
                "units",
                Kind.UNITS,
                label="Units",
                which=which,
                required=True,
                both_sides=both_sides,
            ),
            Slot("off", Kind.FLAG, "off", "off: clear it"),
        ),
    )


SETUP_SPECS: tuple[VerbSpec, ...] = (
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
    _status(
        "melee",
        "put units in Melee ('melee H off' ends it)",
        "melee a1 g2",
        which="melee",
        both_sides=True,
    ),
    VerbSpec(
        "move",
        "move H... LOC",
        "set where units are (prisoners move with their Guard)",
        "move a1 R5",
        ("mv",),
        (
            units_slot("units", "Units", "active"),
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
)
