"""A guided form: fields in, command text out, the core's verdict shown live.

A form never judges: it builds the same command text a player would type, asks the core
to check it (``core.commands.parse`` then ``Game.check``: nothing is written), shows the
verdict with its rule, and on ctrl+s hands the text to the core to record.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from rich.segment import Segment
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.strip import Strip
from textual.style import Style as VisualStyle
from textual.widgets import Checkbox, Input, Label, Select, SelectionList, Static

from stockade.core.errors import Refusal
from stockade.core.state import GameState
from stockade.tui.bindings import bindings as key_bindings
from stockade.tui.plain import plain

Choices = Callable[[GameState], list[tuple[str, str]]]


@dataclass
class Field:
    name: str
    label: str
    kind: str = "text"  # text / int / unit / units / choice / check
    choices: Choices | None = None
    placeholder: str = ""
    value: str | bool = ""


@dataclass
class FormSpec:
    name: str
    title: str
    summary: str
    fields: list[Field]
    build: Callable[[dict], str]
    key: str = ""
    notes: list[str] = field(default_factory=list)


TICK, NO_TICK = "✓", " "


class TickBox(Checkbox):
    """A checkbox that shows ✓ when ticked and a blank when not (not colour alone)."""

    @property
    def _button(self) -> Content:
        button_style = self.get_visual_style("toggle--button")
        side_style = VisualStyle(
            foreground=button_style.background, background=self.background_colors[1]
        )
        return Content.assemble(
            (self.BUTTON_LEFT, side_style),
            (TICK if self.value else NO_TICK, button_style),
            (self.BUTTON_RIGHT, side_style),
        )


class TickList(SelectionList):
    """A selection list whose ticked rows show ✓, unticked a blank (not colour alone)."""

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        segments = list(strip)
        _, scroll_y = self.scroll_offset
        try:
            option = self.get_option_at_index(scroll_y + y)
        except Exception:
            return strip
        if len(segments) < 3 or segments[1].text != "X":
            return strip
        mark = TICK if option.value in self._selected else NO_TICK
        segments[1] = Segment(mark, segments[1].style, segments[1].control)
        return Strip(segments, strip.cell_length)


def dry_run(game, text: str) -> Refusal | None:
    """The core's verdict on ``text`` without recording it."""
    from stockade.core.commands import first_attacker, parse

    try:
        parsed = parse(text, game.state, first_attacker(game))
        if parsed.events:
            game.check(list(parsed.events))
    except Refusal as refusal:
        return refusal
    return None


