"""A guided form: fields in, a ``Command`` out, the core's verdict shown live.

A form never judges and never writes command text: its fields are the slots of a verb's
declaration (``core.commands.grammar``), the core builds the verb's ``Command`` from
them (``core.commands.fill.from_fields``), checks it (``plan`` then ``Game.check``:
nothing is written), the form shows the verdict with its rule and the command's
canonical line, and on ctrl+s hands the command to the core to record.

A field the core may fill by itself (``FormSpec.fill``: rearm's How and enemy when the
game allows one way) is filled as soon as the other fields leave one value, and the
verdict says so; the player may change it, and then it is theirs.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Label, Static

from stockade.core.commands.command import Command
from stockade.core.commands.fill import Filled
from stockade.core.commands.verb_spec import Kind
from stockade.core.model.errors import InputRefusal, Refusal
from stockade.core.model.state import GameState
from stockade.core.reads.queries import Choice, book_picks
from stockade.tui.bindings import bindings as key_bindings
from stockade.tui.bindings import key_of
from stockade.tui.forms.choice_list import ChoiceList
from stockade.tui.forms.pick_screen import PickScreen
from stockade.tui.forms.picker import UnitPicker
from stockade.tui.forms.tick_box import TickBox
from stockade.tui.table_app import table_app

if TYPE_CHECKING:
    from stockade.core.book.game import Game

Choices = Callable[[GameState], list[tuple[str, str]]]
# What a field holds: a picked unit or a typed word (str), units (list), a tick (bool).
FieldValue = str | list[str] | bool


class FormValues(dict[str, FieldValue]):
    """The form's values by field name (a slot's name for a verb's field), read as
    what each kind of field holds."""

    def text(self, name: str) -> str:
        """A text, number or choice field's words ("" when empty)."""
        value = self.get(name, "")
        return value if isinstance(value, str) else ""

    def units(self, name: str) -> list[str]:
        """A unit field's handles (one field: at most one)."""
        value = self.get(name)
        if isinstance(value, list):
            return list(value)
        return [value] if isinstance(value, str) and value else []

    def ticked(self, name: str) -> bool:
        return self.get(name) is True


# A unit field's list: the core's ranked Choices, given the state and the form's values.
UnitChoices = Callable[[GameState, FormValues], list[Choice]]

# Which widget shows a field of each of the grammar's kinds (any other: a text line).
PICK_ONE = frozenset({Kind.UNIT, Kind.TAKEOVER, Kind.PAIR})  # the roster picker
PICK_MANY = frozenset({Kind.UNITS})  # the roster picker, ticking
LISTED = frozenset({Kind.SIDE, Kind.CHOICE, Kind.ONE_OF, Kind.CAUSE, Kind.PHASE})


@dataclass
class Field:
    """A form's field: a verb's slot (``choices.slot_fields``) or one of a form's own
    questions, with the grammar's ``Kind`` and whether the form must have it."""

    name: str
    label: str
    kind: Kind = Kind.TEXT
    choices: Choices | UnitChoices | None = None  # unit kinds: UnitChoices
    placeholder: str = ""
    value: FieldValue = ""
    auto: bool = False  # a unit field: pick the only legal unit by itself
    required: bool = True  # a verb's field: its slot's ``required``
    # the core's word on whether the question applies to this game (None: always);
    # a field that does not is never shown, and keeps its empty value
    asked: Callable[[GameState], bool] | None = None

    @property
    def optional(self) -> bool:
        """The form does not stop at it when moving on, nor ask for it."""
        return not self.required

    @property
    def picks_units(self) -> bool:
        return self.kind in PICK_ONE or self.kind in PICK_MANY


# The command a form's values say: None while the form cannot say one yet (a question
# still open); a Refusal names the field still to fill or the value it cannot read.
Build = Callable[[FormValues, GameState], Command | None]
# The core's values for the empty fields when the game allows only one (None: it allows
# none or several, or it cannot tell yet).
Fill = Callable[[FormValues, GameState], Filled | None]


@dataclass
class FormSpec:
    name: str
    title: str
    summary: str
    fields: list[Field]
    build: Build
    key: str = ""
    notes: list[str] = field(default_factory=list)
    fill: Fill | None = None


