"""Guided forms for players who do not remember the command syntax."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App

from stockade.tui.forms.base import FormScreen, FormSpec


def all_specs() -> list[FormSpec]:
    from stockade.tui.forms import cc, surrender, victory
    from stockade.tui.forms.specs import SPECS

    return [SPECS[0], surrender.SPEC, cc.SPEC, *SPECS[1:], *victory.SPECS]


def make_form(name: str) -> FormScreen:
    from stockade.tui.forms.cc import CaptureForm
    from stockade.tui.forms.surrender import SurrenderForm

    if name == "surrender":
        return SurrenderForm()
    if name == "capture":
        return CaptureForm()
    for spec in all_specs():
        if spec.name == name:
            return FormScreen(spec)
    raise KeyError(name)


def open_form(app: App[Any], name: str, done: Callable[[str | None], None]) -> None:
    app.push_screen(make_form(name), done)
