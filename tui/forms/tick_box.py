"""The form's tick box: ✓ when ticked, a blank when not (never colour alone)."""

from __future__ import annotations

from typing import Any

from textual.widgets import Checkbox

from stockade.tui.bindings import bindings as key_bindings
from stockade.tui.forms.picker import UnitPicker

TICK, NO_TICK = "✓", " "


class TickBox(Checkbox):
    """A checkbox that shows ✓ when ticked and a blank when not (not colour alone);
    space ticks, enter moves on like every other field."""

    BINDINGS = key_bindings("tick")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.BUTTON_INNER = TICK if self.value else NO_TICK

    def watch_value(self) -> None:
        # the button's inside is the public BUTTON_INNER: ✓ or a blank, as ticked
        self.BUTTON_INNER = TICK if self.value else NO_TICK
        super().watch_value()

    def action_confirm(self) -> None:
        self.post_message(UnitPicker.Done(self))
