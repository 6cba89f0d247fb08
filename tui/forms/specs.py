"""The plain guided forms: each builds the command a player would type.

Surrender and CC capture have their own screens (``surrender.py``, ``cc.py``).
"""

from __future__ import annotations

from stockade.core.reads import queries
from stockade.tui.forms.base import Field, FormSpec
from stockade.tui.forms.choices import joined, opt, picks, sides, units, words

CAUSES = words(
    ("enemy fire", "enemy"),
    ("its own side's fire (prisoners: double CVP)", "own"),
    ("Close Combat", "cc"),
    ("a Sniper", "sniper"),
    ("failure to rout", "rout"),
    ("other", "other"),
)


def among(field: str):
    """The units ticked in another field of the form (who of those failed, who died)."""

    def pick(state, values: dict) -> list[queries.Choice]:
        ticked = values.get(field) or []
        return [c for c in units("prisoner")(state, values) if c.handle in ticked]

    return pick


def _flag(word: str, on: bool) -> str:
    return word if on else ""


SPECS: list[FormSpec] = [
    FormSpec(
        "add",
        "Add units",
        "Enter counters as they matter: a side, the counters as "
        "printed (4-6-7, 9-2; add hs/crew/hero where a counter could be several).",
        [
            Field("side", "Side", "choice", sides),
            Field("counters", "Counters", placeholder="4-6-7 2-4-7 hs 9-1"),
            Field("at", "Location (optional)", placeholder="Q4"),
            Field("broken", "broken", "check"),
        ],
        lambda v: (
            f"add {v['side']} {v['counters']} {opt('at', v['at'])} {_flag('broken', v['broken'])}"
            if v["side"]
            else ""
        ),
        key="a",
    ),
    FormSpec(
        "status",
        "Unit status",
        "What the board shows now: broken, rallied, pinned, berserk, Disrupted, in Melee "
        "(a broken or Melee Guard is what lets its prisoners attempt escape, A20.55).",
        [
            Field("units", "Units", "units", units("any")),
            Field(
                "verb",
                "Status",
                "choice",
                words(
                    ("broken", "break"),
                    ("rallied (no longer broken)", "rally"),
                    ("pinned", "pin"),
                    ("unpinned", "unpin"),
                    ("berserk", "berserk"),
                    ("Disrupted (A19.12)", "disrupt"),
                    ("Melee", "melee"),
                    ("out of Melee", "melee-off"),
                ),
            ),
        ],
        lambda v: (
            (
                f"melee {joined(v['units'])} off"
                if v["verb"] == "melee-off"
                else f"{v['verb']} {joined(v['units'])}"
            )
            if v["units"] and v["verb"]
            else ""
        ),
        key="u",
    ),
    FormSpec(
        "transfer",
        "Transfer prisoners",
        "RPh/APh: hand prisoners to another unit "
        "in the Location (A20.5). merge: two HS become a squad, like g1+g2.",
        [
            Field("units", "Prisoners", "units", units("prisoner")),
            Field(
                "to",
                "To the new Guard",
                "unit",
                picks(lambda s, v: queries.transfer_guards(s, v.get("units") or [])),
                auto=True,
            ),
            Field("merge", "Exchange HS pairs (optional)", placeholder="g1+g2"),
        ],
        lambda v: (
            f"transfer {joined(v['units'])} to {v['to']} {opt('merge', v['merge'])}"
            if v["units"]
            else ""
        ),
        key="t",
    ),
    FormSpec(
        "abandon",
        "Abandon prisoners",
        "RPh/APh: free prisoners as abandoned Unarmed "
        "units; if their captor later eliminates them it is a Massacre (A20.5, A20.53).",
        [Field("units", "Prisoners", "units", units("prisoner"))],
        lambda v: f"abandon {joined(v['units'])}" if v["units"] else "",
        key="b",
    ),
    FormSpec(
        "exchange",
        "Exchange two HS for a squad",
        "A Guard may exchange two prisoner HS/crews for one unarmed squad at any time (A20.51).",
        [
            Field("units", "Two prisoner HS", "units", units("prisoner")),
            Field("as_", "New handle (optional)", placeholder="leave empty for the next free"),
        ],
        lambda v: f"exchange {joined(v['units'])} {opt('as', v['as_'])}" if v["units"] else "",
        key="x",
    ),
    FormSpec(
        "split",
        "Split a prisoner squad",
        "A prisoner squad becomes two prisoner HS.",
        [Field("unit", "Prisoner squad", "unit", units("prisoner"))],
        lambda v: f"split {v['unit']}" if v["unit"] else "",
        key="p",
    ),
    FormSpec(
        "deploy",
        "Deploy a Guard squad",
        "An unbroken Guard squad deploys into two "
        "HS at any time (A20.5); prisoners stay with the first unless sent (g3=2).",
        [
            Field("unit", "Guard squad", "unit", units("squad", first="guard")),
            Field("counters", "HS counters (optional)", placeholder="2-4-7"),
            Field("assign", "Prisoners for the second HS (optional)", placeholder="g3=2"),
        ],
        lambda v: f"deploy {v['unit']} {v['counters']} {v['assign']}" if v["unit"] else "",
        key="d",
    ),
    FormSpec(
        "escape",
        "Escape attempt",
        "CCPh: prisoners attack their broken Guard (or any "
        "Guard in Melee) after a NTC (A20.55). Record who failed the NTC, who died.",
        [
            Field(
                "units",
                "Prisoners attempting",
                "units",
                picks(lambda s, v: queries.escapers(s, bool(v.get("own_borders")))),
            ),
            Field("guard_dies", "the Guard was eliminated", "check"),
            Field("melee", "a Melee formed", "check"),
            Field("ntcfail", "Failed the NTC (optional)", "units", among("units")),
            Field("killed", "Killed while escaping (optional)", "units", among("units")),
            Field("own_borders", "Axis Minor within own borders vs Russians", "check"),
        ],
        lambda v: (
            (
                f"escape {joined(v['units'])} {opt('ntcfail', v['ntcfail'])} "
                f"{opt('killed', v['killed'])} {_flag('guard-dies', v['guard_dies'])} "
                f"{_flag('melee', v['melee'])} {_flag('own-borders', v['own_borders'])}"
            )
            if v["units"]
            else ""
        ),
        key="e",
    ),
    FormSpec(
        "rearm",
        "Rearm an unarmed unit",
        "A20.551: by eliminating/capturing an armed "
        "enemy in CC, alone in a Location with one, or when one surrenders to a friend.",
        [
            Field("unit", "Unarmed unit", "unit", picks(queries.rearmable_units)),
            Field(
                "how",
                "How",
                "choice",
                words(("in CC", "cc"), ("alone with it", "alone"), ("it surrendered", "surrender")),
            ),
            Field(
                "enemy",
                "The armed enemy (eliminated, captured or surrendered)",
                "unit",
                picks(
                    lambda s, v: queries.rearm_enemies(s, v.get("unit", ""), v.get("how") or "cc")
                ),
                auto=True,
            ),
            Field(
                "as_",
                "Counter it becomes (optional: if the book does not know)",
                placeholder="4-3-6",
            ),
        ],
        lambda v: (
            f"rearm {v['unit']} {v['how']} {v['enemy']} {opt('as', v['as_'])}" if v["unit"] else ""
        ),
        key="r",
    ),
    FormSpec(
        "scrounge",
        "Scrounge",
        "End of its MPh, all MF spent: a DR of 2 rearms; vs a "
        "wreck a dr 1-3 up to HS size. One DR per hex per MPh (A20.552).",
        [
            Field("unit", "Unarmed unit", "unit", units("unarmed")),
            Field("dr", "The DR (or dr vs a wreck)", "int"),
            Field("wreck", "vs a wreck (D10.5)", "check"),
            Field("as_", "Counter it becomes (optional)", placeholder="4-3-6"),
        ],
        lambda v: (
            f"scrounge {v['unit']} {v['dr']} {_flag('wreck', v['wreck'])} {opt('as', v['as_'])}"
            if v["unit"]
            else ""
        ),
        key="g",
    ),
    FormSpec(
        "massacre",
        "Massacre",
        "A20.4: eliminating unarmed units in the Location, as "
        "if using a SW: enemy ELR +1 (once) and No Quarter.",
        [
            Field("units", "Unarmed units", "units", units("captive")),
            Field("by", "By", "unit", units("active")),
        ],
        lambda v: f"massacre {joined(v['units'])} by {v['by']}" if v["units"] else "",
        key="m",
    ),
    FormSpec(
        "fire",
        "Fire result on prisoners",
        "A Location with prisoners was hit: Casualty "
        "Reduction or elimination (A7.302, A20.54). Own side's fire on prisoners "
        "counts double CVP at once.",
        [
            Field(
                "result",
                "Result",
                "choice",
                words(("Casualty Reduction", "reduce"), ("eliminated", "eliminate")),
            ),
            Field("unit", "Unit hit", "unit", units("any", first="captive")),
            Field(
                "by",
                "Whose fire",
                "choice",
                words(("enemy fire", "enemy"), ("its own side's fire", "own")),
            ),
            Field("to", "Counter after reduction (armed squad)", placeholder="2-4-7"),
        ],
        lambda v: (
            (
                f"{v['result']} {v['unit']} {opt('by', v['by'])} "
                + (opt("to", v["to"]) if v["result"] == "reduce" else "")
            )
            if v["unit"] and v["result"]
            else ""
        ),
        key="i",
    ),
    FormSpec(
        "eliminate",
        "Eliminate a unit",
        "A Guard's prisoners pass to a unit that can "
        "take them (takeover), or go free if none can (A20.5).",
        [
            Field("unit", "Unit", "unit", units("any", first="guard")),
            Field("by", "Cause", "choice", CAUSES),
            Field(
                "takeover",
                "New Guard (if a Guard dies)",
                "unit",
                picks(lambda s, v: queries.takeover_guards(s, v.get("unit", ""))),
                auto=True,
            ),
            Field(
                "keep",
                "Prisoners the new Guard keeps (optional: if not all)",
                "units",
                picks(lambda s, v: queries.prisoners_of_guard(s, v.get("unit", ""))),
            ),
        ],
        lambda v: (
            f"eliminate {v['unit']} {opt('by', v['by'])} "
            f"{opt('takeover', v['takeover'])} {opt('keep', v['keep'])}"
            if v["unit"]
            else ""
        ),
        key="l",
    ),
    FormSpec(
        "escort",
        "Escort off the board",
        "A Guard leaves by a Friendly Board Edge "
        "with its prisoners: they still count double (A20.53).",
        [Field("unit", "Guard", "unit", units("guard"))],
        lambda v: f"escort {v['unit']}" if v["unit"] else "",
        key="o",
    ),
    FormSpec(
        "end",
        "End the game",
        "The last entry: prisoners still guarded count double (A20.1). Undo takes it back.",
        [Field("sure", "the scenario is over", "check")],
        lambda v: "end" if v["sure"] else "",
        key="z",
    ),
]
