"""The surrender form: the A20.21 questions, a verdict with its rule, then the entry.

The questions are what only the players can see on the board (adjacency, rout paths);
the answers say whether a RtPh surrender happens at all. Everything the book can know
(broken, nationality, No Quarter, the captor's capacity) is the core's verdict, shown
live from a dry run of the command.
"""

from __future__ import annotations

from typing import cast

from rich.text import Text
from textual.css.query import NoMatches
from textual.widgets import Select

from stockade.core.model.events import SurrenderReason
from stockade.core.reads import queries
from stockade.core.rules.board_questions import QUESTIONS, board_verdict
from stockade.tui.forms.base import Field, FormScreen, FormSpec
from stockade.tui.forms.choices import joined, opt, picks, words

YES_NO = words(("yes", "yes"), ("no", "no"))
REASONS = words(
    ("RtPh: broken, no free rout path (A20.21)", "rtph"),
    ("Encircled broken unit in the RtPh (A20.21)", "encircled"),
    ("Disrupted (A19.12)", "disrupted"),
    ("Heat of Battle surrender result (A15.5)", "hob"),
    ("Mopping Up (A12.153)", "mopup"),
)
ANSWERS = words(("accept the surrender", "accept"), ("reject it: No Quarter (A20.3)", "reject"))


def _build(v: dict) -> str:
    if not v["units"] or not v["to"]:
        return ""
    if verdict_of(v)[0] is not True:
        return ""  # no entry until the board questions say it surrenders
    if v["answer"] == "reject":
        return f"reject {joined(v['units'])} by {v.get('captor_side', '')}"
    reason = "" if v["reason"] in ("", "rtph") else v["reason"]
    return (
        f"surrender {joined(v['units'])} to {v['to']} {reason} "
        f"{opt('free', v['free'])} {opt('merge', v['merge'])}"
    )


def _reason(v: dict) -> SurrenderReason:
    return cast(SurrenderReason, v.get("reason") or "rtph")


def verdict_of(v: dict) -> tuple[bool | None, str]:
    """The board questions' verdict, from the core (the TUI holds no rule)."""
    return board_verdict(v["reason"], v)


SPEC = FormSpec(
    "surrender",
    "Surrender",
    "A broken stack that cannot rout safely surrenders to an adjacent enemy (A20.21). "
    "Pick the stack and the captor, then answer what the board shows.",
    [
        Field("units", "Surrendering units", "units", picks(queries.surrendering_units)),
        Field(
            "to",
            "Captor (the new Guard)",
            "unit",
            picks(lambda s, v: queries.surrender_captors(s, v.get("units") or [], _reason(v))),
            auto=True,
        ),
        Field("reason", "Why", "choice", REASONS, value="rtph"),
        *[Field(q.name, q.text, "choice", YES_NO) for q in QUESTIONS],
        Field("answer", "The captor", "choice", ANSWERS, value="accept"),
        Field(
            "free",
            "Free as Unarmed (over the captor's capacity; optional)",
            "units",
            picks(
                lambda s, v: [c for c in queries.surrendering_units(s) if c.handle in v["units"]]
            ),
        ),
        Field("merge", "Exchange HS pairs into squads (optional)", placeholder="g2+g3"),
    ],
    _build,
    key="s",
)


class SurrenderForm(FormScreen):
    def __init__(self) -> None:
        super().__init__(SPEC)

    def update_preview(self) -> None:
        try:
            self._fit_questions()
        except NoMatches:  # not composed yet, or already closing
            return
        super().update_preview()

    def _fit_questions(self) -> None:
        """Ask only the board questions that apply to the chosen kind of surrender."""
        reason = self.query_one("#f-reason", Select).value
        for q in QUESTIONS:
            shown = reason is Select.NULL or reason in q.reasons
            for wid in (f"#f-{q.name}", f"#l-{q.name}"):
                self.query_one(wid).display = shown

    def values(self) -> dict:
        v = super().values()
        captor = self.game.state.units.get(v["to"])
        v["captor_side"] = captor.side if captor else ""
        return v

    def extra_verdict(self) -> Text | None:
        verdict, why = verdict_of(self.values())
        mark = {True: "✓ ", False: "✗ no surrender: ", None: "? "}[verdict]
        style = "bold" if verdict is not None else "italic"
        return Text(mark + why, style=style)
