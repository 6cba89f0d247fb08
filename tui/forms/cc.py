"""The CC capture form: the core's capture helper (A20.22, A11.11) per defender, then
the ``capture`` entry for what was taken (``core.rules.cc_table.capture_entry`` decides which)."""

from __future__ import annotations

from rich.text import Text

from stockade.core.model.errors import Refusal
from stockade.core.reads import queries
from stockade.core.rules.cc_table import (
    NONE,
    CaptureEntry,
    DefenderResult,
    capture_entry,
    capture_result,
    defenders_in,
    odds_of,
)
from stockade.tui.forms.base import Field, FormScreen, FormSpec
from stockade.tui.forms.choices import joined, picks


def capture_command(entry: CaptureEntry, by: str, hs_counter: str = "") -> str:
    """The command line a capture's results record: ``capture a1,a2 hs a3=2-4-7 by g1``
    (the units taken whole and the squad that splits are each left out when empty)."""
    words = ["capture"]
    if entry.taken:
        words.append(joined(list(entry.taken)))
    if entry.split:
        words.append(f"hs {entry.split}" + (f"={hs_counter}" if hs_counter else ""))
    return " ".join([*words, "by", by])


SPEC = FormSpec(
    "capture",
    "CC capture",
    "A predesignated capture attempt (A20.22): the result for each defender, then the entry.",
    [
        Field("by", "Attacker (the new Guard)", "unit", picks(queries.capture_attackers)),
        Field(
            "units",
            "Defenders",
            "units",
            picks(lambda s, v: queries.capture_defenders(s, v.get("by", ""))),
        ),
        Field("odds", "Odds column or FP totals", placeholder="1-2  or  8:12"),
        Field("dr", "Original DR", "int", placeholder="2-12"),
        Field("drms", "Other DRMs (not the capture DRM)", "int", value="0"),
        Field("hth", "Hand-to-Hand CC (+2 Kill Number)", "check"),
        Field(
            "choice",
            "At the Kill Number: the defender's choice",
            "unit",
            picks(lambda s, v: queries.capture_defenders(s, v.get("by", ""))),
        ),
        Field(
            "hs_counter", "Counter of the HS that stays free (a split squad)", placeholder="2-4-7"
        ),
    ],
    lambda v: "",
    key="c",
)


class CaptureForm(FormScreen):
    def __init__(self) -> None:
        super().__init__(SPEC)
        self.results: list[DefenderResult] = []
        self.problem = ""

    def _results(self, v: dict):
        self.problem = ""
        if not (v["units"] and v["odds"] and v["dr"]):
            return []
        try:
            defenders = defenders_in(self.game.state, list(v["units"]))
            return capture_result(
                odds_of(v["odds"]),
                int(v["dr"]),
                int(v["drms"] or 0),
                defenders,
                hand_to_hand=bool(v["hth"]),
            )
        except (ValueError, ZeroDivisionError, Refusal) as exc:
            self.problem = str(exc)
            return []

    def command_text(self) -> str:
        v = self.values()
        self.results = results = self._results(v)
        if not results or not v["by"]:
            return ""
        entry = capture_entry(results, v["choice"])
        if entry.empty:
            return ""
        return capture_command(entry, v["by"], v["hs_counter"])

    def extra_verdict(self) -> Text | None:
        if self.problem:
            return Text(f"✗ {self.problem}", style="bold")
        if not self.results:
            return Text("? give the defenders, the odds and the Original DR", style="italic")
        out = Text()
        for i, r in enumerate(self.results):
            mark = "✗ " if r.result == NONE else "✓ "
            out.append(("\n" if i else "") + f"{mark}{r.defender.name}: {r.result} · {r.why}")
        if capture_entry(self.results).several_at_kill_number:
            out.append(
                "\n» several at the Kill Number: only one is captured, the "
                "defender's choice (A20.22); pick it above",
                style="bold",
            )
        return out
