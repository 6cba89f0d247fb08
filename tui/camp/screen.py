"""The camp screen: the POW's record, this month's choices, the dice, the history and a
chart of simulated outcomes. Keyboard only.

The screen holds no game state of its own: every key becomes a call on the
``Campaign`` (which logs it), and every panel is redrawn from the campaign's state.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.markup import escape
from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Key
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer, Static

from stockade.core.camp.campaign import Campaign
from stockade.core.camp.dice import parse_outcome, parse_typed_dice
from stockade.core.camp.errors import CampError
from stockade.core.camp.simulate import STANDARD_STRATEGIES, Tally, simulate
from stockade.tui.bindings import bindings as key_bindings
from stockade.tui.camp import render
from stockade.tui.camp.modals import EndScreen, HelpScreen, camp_keys

SIMULATED_GAMES = 2000  # per strategy: about a second each, rates within ~1-2 points
TYPING_KEYS = set("0123456789 -+,")
CHOICE_ACTIONS = {"loiter", "malinger", "gather", "escape", "stay"}


class CampScreen(Screen[int]):
    CSS_PATH = "camp.tcss"
    BINDINGS = key_bindings("camp")
    # What ``check_action`` answers from: the footer asks again only when it changes,
    # not on every digit typed (Textual's Footer rebuilds all its keys when asked).
    actions_state: reactive[tuple[object, ...]] = reactive((), init=False)

    def __init__(self, campaign: Campaign):
        super().__init__()
        self.campaign = campaign
        self._entry = ""  # digits typed for a physical roll or a source-only outcome
        self._message = "\n".join(campaign.warnings)
        self._seen_notes = 0  # notes already shown, so the dice panel shows only new ones
        self._fresh: list[str] = []
        self._tallies: list[Tally] = []
        self._sim_status = ""  # set on mount: it names the simulate key in force

    # -- layout ----------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal(id="camp-top"):
            with Vertical(id="camp-left"):
                yield Static(id="camp-record")
                yield Static(id="camp-turn")
            with Vertical(id="camp-right"):
                yield Static(id="camp-dice")
                yield Static(id="camp-chart")
        with VerticalScroll(id="camp-history-box"):
            yield Static(id="camp-history")
        yield Footer()

    def on_mount(self) -> None:
        options = self.campaign.options
        self.query_one("#camp-record").border_title = "The POW"
        self.query_one(
            "#camp-record"
        ).border_subtitle = f"{options.rules} rules · {options.dice} dice"
        self.query_one("#camp-turn").border_title = "This month"
        self.query_one("#camp-dice").border_title = "Dice"
        self.query_one("#camp-chart").border_title = "Simulation"
        self.query_one("#camp-history-box").border_title = "History"
        self._seen_notes = 0
        simulate_key = escape(camp_keys(self.app)["simulate"])
        self._sim_status = (
            f"[dim]{simulate_key}: simulate {SIMULATED_GAMES:,} games per strategy "
            "under the house-rule table[/]"
        )
        self._refresh()

    # -- drawing ---------------------------------------------------------------
    def _refresh(self) -> None:
        state = self.campaign.state
        notes = [n for m in (*state.history, state.current) if m is not None for n in m.notes]
        if len(notes) != self._seen_notes:
            # Undo shrinks the notes; show the latest one then rather than nothing.
            self._fresh = notes[self._seen_notes :] if len(notes) > self._seen_notes else notes[-1:]
            self._seen_notes = len(notes)
        self._show("#camp-record", render.record_text(state))
        need = self.campaign.need()
        physical = self.campaign.options.dice == "physical"
        keys = camp_keys(self.app)  # the keys in force: a remap in config.toml shows here
        turn = [
            render.actions_text(state, self.campaign.options.rules == "house", keys),
            render.prompt_text(need, physical, self._entry, state.kit, keys),
        ]
        if self._message:
            turn.append(f"[red]{escape(self._message)}[/]")
        self._show("#camp-turn", "\n".join(turn))
        fresh = [escape(n) for n in self._fresh[-3:]] or ["[dim]no dice yet[/]"]
        self._show("#camp-dice", "\n".join(fresh))
        chart = render.chart_lines(self._tallies) if self._tallies else []
        self._show("#camp-chart", "\n".join([*chart, self._sim_status]))
        self._show("#camp-history", "\n".join(render.history_lines(state)), sized_by_css=False)
        self.query_one("#camp-history-box", VerticalScroll).scroll_end(animate=False)
        self.actions_state = (
            state.phase,
            tuple(sorted(state.allowed_actions)),
            self.campaign.can_undo(),
            self.campaign.can_redo(),
        )

    def _show(self, widget_id: str, text: str, *, sized_by_css: bool = True) -> None:
        """A panel's text, drawn again only when it changed. The panels the stylesheet
        sizes (all but the history, which grows) need no layout for a new text."""
        panel = self.query_one(widget_id, Static)
        if panel.content != text:
            panel.update(text, layout=not sized_by_css)

    def watch_actions_state(self) -> None:
        self.refresh_bindings()

    def _wants_typing(self) -> bool:
        need = self.campaign.need()
        physical_roll = need.is_roll and self.campaign.options.dice == "physical"
        return physical_roll or need.phase == "outcome"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        state = self.campaign.state
        if action == "act":
            return state.phase == "action" and parameters[0] in state.allowed_actions
        if action == "escape":
            return state.phase == "escape_choice"
        if action == "undo":
            return True if self.campaign.can_undo() else None
        if action == "redo":
            return True if self.campaign.can_redo() else None
        return True

    # -- doing -----------------------------------------------------------------
    def _do(self, move: Callable[..., object], *args: object) -> None:
        """Run one campaign call; a refusal becomes the red line, never a crash."""
        was_over = self.campaign.state.over
        try:
            move(*args)
            self._message = ""
        except CampError as exc:
            self._message = str(exc)
        self._refresh()
        if self.campaign.state.over and not was_over:
            self.app.push_screen(EndScreen(self.campaign.state), self._after_end)

    def action_act(self, action: str) -> None:
        self._do(self.campaign.choose_action, action)

    def action_escape(self, attempt: bool) -> None:
        self._do(self.campaign.choose_escape, attempt)

    def action_undo(self) -> None:
        self._entry = ""
        self._do(self.campaign.undo)

    def action_redo(self) -> None:
        self._entry = ""
        self._do(self.campaign.redo)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.campaign.header.table, self.campaign.options))

    def action_quit_camp(self) -> None:
        # The host decides what quitting means: CampApp exits, the main app returns.
        self.dismiss(0)

    def _after_end(self, choice: str | None) -> None:
        if choice == "undo":
            self.action_undo()
        elif choice == "quit":
            self.action_quit_camp()

    def on_key(self, event: Key) -> None:
        """Typed dice (or a source-only outcome): digits, then Enter."""
        if not self._wants_typing():
            return
        char = event.character or ""
        if event.key == "enter":
            self._submit_entry()
        elif event.key == "backspace":
            self._entry = self._entry[:-1]
        elif char and char in TYPING_KEYS:
            self._entry = (self._entry + char)[-40:]
        else:
            return
        event.stop()
        event.prevent_default()
        self._refresh()

    def _submit_entry(self) -> None:
        text, self._entry = self._entry, ""
        need = self.campaign.need()
        try:
            if need.phase == "outcome":
                health, kit = parse_outcome(text)
                self._do(self.campaign.enter_outcome, health, kit)
            else:
                self._do(self.campaign.enter_dice, parse_typed_dice(text, need.sides))
        except CampError as exc:
            self._entry = text  # keep what was typed so it can be corrected
            self._message = f"{exc}"

    # -- simulation --------------------------------------------------------------
    def action_simulate(self) -> None:
        self._sim_status = (
            f"[yellow]simulating {SIMULATED_GAMES:,} games × {len(STANDARD_STRATEGIES)}…[/]"
        )
        self._refresh()
        self._run_simulation()

    @work(thread=True, exclusive=True, group="camp-simulation")
    def _run_simulation(self) -> None:
        # A thread, not the event loop: ten thousand folds would freeze the keys.
        table = self.campaign.header.table
        seed = self.campaign.options.seed
        month_die = self.campaign.options.month_die
        tallies = [
            simulate(SIMULATED_GAMES, name, seed, table, month_die) for name in STANDARD_STRATEGIES
        ]
        self.app.call_from_thread(self._show_simulation, tallies)

    def _show_simulation(self, tallies: list[Tally]) -> None:
        self._tallies = tallies
        seed = escape(self.campaign.options.seed)
        self._sim_status = f"[dim]{SIMULATED_GAMES:,} games each, seed {seed}[/]"
        self._refresh()
