"""The surrender form: the A20.21 questions, a verdict with its rule, then the entry.

The questions are what only the players can see on the board (adjacency, rout paths);
the answers say whether a RtPh surrender happens at all. Everything the book can know
(broken, nationality, No Quarter, the captor's capacity) is the core's verdict, shown
live from a dry run of the command. The fields other than the questions and the answer
are the ``surrender`` verb's slots; a rejection is the ``reject`` verb.
"""

from __future__ import annotations

from rich.text import Text
from textual.css.query import NoMatches

from stockade.core.commands.command import Command
from stockade.core.commands.fill import from_fields
from stockade.core.commands.verb_spec import Kind
from stockade.core.model.state import GameState
from stockade.core.reads.queries import rejecting_side
from stockade.core.rules.board_questions import QUESTIONS, board_verdict
from stockade.tui.forms.base import Field, FormScreen, FormSpec, FormValues
from stockade.tui.forms.choice_list import ChoiceList
from stockade.tui.forms.choices import slot_fields, words

YES_NO = words(("yes", "yes"), ("no", "no"))
REASONS = words(
    ("RtPh: broken, no free rout path (A20.21)", "rtph"),
    ("Encircled broken unit in the RtPh (A20.21)", "encircled"),
    ("Disrupted (A19.12)", "disrupted"),
    ("Heat of Battle surrender result (A15.5)", "hob"),
    ("Mopping Up (A12.153)", "mopup"),
)
ANSWERS = words(("accept the surrender", "accept"), ("reject it: No Quarter (A20.3)", "reject"))


def _build(v: FormValues, state: GameState) -> Command | None:
    rejected = v["answer"] == "reject"
    if not v["units"] or not (v["to"] or rejected):
        return None  # a rejection is a side's: it needs no captor picked
    if verdict_of(v)[0] is not True:
        return None  # no entry until the board questions say it surrenders
    if rejected:
        fields = {"units": v["units"], "by": v.get("captor_side", "")}
        return from_fields("reject", fields, state)
    names = ("units", "to", "reason", "free", "merges")
    return from_fields("surrender", {name: v[name] for name in names}, state)


def verdict_of(v: FormValues) -> tuple[bool | None, str]:
    """The board questions' verdict, from the core (the TUI holds no rule)."""
    answers = {name: value for name, value in v.items() if isinstance(value, str)}
    return board_verdict(v.text("reason"), answers)


SPEC = FormSpec(
    "surrender",
    "Surrender",
    "A broken stack that cannot rout safely surrenders to an adjacent enemy (A20.21). "
    "Pick the stack and the captor, then answer what the board shows.",
    [
        *slot_fields("surrender", ("units", "to"), auto=("to",)),
        *slot_fields(
            "surrender", ("reason",), lists={"reason": REASONS}, values={"reason": "rtph"}
        ),
        *[Field(q.name, q.text, Kind.CHOICE, YES_NO) for q in QUESTIONS],
        Field("answer", "The captor", Kind.CHOICE, ANSWERS, value="accept"),
        *slot_fields("surrender", ("free", "merges"), placeholders={"merges": "g2+g3"}),
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
        reason = self.query_one("#f-reason", ChoiceList).value
        for q in QUESTIONS:
            shown = not reason or reason in q.reasons
            for wid in (f"#f-{q.name}", f"#l-{q.name}"):
                self.query_one(wid).display = shown

    def values(self) -> FormValues:
        v = super().values()
        state = self.game.state
        captor = state.units.get(v.text("to"))
        # no captor picked: the one side the core says may reject this stack, if one
        v["captor_side"] = captor.side if captor else rejecting_side(state, v.units("units"))
        return v

    def extra_verdict(self) -> Text | None:
        verdict, why = verdict_of(self.values())
        mark = {True: "✓ ", False: "✗ no surrender: ", None: "? "}[verdict]
        style = "bold" if verdict is not None else "italic"
        return Text(mark + why, style=style)
