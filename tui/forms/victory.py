"""The Victory Conditions form: the card's conditions as the ``vc`` verb reads them,
and the card's own words kept beside them (docs/commands.md, "Victory Conditions")."""

from __future__ import annotations

from stockade.tui.forms.base import Field, FormSpec


def _quoted(words: str) -> str:
    """The card's words as one ``card`` value (a quote inside is dropped, not parsed)."""
    return '"' + " ".join(words.replace('"', "").split()) + '"'


SPEC = FormSpec(
    "vc",
    "Victory Conditions",
    "The scenario card's Victory Conditions, judged as the game goes: one clause per ';' "
    "(German wins at end if amassed >= 20; Russian wins immediately if amassed >= 15). "
    "Entered again, they replace the old ones (undo brings those back).",
    [
        Field(
            "conditions",
            "Conditions",
            placeholder="German wins at end if amassed >= 20; otherwise Russian",
        ),
        Field("card", "The card's words (optional)", placeholder="as printed on the card"),
    ],
    lambda v: (
        f"vc {v['conditions']}" + (f" card {_quoted(v['card'])}" if v["card"].strip() else "")
        if v["conditions"].strip()
        else ""
    ),
    key="v",
)