class FormScreen(ModalScreen[str | None]):
    """A modal form built from a ``FormSpec``."""

    DEFAULT_CSS = """
    FormScreen { align: center middle; }
    FormScreen > #form {
        width: 78; max-width: 100%; height: auto; max-height: 100%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    FormScreen #fields { height: auto; max-height: 55vh; }
    FormScreen Label { width: 1fr; margin-top: 0; color: $text-muted; }
    FormScreen Input { padding: 0 1; background: $boost; }
    FormScreen Input:focus { background: $primary 30%; }
    FormScreen SelectionList { height: auto; max-height: 6; padding: 0; }
    FormScreen SelectionList:focus { background: $primary 15%; }
    FormScreen Select { width: 1fr; }
    FormScreen Select:focus > SelectCurrent { background: $primary 30%; }
    FormScreen Checkbox { padding: 0; height: 1; }
    FormScreen Checkbox:focus { background: $primary 30%; }
    FormScreen .none { color: $text-muted; text-style: italic; }
    FormScreen #summary { color: $text-muted; }
    FormScreen #preview { margin-top: 1; text-style: bold; }
    FormScreen #verdict { height: auto; }
    FormScreen #keys { color: $text-muted; }
    """
    BINDINGS = key_bindings("form")

    def __init__(self, spec: FormSpec) -> None:
        super().__init__()
        self.spec = spec
        self.refusal: Refusal | None = None

    @property
    def game(self):
        return self.app.game

    def compose(self) -> ComposeResult:
        state = self.game.state
        with Vertical(id="form") as box:
            box.border_title = self.spec.title
            yield Static(self.spec.summary, id="summary")
            with VerticalScroll(id="fields"):
                for f in self.spec.fields:
                    yield from self._field(f, state)
            yield Static(id="preview")
            yield Static(id="verdict")
            yield Static("ctrl+s record · tab next field · space tick · esc cancel", id="keys")

    def _field(self, f: Field, state: GameState) -> ComposeResult:
        wid = f"f-{f.name}"
        if f.kind == "check":
            yield TickBox(f.label, bool(f.value), id=wid, compact=True)
            return
        yield Label(f.label, id=f"l-{f.name}")
        options = f.choices(state) if f.choices else []
        if f.kind == "units":
            if options:
                yield TickList(
                    *[(plain(label), value) for label, value in options], id=wid, compact=True
                )
            else:
                yield TickList(id=wid, compact=True)
                yield Static("  (none in the book now)", classes="none")
        elif f.kind in ("unit", "choice"):
            value = f.value if f.value in {v for _l, v in options} else Select.NULL
            prompt = f.placeholder or ("choose (enter)" if options else "(none in the book now)")
            yield Select(
                [(plain(label), value) for label, value in options],
                value=value,
                prompt=prompt,
                id=wid,
                compact=True,
                allow_blank=f.kind == "unit" or value is Select.NULL,
            )
        else:
            placeholder = f"e.g. {f.placeholder}" if f.placeholder else ""
            yield Input(
                str(f.value),
                placeholder=placeholder,
                id=wid,
                compact=True,
                type="integer" if f.kind == "int" else "text",
            )

    def on_mount(self) -> None:
        self.update_preview()
        if self.spec.fields:
            self.query_one(f"#f-{self.spec.fields[0].name}").focus()

    # ------------------------------------------------------------------ values
    def values(self) -> dict:
        out: dict = {}
        for f in self.spec.fields:
            widget = self.query_one(f"#f-{f.name}")
            if isinstance(widget, SelectionList):
                out[f.name] = list(widget.selected)
            elif isinstance(widget, Select):
                out[f.name] = "" if widget.value is Select.NULL else str(widget.value)
            elif isinstance(widget, Checkbox):
                out[f.name] = widget.value
            else:
                out[f.name] = widget.value.strip()
        return out

    def command_text(self) -> str:
        return " ".join(self.spec.build(self.values()).split())

    def extra_verdict(self) -> Text | None:
        """Subclasses add their own lines above the core's verdict."""
        return None

    def update_preview(self) -> None:
        try:
            self._update_preview()
        except NoMatches:  # a late change event while the form is closing
            pass

    def _update_preview(self) -> None:
        text = self.command_text()
        self.query_one("#preview", Static).update(
            Text.assemble(("will record: ", "dim"), (text or "…", "bold"))
        )
        verdict = Text()
        extra = self.extra_verdict()
        if extra is not None:
            verdict.append_text(extra)
            if text:
                verdict.append("\n")
        if text:
            refusal = dry_run(self.game, text)
            if refusal is None:
                verdict.append("✓ the book accepts this entry", style="bold")
            else:
                verdict.append(f"✗ refused: {refusal}", style="bold " + self._error)
        self.query_one("#verdict", Static).update(verdict)

    @property
    def _error(self) -> str:
        return self.app.theme_variables.get("error", "")

    @on(Input.Changed)
    @on(Select.Changed)
    @on(Checkbox.Changed)
    @on(SelectionList.SelectedChanged)
    def _changed(self) -> None:
        self.update_preview()

    @on(Input.Submitted)
    def _enter(self) -> None:
        self.action_record()

    # ------------------------------------------------------------------ actions
    def action_record(self) -> None:
        text = self.command_text()
        if not text:
            return
        try:
            message = self.app.run_command(text)
        except Refusal as refusal:
            self.query_one("#verdict", Static).update(
                Text(f"✗ refused: {refusal}", style="bold " + self._error)
            )
            return
        self.dismiss(message or f"recorded: {text}")

    def action_cancel(self) -> None:
        self.dismiss(None)