KEYS = "enter: next · ↑↓ letter: list · tab: field · {record}: record · {cancel}: cancel"


def _more_line(below: list[str], width: int) -> str:
    """``▼ more below: A, B +2 more (tab)`` in one line of ``width``."""
    tail = " (tab)"
    shown: list[str] = []
    for i, name in enumerate(below):
        rest = len(below) - i - 1
        line = "▼ more below: " + ", ".join([*shown, name])
        if len(line) + len(tail) + (10 if rest else 0) > width:
            if not shown:  # a long label (a board question): as much of it as fits
                room = width - len("▼ more below: ") - len(tail) - (10 if rest else 0) - 1
                shown.append(name[: max(room, 1)] + "…")
                i += 1
            more = f" +{len(below) - i} more" if i < len(below) else ""
            return "▼ more below: " + ", ".join(shown) + more + tail
        shown.append(name)
    return "▼ more below: " + ", ".join(shown) + tail


@dataclass(frozen=True)
class DryRun:
    """The core's verdict on a command not recorded: its refusal, or None; and where
    the clock would follow the entry (the phase and the rule), "" when it stays."""

    refusal: Refusal | None
    clock_to: str = ""


def dry_run(game: Game, command: Command) -> DryRun:
    """The core's verdict on ``command`` without recording it."""
    from stockade.core.commands import first_attacker, plan

    try:
        parsed = plan(command, game.state, first_attacker(game))
        if parsed.events:
            game.check(list(parsed.events))
    except Refusal as refusal:
        return DryRun(refusal)
    move = parsed.clock_moved
    return DryRun(None, f"{move.phase} ({move.rule})" if move is not None else "")


def _empty(widget: Widget) -> bool:
    """A unit, choice or text field with nothing in it yet."""
    return isinstance(widget, (UnitPicker, ChoiceList, Input)) and not widget.value


