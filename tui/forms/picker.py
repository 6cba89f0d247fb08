"""A form's unit field: one line showing the pick, enter opens the roster picker.

What may be picked, in which order and why not, is the core's answer (``core.reads.queries``,
handed in as ``Choice`` lists); this field only shows the pick and opens the picker.
"""

from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from stockade.core.model.visible import visible
from stockade.core.reads.queries import Choice
from stockade.tui.bindings import bindings as key_bindings


class UnitPicker(Static, can_focus=True):
    """The picked unit (``multi``: units); enter or space opens the roster picker."""

    DEFAULT_CSS = """
    UnitPicker { height: auto; padding: 0 1; background: $boost; }
    UnitPicker:focus { background: $primary 30%; }
    """
    BINDINGS = key_bindings("picker")

    class Changed(Message):
        def __init__(self, picker: UnitPicker) -> None:
            super().__init__()
            self.picker = picker

    class Done(Message):
        """A pick was made: the form moves on to the next empty field."""

        def __init__(self, picker: Widget) -> None:
            super().__init__()
            self.picker = picker

    class PickWanted(Message):
        """The player asked for the unit list: the screen opens the picker."""

        def __init__(self, picker: UnitPicker) -> None:
            super().__init__()
            self.picker = picker

    def __init__(self, title: str, multi: bool, value: str | list[str] = "", id: str = "") -> None:
        super().__init__(id=id)
        self.title = title
        self.multi = multi
        self._value: list[str] = [value] if isinstance(value, str) and value else list(value or [])
        self.choices: list[Choice] = []

    # ------------------------------------------------------------------ value
    @property
    def value(self) -> str | list[str]:
        return list(self._value) if self.multi else (self._value[0] if self._value else "")

    @value.setter
    def value(self, new: str | list[str]) -> None:
        picked = [new] if isinstance(new, str) and new else list(new or [])
        if picked != self._value:
            self._value = picked
            self._show()
            self.post_message(self.Changed(self))

    def set_choices(self, choices: list[Choice]) -> None:
        self.choices = choices
        self._show()

    @property
    def legal(self) -> list[Choice]:
        return [c for c in self.choices if c.legal]

    def _show(self) -> None:
        labels = {c.handle: c for c in self.choices}
        out = Text()
        if self._value:
            for i, handle in enumerate(self._value):
                choice = labels.get(handle)
                out.append(("\n" if i else "") + visible(choice.label if choice else handle))
                if choice is not None and not choice.legal:
                    out.append(f"  ✗ {visible(choice.why)}", style="bold")
        else:
            legal, total = len(self.legal), len(self.choices)
            what = "units" if self.multi else "a unit"
            out.append(
                f"(none) enter: pick {what} · {legal} of {total} may be picked", "dim italic"
            )
        self.update(out)

    def on_mount(self) -> None:
        self._show()

    # ---------------------------------------------------------------- actions
    def action_pick(self) -> None:
        """Ask for the roster picker: the form's screen opens it (``PickWanted``) and
        hands the pick back through ``picked``."""
        self.post_message(self.PickWanted(self))

    def picked(self, handles: list[str] | None) -> None:
        """The picker closed: ``handles`` picked (None: cancelled)."""
        self.focus()
        if handles is not None:
            self.value = handles if self.multi else handles[:1]
            self.post_message(self.Done(self))

    def action_confirm(self) -> None:
        """Enter: the unit list while nothing is picked, else on to the next field."""
        if not self._value and self.choices:
            self.action_pick()
        else:
            self.post_message(self.Done(self))

    def action_clear(self) -> None:
        self.value = []
