"""The A20 verbs' declarations (``grammar.VERBS``): capture, the Guards and their
prisoners, losses and escape."""

from __future__ import annotations

from stockade.core.commands import picks as p
from stockade.core.commands.verb_spec import (
    CAUSES,
    REARM_HOWS,
    SURRENDER_REASONS,
    Kind,
    Slot,
    VerbSpec,
    unit_slot,
    units_slot,
)
from stockade.core.rules.escape import own_borders_asked


def _merge(label: str = "Exchange HS pairs into squads (optional)") -> Slot:
    return Slot("merges", Kind.MERGES, "merge", label, which="prisoner")


def _because() -> Slot:
    return Slot("because", Kind.TEXT, "because", "Why the others do not (optional)")


PRISONER_SPECS: tuple[VerbSpec, ...] = (
    # --------------------------------------------------------------------- capture
    VerbSpec(
        "surrender",
        "surrender H... to G [disrupted|encircled|hob|mopup] [free H...] [merge H+H[=NEW] ...] "
        '[because "WHY THE OTHERS DO NOT"]',
        "a stack surrenders (A20.21, A19.12, A15.5, A12.153)",
        "surrender g1 g2 g3 to a1 free g3",
        ("sur",),
        (
            units_slot("units", "Surrendering units", "broken", p.surrendering_units),
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
            units_slot("units", "Units whose surrender is rejected", "broken"),
            Slot("by", Kind.SIDE, "by", "Rejected by", required=True),
            _because(),
        ),
    ),
    VerbSpec(
        "capture",
        "capture [H...] [hs SQUAD[=COUNTER]] by G [free H...] [as COUNTER] [merge H+H ...]",
        "CC capture: all named units, or one HS of a squad (A20.22); the excess over the "
        "captor's capacity goes free as Unarmed (A20.5); an unarmed captor rearms "
        "(A20.551), as COUNTER where the table has none",
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
            Slot(
                "free",
                Kind.UNITS,
                "free",
                "Free as Unarmed (over the captor's capacity; optional)",
                which="active",
                picks=p.captured_among,
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
            units_slot("units", "Unarmed units recaptured", "unarmed"),
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
            units_slot("units", "Prisoners", "prisoner"),
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
            units_slot("units", "Two prisoner HS", "prisoner"),
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
            unit_slot("unit", "Prisoner squad", "prisoner"),
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
            unit_slot("unit", "Guard squad", "squad", p.plain("squad", first="guard")),
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
        (units_slot("units", "Prisoners", "prisoner"),),
    ),
    VerbSpec(
        "escort",
        "escort G",
        "Guard and prisoners leave by a Friendly Board Edge (A20.53)",
        "escort a1",
        (),
        (unit_slot("unit", "Guard", "guard"),),
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
            unit_slot("unit", "Unit", "any", p.plain("any", first="guard")),
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
            unit_slot("unit", "Unit hit", "captive", p.plain("any", first="captive")),
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
            units_slot("units", "Unarmed units", "captive"),
            Slot(
                "by", Kind.UNIT, "by", "By", which="active", picks=p.massacre_units, required=True
            ),
        ),
    ),
    # ---------------------------------------------------------------------- escape
    VerbSpec(
        "escape",
        "escape H... [ntcfail H...] [killed H...] [guard-dies] [melee]",
        "prisoners attack their Guard in the CCPh (A20.55)",
        "escape g1 g2 ntcfail g2 guard-dies",
        ("esc",),
        (
            units_slot(
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
                applies="an Axis Minor side and a Russian side (A20.55 EXC)",
            ),
        ),
    ),
    VerbSpec(
        "withdraw",
        "withdraw H...",
        "prisoners withdraw from Melee: escaped (A11.2)",
        "withdraw g1",
        (),
        (units_slot("units", "Prisoners withdrawing", "prisoner"),),
    ),
    VerbSpec(
        "infiltrate",
        "infiltrate H...",
        "prisoners infiltrate out of Melee (A11.22)",
        "infiltrate g1",
        (),
        (units_slot("units", "Prisoners infiltrating", "prisoner"),),
    ),
    VerbSpec(
        "guard-infiltrates",
        "guard-infiltrates G",
        "the Guard infiltrates away; its prisoners escape (Example 16)",
        "guard-infiltrates a1",
        ("gi",),
        (unit_slot("unit", "Guard", "guard"),),
    ),
    VerbSpec(
        "rearm",
        "rearm H [cc|alone|surrender [ENEMY]] [as COUNTER]",
        "an unarmed unit rearms (A20.551); how and ENEMY may be left out when the game "
        "allows only one",
        "rearm g1 cc a3",
        (),
        (
            unit_slot("unit", "Unarmed unit", "unarmed", p.rearmable_units),
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
            unit_slot("unit", "Unarmed unit", "unarmed"),
            Slot("roll", Kind.NUMBER, label="The DR (or dr vs a wreck)", required=True),
            Slot("wreck", Kind.FLAG, "wreck", "vs a wreck (D10.5)"),
            Slot("as_", Kind.COUNTER, "as", "Counter it becomes (optional)"),
        ),
    ),
)