class FormScreen(ModalScreen[str | None]):
    """A modal form built from a ``FormSpec``."""

    DEFAULT_CSS = """
    /* opaque: Textual draws no dimmed copy of the screens behind the form at each of
       its refreshes (a quarter of the form's drawing), and the form is all one reads */
    FormScreen { align: center middle; background: $background; }
    FormScreen > #form {
        width: 78; max-width: 100%; height: auto; max-height: 100%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    FormScreen #fields { height: auto; scrollbar-size-vertical: 1; }
    FormScreen #more { height: 1; color: $warning; text-style: bold; }
    FormScreen #pinned { height: auto; max-height: 9; }
    FormScreen Label { width: 1fr; margin-top: 0; color: $text-muted; }
    FormScreen Label.-focused { color: $text; text-style: bold; }
    FormScreen Checkbox:focus > .toggle--label { text-style: bold reverse; }
    FormScreen Input { padding: 0 1; background: $boost; }
    FormScreen Input:focus { background: $primary 30%; }
    FormScreen Checkbox { padding: 0; height: 1; }
    FormScreen Checkbox:focus { background: $primary 30%; }
    FormScreen .none { color: $text-muted; text-style: italic; }
    FormScreen #summary { color: $text-muted; }
    FormScreen #preview { text-style: bold; }
    FormScreen #verdict { height: auto; }
    FormScreen #keys { color: $text-muted; }
    """
    BINDINGS = key_bindings("form")

    def __init__(self, spec: FormSpec) -> None:
        super().__init__()
        self.spec = spec
        self.refusal: Refusal | None = None
        # what the form filled by itself (``spec.fill``) and its note, while it stands
        self.filled: dict[str, str | list[str]] = {}
        self.filled_note = ""
        self.more_line = ""  # what the "more below" line says while shown

    @property
    def game(self) -> Game:
        return table_app(self).game

    def compose(self) -> ComposeResult:
        state = self.game.state
        with Vertical(id="form") as box:
            box.border_title = self.spec.title
            yield Static(self.spec.summary, id="summary")
            # Not a stop of its own: tab goes from field to field, and the field
            # that takes the focus scrolls itself into view.
            with VerticalScroll(id="fields", can_focus=False):
                for f in self.spec.fields:
                    shown = f.asked is None or f.asked(state)
                    for widget in self._field(f, state):
                        widget.display = shown
                        yield widget
            # Shown once the layout leaves a field below the fold (``_show_more``):
            # composed shown, a form that fits would be laid out twice more to hide it.
            more = Static(id="more")
            more.display = False
            yield more
            with VerticalScroll(id="pinned", can_focus=False):
                yield Static(id="preview")
                yield Static(id="verdict")
            yield Static(
                KEYS.format(
                    record=key_of(self.app, "stockade.form_record"),
                    cancel=key_of(self.app, "stockade.form_cancel"),
                ),
                id="keys",
            )

    def _field(self, f: Field, state: GameState) -> ComposeResult:
        wid = f"f-{f.name}"
        if f.kind is Kind.FLAG:
            yield TickBox(f.label, bool(f.value), id=wid, compact=True)
            return
        # The first field takes the focus on mount: its label is composed pointed at,
        # so the focus changes nothing drawn (a label updated after the first layout
        # costs the form a second one).
        first = bool(self.spec.fields) and f is self.spec.fields[0]
        yield Label(
            f"▶ {f.label}" if first else f.label,
            id=f"l-{f.name}",
            classes="-focused" if first else "",
        )
        if f.picks_units:
            yield UnitPicker(f.label, f.kind in PICK_MANY, str(f.value or ""), id=wid)
            return
        options = cast(Choices, f.choices)(state) if f.choices else []
        if f.kind in LISTED:
            if not options:
                yield Static("(none in the book now)", classes="none")
            yield ChoiceList(options, str(f.value or ""), id=wid)
        else:
            placeholder = f"e.g. {f.placeholder}" if f.placeholder else ""
            yield Input(
                str(f.value),
                placeholder=placeholder,
                id=wid,
                compact=True,
                type="integer" if f.kind is Kind.NUMBER else "text",
            )

    def on_mount(self) -> None:
        self.fill_single()
        self.refresh_pickers()
        self.update_preview()
        if self.spec.fields:
            first = self.query_one(f"#f-{self.spec.fields[0].name}")
            first.focus()
            if isinstance(first, UnitPicker) and first.choices and not first.value:
                first.action_pick()  # the form opens on the roster
        fields = self.query_one("#fields", VerticalScroll)
        # after the scroll is laid out, not while it is being set: a "more below" line
        # worked out from a half-done layout names the wrong fields
        self.watch(fields, "scroll_y", self._show_more_later, init=False)
        self.call_after_refresh(self._fit)

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        """Give the fields what the screen has left once the verdict, the summary and
        the keys are shown: the fields scroll, the verdict stays pinned below them."""
        try:
            fields = self.query_one("#fields", VerticalScroll)
            chrome = [self.query_one(w) for w in ("#summary", "#more", "#pinned", "#keys")]
        except NoMatches:
            return
        used = 2 + sum(w.outer_size.height for w in chrome if w.display)  # 2: the border
        room = max(3, self.size.height - used)
        limit = fields.styles.max_height
        if limit is None and fields.outer_size.height <= room:
            # The fields fit as they are: a limit they do not reach would only cost
            # another layout of the whole form (its look is the same).
            self.call_after_refresh(self._show_more)
            return
        if limit is None or limit.value != room:
            fields.styles.max_height = room
        # always once laid out: the fields' height read now may still be the last one's
        self.call_after_refresh(self._show_more)

    def _show_more_later(self, *_args: object) -> None:
        self.call_after_refresh(self._show_more)

    def _show_more(self, *_args: object) -> None:
        """Name the fields below the fold (80x24: the body scrolls, the verdict stays)."""
        try:
            fields = self.query_one("#fields", VerticalScroll)
            more = self.query_one("#more", Static)
        except NoMatches:
            return
        # The height ``_fit`` gave the fields, not only the one laid out: the layout may
        # not have caught up with a new max-height yet, and a line worked out from the
        # old height would stay (nothing calls again once "more" is already shown).
        height = fields.scrollable_content_region.height
        limit = fields.styles.max_height
        if limit is not None and limit.is_cells:
            height = min(height, int(limit.value))
        bottom = fields.scroll_y + height
        below = []
        for f in self.spec.fields:
            widget = self.query_one(f"#f-{f.name}")
            if widget.display and widget.virtual_region.y >= bottom:
                below.append(f.label.split(" (")[0].split(":")[0])
        line = _more_line(below, more.size.width or 74) if below else ""
        if below and line != self.more_line:  # the same line again: no new layout
            self.more_line = line
            more.update(line)
        if more.display != bool(below):
            more.display = bool(below)
            self.call_after_refresh(self._fit)

    def refresh_pickers(self) -> None:
        """Ask the core again who may be picked, now that the other fields changed."""
        state = self.game.state
        values = self.values()
        for f in self.spec.fields:
            if not f.picks_units or f.choices is None:
                continue
            picker = self.query_one(f"#f-{f.name}", UnitPicker)
            picker.set_choices(cast(UnitChoices, f.choices)(state, values))
            single = book_picks(picker.choices)
            if f.auto and not picker.value and len(single) == 1:
                with picker.prevent(UnitPicker.Changed):
                    picker.value = single[0].handle

    def fill_single(self) -> None:
        """Fill the fields the game leaves one value for (``spec.fill``); a value filled
        before that the other fields no longer leave alone is taken back, one the
        player changed is theirs."""
        if self.spec.fill is None:
            return
        values = self.values()
        for name, value in list(self.filled.items()):
            if values[name] != value:  # changed by the player: no longer the form's
                del self.filled[name]
            else:  # asked again below, as if never filled
                values[name] = [] if isinstance(value, list) else ""
        found = self.spec.fill(values, self.game.state)
        now = dict(found.values) if found is not None else {}
        for name in self.filled.keys() - now.keys():
            self._set(name, [] if isinstance(self.filled[name], list) else "")
        for name, value in now.items():
            self._set(name, value)
        self.filled = now
        self.filled_note = found.note if found is not None else ""

    def _set(self, name: str, value: str | list[str]) -> None:
        """A field's value set by the form, not announced as the player's change."""
        widget = self.query_one(f"#f-{name}")
        if isinstance(widget, UnitPicker):
            with widget.prevent(UnitPicker.Changed):
                widget.value = value
        elif isinstance(widget, ChoiceList):
            with widget.prevent(ChoiceList.Changed):
                widget.value = str(value)
        elif isinstance(widget, Input):
            with widget.prevent(Input.Changed):
                widget.value = str(value)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The focused field's label is pointed at (▶) and bold: a shade alone is lost
        on some terminals, and a key typed into the wrong field records the wrong unit."""
        focused = event.widget.id or ""
        for f in self.spec.fields:
            with suppress(NoMatches):  # a tick box has no label of its own
                label = self.query_one(f"#l-{f.name}", Label)
                here = focused == f"f-{f.name}"
                if label.has_class("-focused") != here:  # else it already reads so
                    label.set_class(here, "-focused")
                    label.update(f"▶ {f.label}" if here else f.label)

    # ------------------------------------------------------------------ values
    def values(self) -> FormValues:
        out = FormValues()
        for f in self.spec.fields:
            widget = self.query_one(f"#f-{f.name}")
            if isinstance(widget, (UnitPicker, ChoiceList, Checkbox)):
                out[f.name] = widget.value
            elif isinstance(widget, Input):
                out[f.name] = widget.value.strip()
            else:  # _field makes only the widgets above
                raise TypeError(f"form field {f.name!r}: no value in a {type(widget).__name__}")
        return out

    def command(self) -> Command | None:
        """The command the fields say; Refusal when a field is missing or unreadable."""
        return self.spec.build(self.values(), self.game.state)

    def _built(self) -> tuple[Command | None, Refusal | None]:
        try:
            return self.command(), None
        except Refusal as refusal:
            return None, refusal

    def extra_verdict(self) -> Text | None:
        """Subclasses add their own lines above the core's verdict."""
        return None

    def update_preview(self) -> None:
        with suppress(NoMatches):  # a late change event while the form is closing
            self._update_preview()
        self.call_after_refresh(self._show_more)  # once the new verdict is laid out

    def _update_preview(self) -> None:
        command, problem = self._built()
        text = str(command) if command is not None else ""
        self.query_one("#preview", Static).update(
            Text.assemble(("will record: ", "dim"), (text or "…", "bold"))
        )
        verdict = Text()
        extra = self.extra_verdict()
        if self.filled_note:  # what the form chose by itself, before the verdict on it
            note = Text(self.filled_note, style="italic")
            extra = note if extra is None else note.append("\n").append_text(extra)
        if extra is not None:
            verdict.append_text(extra)
        run = dry_run(self.game, command) if command is not None else DryRun(problem)
        refusal = run.refusal
        missing = self._missing() if isinstance(refusal, InputRefusal) else []
        line: Text | None = None
        if command is not None and refusal is None:
            line = Text("✓ the book accepts this entry", style="bold")
            if run.clock_to:  # the entry moves the clock first, as typed at ':' it would
                line.append(f"; the clock moves to the {run.clock_to}")
        elif missing and len(missing) < self._required():
            # The command is only half built: say which field to fill, not the
            # command language's syntax the half-built line breaks.
            line = Text(f"? still to fill: {', '.join(missing)}", style="italic")
        elif refusal is not None and not missing:
            line = Text(f"✗ refused: {refusal}", style="bold " + self._error)
        if line is not None:
            verdict.append("\n" if extra is not None else "").append_text(line)
        self.query_one("#verdict", Static).update(verdict)
        self.call_after_refresh(self._fit)

    def _required(self) -> int:
        """How many fields must be filled (shown, not ticks, not optional)."""
        return sum(
            1
            for f in self.spec.fields
            if f.kind is not Kind.FLAG and not f.optional and self.query_one(f"#f-{f.name}").display
        )

    def _missing(self) -> list[str]:
        """The labels of the required fields shown and still empty."""
        out = []
        for f in self.spec.fields:
            widget = self.query_one(f"#f-{f.name}")
            if not widget.display or isinstance(widget, Checkbox) or f.optional:
                continue
            if _empty(widget):
                out.append(f.label)
        return out

    @property
    def _error(self) -> str:
        return self.app.theme_variables.get("error", "")

    @on(Input.Changed)
    @on(ChoiceList.Changed)
    @on(Checkbox.Changed)
    @on(UnitPicker.Changed)
    def _changed(self) -> None:
        try:
            self.fill_single()
            self.refresh_pickers()
        except NoMatches:  # a late change event while the form is closing
            return
        self.update_preview()

    @on(UnitPicker.Done)
    def _advance(self, event: UnitPicker.Done) -> None:
        """Enter on a field (or a pick made): on to the next required field still
        empty, else to the next field; a unit field reached empty opens its list."""
        names = [f.name for f in self.spec.fields]
        start = names.index(event.picker.id[2:]) + 1 if event.picker.id else 0
        shown = [
            (f, self.query_one(f"#f-{f.name}"))
            for f in self.spec.fields[start:]
            if self.query_one(f"#f-{f.name}").display
        ]
        empty = [
            (f, w) for f, w in shown if not isinstance(w, Checkbox) and not f.optional and _empty(w)
        ]
        if not (empty or shown):
            return  # the last field: ctrl+s records
        target = (empty or shown)[0][1]
        target.focus()
        target.scroll_visible()
        if empty and isinstance(target, UnitPicker) and target.choices:
            target.action_pick()  # a unit still to pick: straight on to the roster

    @on(UnitPicker.PickWanted)
    def _open_picker(self, event: UnitPicker.PickWanted) -> None:
        picker = event.picker
        ticked = list(picker.value) if picker.multi else []
        self.app.push_screen(
            PickScreen(picker.title, picker.choices, picker.multi, ticked), picker.picked
        )

    @on(Input.Submitted)
    def _enter(self, event: Input.Submitted) -> None:
        self.post_message(UnitPicker.Done(event.input))

    # ------------------------------------------------------------------ actions
    def action_record(self) -> None:
        command, problem = self._built()
        try:
            if command is None:
                if problem is not None:
                    raise problem
                return
            message = table_app(self).run_command(command)
        except Refusal as refusal:
            self.query_one("#verdict", Static).update(
                Text(f"✗ refused: {refusal}", style="bold " + self._error)
            )
            return
        self.dismiss(message or f"recorded: {command}")

    def action_cancel(self) -> None:
        self.dismiss(None)
