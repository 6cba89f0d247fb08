"""The CC capture form: the core's capture helper (A20.22, A11.11) per defender, then
the ``capture`` entry for what was taken."""

from __future__ import annotations

from rich.text import Text

from stockade.core.cc import ALL_CAPTURED, NONE, capture_result, defenders_in
from stockade.core.errors import Refusal
from stockade.tui.forms.base import Field, FormScreen, FormSpec
from stockade.tui.forms.choices import joined, units


def _odds(text: str):
    """A column ("1-2") or two FP totals ("8:12")."""
    text = text.strip()
    if ":" in text:
        a, d = text.split(":", 1)
        return float(a), float(d)
    return text


SPEC = FormSpec(
    "capture",
    "CC capture",
    "A predesignated capture attempt (A20.22): the result for each defender, then the entry.",
    [
        Field("by", "Attacker (the new Guard)", "unit", units("active")),
        Field("units", "Defenders", "units", units("active")),
        Field("odds", "Odds column or FP totals", placeholder="1-2  or  8:12"),
        Field("dr", "Original DR", "int", placeholder="2-12"),
        Field("drms", "Other DRMs (not the capture DRM)", "int", value="0"),
        Field("hth", "Hand-to-Hand CC (+2 Kill Number)", "check"),
        Field("choice", "At the Kill Number: the defender's choice", "unit", units("active")),
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
        self.results = []
        self.problem = ""

    def _results(self, v: dict):
        self.problem = ""
        if not (v["units"] and v["odds"] and v["dr"]):
            return []
        try:
            defenders = defenders_in(self.game.state, list(v["units"]))
            return capture_result(
                _odds(v["odds"]),
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
        whole = [r for r in results if r.result == ALL_CAPTURED and not r.at_kill_number]
        at_kill = [r for r in results if r.result != NONE and r.at_kill_number]
        if len(at_kill) > 1:
            at_kill = [r for r in at_kill if r.defender.name == v["choice"]]
        taken = [r.defender.name for r in whole]
        split = ""
        for r in at_kill[:1]:
            if r.result == ALL_CAPTURED:
                taken.append(r.defender.name)
            else:
                counter = f"={v['hs_counter']}" if v["hs_counter"] else ""
                split = f"hs {r.defender.name}{counter}"
        if not taken and not split:
            return ""
        return f"capture {joined(taken)} {split} by {v['by']}"

    def extra_verdict(self) -> Text | None:
        if self.problem:
            return Text(f"✗ {self.problem}", style="bold")
        if not self.results:
            return Text("? give the defenders, the odds and the Original DR", style="italic")
        out = Text()
        for i, r in enumerate(self.results):
            mark = "✗ " if r.result == NONE else "✓ "
            out.append(("\n" if i else "") + f"{mark}{r.defender.name}: {r.result} · {r.why}")
        at_kill = [r for r in self.results if r.result != NONE and r.at_kill_number]
        if len(at_kill) > 1:
            out.append(
                "\n» several at the Kill Number: only one is captured, the "
                "defender's choice (A20.22); pick it above",
                style="bold",
            )
        return out
