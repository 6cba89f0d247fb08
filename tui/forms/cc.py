"""The CC capture form: the core's capture helper (A20.22, A11.11) per defender, then
the ``capture`` command for what was taken (``core.rules.cc_table.capture_entry``
decides which)."""

from __future__ import annotations

import msgspec
from rich.text import Text

from stockade.core.commands.command import Command, Pair
from stockade.core.commands.fill import from_fields
from stockade.core.commands.verb_spec import Kind
from stockade.core.commands.verbs_capture import Capture
from stockade.core.commands.words import counter
from stockade.core.model.errors import Refusal
from stockade.core.model.state import GameState
from stockade.core.reads import queries
from stockade.core.rules.cc_table import (
    NONE,
    CaptureEntry,
    DefenderResult,
    capture_entry,
    capture_result,
    defenders_in,
    kill_number_source,
    odds_of,
)
from stockade.tui.forms.base import Field, FormScreen, FormSpec, FormValues
from stockade.tui.forms.choices import slot_fields


def capture_command(
    entry: CaptureEntry,
    by: str,
    state: GameState,
    hs_counter: str = "",
    free: tuple[str, ...] = (),
) -> Command:
    """The capture a CC's results record: the units taken whole, and the squad one HS
    of which is taken (with the counter of the HS that stays free, when given); of the
    units taken whole, ``free`` go free as Unarmed (the excess, A20.5)."""
    fields = {
        "by": by,
        "units": list(entry.taken),
        "hs": [entry.split] if entry.split else [],
        "free": [h for h in free if h in entry.taken],
    }
    command = from_fields("capture", fields, state)
    if entry.split and hs_counter and isinstance(command, Capture):
        command = msgspec.structs.replace(command, hs=Pair(entry.split, counter(hs_counter)))
    return command


SPEC = FormSpec(
    "capture",
    "CC capture",
    "A predesignated capture attempt (A20.22): the result for each defender, then the entry.",
    [
        *slot_fields(
            "capture", ("by", "units"), labels={"units": "Defenders"}, required=("units",)
        ),
        Field("odds", "Odds column or FP totals", placeholder="1-2  or  8:12", required=False),
        Field("dr", "Original DR", Kind.NUMBER, placeholder="2-12", required=False),
        Field("drms", "Other DRMs (not the capture DRM)", Kind.NUMBER, value="0"),
        Field("hth", "Hand-to-Hand CC (+2 Kill Number)", Kind.FLAG),
        Field(
            "choice",
            "At the Kill Number: the defender's choice",
            Kind.UNIT,
            lambda s, v: queries.capture_defenders(s, v.text("by")),
            required=False,  # asked only when the helper's results say so
        ),
        Field(
            "hs_counter",
            "Counter of the HS that stays free (a split squad)",
            placeholder="2-4-7",
            required=False,
        ),
        # last: the excess is known once the results say who is taken
        *slot_fields("capture", ("free",)),
    ],
    lambda v, s: None,
    key="c",
)


class CaptureForm(FormScreen):
    def __init__(self) -> None:
        super().__init__(SPEC)
        self.results: list[DefenderResult] = []
        self.problem = ""
        self.hand_to_hand = False

    def _results(self, v: FormValues) -> list[DefenderResult]:
        self.problem = ""
        if bool(v["odds"]) != bool(v["dr"]):
            self.problem = (
                "give both the odds and the Original DR for the helper's verdict, "
                "or neither to record the defenders as captured"
            )
            return []
        if not (v["units"] and v["odds"] and v["dr"]):
            return []
        self.hand_to_hand = v.ticked("hth")
        try:
            defenders = defenders_in(self.game.state, v.units("units"))
            return capture_result(
                odds_of(v.text("odds")),
                int(v.text("dr")),
                int(v.text("drms") or 0),
                defenders,
                hand_to_hand=self.hand_to_hand,
            )
        except (ValueError, ZeroDivisionError, Refusal) as exc:
            self.problem = str(exc)
            return []

    def command(self) -> Command | None:
        v = self.values()
        self.results = results = self._results(v)
        if not v["by"] or self.problem:
            return None
        if not (v["odds"] or v["dr"]):  # the outcome only: what `capture` records
            if not v["units"]:
                return None
            return capture_command(
                CaptureEntry(tuple(v.units("units")), "", False),
                v.text("by"),
                self.game.state,
                free=tuple(v.units("free")),
            )
        if not results:
            return None
        entry = capture_entry(results, v.text("choice"))
        if entry.empty or (entry.several_at_kill_number and not v["choice"]):
            return None
        return capture_command(
            entry, v.text("by"), self.game.state, v.text("hs_counter"), tuple(v.units("free"))
        )

    def extra_verdict(self) -> Text | None:
        if self.problem:
            return Text(f"✗ {self.problem}", style="bold")
        if not self.results:
            return Text(
                "» without odds and DR the defenders named are recorded as captured",
                style="italic",
            )
        out = Text()
        for i, r in enumerate(self.results):
            mark = "✗ " if r.result == NONE else "✓ "
            out.append(("\n" if i else "") + f"{mark}{r.defender.name}: {r.result} · {r.why}")
        source = kill_number_source(self.results[0].column, self.hand_to_hand)
        out.append(f"\n» {source}", style="italic")
        if capture_entry(self.results).several_at_kill_number:
            out.append(
                "\n» several at the Kill Number: only one is captured, the "
                "defender's choice (A20.22); pick it above",
                style="bold",
            )
        return out
