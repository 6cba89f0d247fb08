"""History and replay (``h``): step through the history with the panels showing the
state after the selected entry; undo to here; strike / unstrike an entry, or amend it
where it stands, after seeing what it would break; back to the present.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import get_current_worker

from stockade.core.book.change import Change, consequences, totals_of
from stockade.core.book.game import Game
from stockade.core.book.tally import tally
from stockade.core.model.errors import Refusal
from stockade.core.model.state import GameState
from stockade.core.reads.views import side_panels
from stockade.tui.bindings import bindings as key_bindings
from stockade.tui.bindings import hint
from stockade.tui.screens.board import TOO_SMALL, compose_board
from stockade.tui.screens.confirm import ConfirmScreen
from stockade.tui.table_app import table_app
from stockade.tui.toast import brief
from stockade.tui.widgets.footer import StockadeFooter
from stockade.tui.widgets.history_view import HistoryView
from stockade.tui.widgets.phase_bar import PhaseBar
from stockade.tui.widgets.side_panel import SidePanelView
from stockade.tui.widgets.status_line import StatusLine

if TYPE_CHECKING:
    from stockade.core.commands.execute import Outcome


class ReplayScreen(Screen[None]):
    BINDINGS = key_bindings("replay")

    def __init__(self, seq: int | None = None) -> None:
        super().__init__()
        self.start_seq = seq
        self.shown_seq: int | None = None
        # The outcome of the last undo/strike stays on the status line while the same
        # entry is selected (the fold that follows it must not wipe it).
        self._note: tuple[int | None, str, str] | None = None

    @property
    def game(self) -> Game:
        return table_app(self).game

    def compose(self) -> ComposeResult:
        yield Static(TOO_SMALL, id="too-small")
        with Vertical(id="main"):
            yield from compose_board(self.game)
            yield StatusLine(id="status")
        yield StockadeFooter(compact=True)

    def on_mount(self) -> None:
        history = self.query_one(HistoryView)
        history.border_title = "REPLAY"
        history.follow_changes = False
        history.sync_game(self.game)
        if self.start_seq is not None:
            history.select_seq(self.start_seq)
        history.focus()
        self._show_selected()

    # ------------------------------------------------------------ showing
    @property
    def selected(self) -> int | None:
        return self.query_one(HistoryView).selected_seq

    @on(HistoryView.Highlighted)
    def _moved(self) -> None:
        self._show_selected()

    def _show_selected(self) -> None:
        seq = self.selected
        if seq is not None:
            self.load_state(seq)
        self.refresh_bindings()

    @work(thread=True, exclusive=True, group="replay")
    def load_state(self, seq: int) -> None:
        """Fold the history up to ``seq`` off the event loop (long games take a while)."""
        try:
            state = self.game.state_at(seq)
        except Exception as exc:  # the game changed under the fold; a newer load follows
            self.log.warning(f"replay fold at {seq} failed: {exc!r}")
            return
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._show_state, seq, state)

    def _show_state(self, seq: int, state: GameState) -> None:
        self.shown_seq = seq
        history = self.query_one(HistoryView)
        last = history.last_seq or seq
        line = history.line(seq)
        self.query_one(PhaseBar).show(state, note=f"REPLAY: {seq} of {last}")
        wide = self.has_class("-wide")
        panels = [panel for panel in self.query(SidePanelView) if panel.side in state.sides]
        views = side_panels(state, [panel.side for panel in panels]) if panels else {}
        for panel in panels:
            panel.show(views[panel.side], wide=wide, subtitle=f"as after entry {seq}")
        status = line.status if line else ""
        note = (
            f" [{status}: {line.reason}]"
            if line and line.reason
            else (f" [{status}]" if status not in ("", "ok") else "")
        )
        if self._note is not None and self._note[0] == seq:
            self.query_one(StatusLine).say(self._note[1], self._note[2])
            return
        self._note = None
        # only the keys that act on this line (``check_action``): on an undo/redo/strike
        # record x, X and a do nothing, and naming them there misleads
        acting = [
            key
            for action, key in (
                ("undo_to_here", ("stockade.replay_undo_to", "undo to here")),
                ("strike", "stockade.replay_strike"),
                ("unstrike", "stockade.replay_unstrike"),
                ("amend", ("stockade.replay_amend", "amend")),
            )
            if self.check_action(action, ())
        ]
        keys = hint(self.app, *acting, ("stockade.replay_present", "present"))
        self.query_one(StatusLine).say(
            f"after {seq}: {line.text if line else ''}{note} · ↑↓ step · {keys}", "hint"
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("undo_to_here", "strike", "unstrike", "amend"):
            if self.game.read_only or self.selected is None:
                return None
            line = self.query_one(HistoryView).line(self.selected)
            status = line.status if line else ""
            if action == "unstrike":
                return True if status == "struck" else None
            if action in ("strike", "amend"):
                return True if status in ("ok", "conflict") and self.selected > 1 else None
            return True if status in ("ok", "conflict") and self._to_undo() else None
        return True

    def _resync(self, message: str, kind: str = "ok", change: Change | None = None) -> None:
        if change is not None:
            self.query_one(HistoryView).apply_change(self.game, change, follow=False)
            said = consequences(change, totals_of(tally(self.game.state)))
            if said:  # the notice after the write: what it did to later entries and CVP
                self.app.notify(brief(said), title=message, timeout=12, markup=False)
                message = f"{message}: " + "; ".join(line.strip() for line in said)
            # the screens under this one say it too: leaving replay shows this reply
            table_app(self).game_changed(message, change)
        self._note = (self.selected, message, kind)
        self._show_selected()
        self.query_one(StatusLine).say(message, kind)

    def _preview_body(self, title: str, change: Change) -> Text:
        """The confirmation's body: what the write would do, from the core's preview."""
        body = Text()
        body.append(title + "\n", style="bold")
        said = consequences(change, totals_of(tally(self.game.state)))
        if said:
            for line in said:
                body.append(f"  • {line}\n")
        else:
            body.append("Nothing later changes; no CVP changes.\n")
        return body

    # ------------------------------------------------------------ actions
    def action_present(self) -> None:
        self.app.pop_screen()

    def action_first(self) -> None:
        self.query_one(HistoryView).action_first()

    def action_last(self) -> None:
        self.query_one(HistoryView).action_last()

    def _to_undo(self) -> list[int]:
        """The command groups "undo to here" would undo (the core decides)."""
        try:
            return self.game.undo_to_plan(self.selected or 0)
        except Refusal:
            return []

    def action_undo_to_here(self) -> None:
        seq = self.selected
        try:
            preview = self.game.preview_undo_to(seq or 0)
        except Refusal as refusal:
            self.query_one(StatusLine).say(str(refusal), "refusal")
            return
        n = len(preview.undone)
        body = self._preview_body(
            f"Undo {n} entr{'y' if n == 1 else 'ies'} after entry {seq}? They stay in the "
            "file and redo brings them back, until a new entry is made.",
            preview,
        )
        self.app.push_screen(
            ConfirmScreen("Undo to here", body), lambda answer: self._undo_confirmed(seq, answer)
        )

    def _undo_confirmed(self, seq: int | None, answer: str | None) -> None:
        if answer is None or seq is None:
            return
        try:
            # One call, one write: a crash leaves all of the undo records or none.
            change = self.game.undo_to(seq)
        except Refusal as refusal:
            self._resync(str(refusal), "refusal")
            return
        n = len(change.undone)
        self._resync(
            f"undid {n} entr{'y' if n == 1 else 'ies'} after entry {seq} "
            "(r redoes them one by one from the main screen)",
            change=change,
        )

    def action_strike(self) -> None:
        seq = self.selected
        if seq is None:
            return
        try:
            preview = self.game.preview_strike(seq)
        except Refusal as refusal:
            self.query_one(StatusLine).say(str(refusal), "refusal")
            return
        line = self.query_one(HistoryView).line(seq)
        body = self._preview_body(f"Strike entry {seq}: {line.text if line else ''}", preview)
        self.app.push_screen(
            ConfirmScreen("Strike an entry", body, ask="reason (optional), then enter"),
            lambda reason: self._strike_confirmed(seq, reason),
        )

    def _strike_confirmed(self, seq: int, reason: str | None) -> None:
        if reason is None:
            return
        self._control("strike", seq, reason.strip())

    def _control(self, verb: str, seq: int, reason: str = "") -> None:
        from stockade.core.commands import control

        try:
            outcome = control(self.game, verb, seq, reason)
        except Refusal as refusal:
            self._resync(str(refusal), "refusal")
            return
        self._resync(outcome.message.splitlines()[0], change=outcome.change)

    def action_unstrike(self) -> None:
        seq = self.selected
        try:
            preview = self.game.preview_unstrike(seq or 0)
        except Refusal as refusal:
            self.query_one(StatusLine).say(str(refusal), "refusal")
            return
        body = self._preview_body(
            f"Bring back entry {seq}? Later entries are checked again.", preview
        )

        def unstrike_if_confirmed(answer: str | None) -> None:
            if answer is not None and seq is not None:
                self._control("unstrike", seq)

        self.app.push_screen(ConfirmScreen("Unstrike", body), unstrike_if_confirmed)

    def action_amend(self) -> None:
        """Ask what the entry should have been (starting from the entry's own line),
        show what that would change (the core's preview), and only then write the
        amendment. A refused line stays in the question, the refusal under it."""
        from stockade.core.commands.entry_line import entry_line
        from stockade.core.commands.execute import amend

        seq = self.selected
        if seq is None:
            return
        line = self.query_one(HistoryView).line(seq)
        body = Text()
        body.append(f"Entry {seq}: {line.text if line else ''}\n", style="bold")
        body.append(
            "Change it to what it should have been, as in the command bar (e.g. transfer "
            "g1 to a3). The next question shows what it changes; nothing is written before."
        )
        previews: dict[str, Outcome] = {}

        def vet(text: str) -> str:
            try:
                previews[text] = amend(self.game, seq, text, preview=True)
            except Refusal as refusal:
                return str(refusal)
            return ""

        self.app.push_screen(
            ConfirmScreen(
                f"Amend entry {seq}",
                body,
                ask="the entry as it should have been",
                value=entry_line(self.game.records[seq - 1]),
                vet=vet,
            ),
            lambda text: self._amend_typed(seq, text, previews.get(text or "")),
        )

    def _amend_typed(self, seq: int, text: str | None, preview: Outcome | None) -> None:
        from stockade.core.commands.execute import amend

        if not text or preview is None or preview.change is None:
            return
        body = self._preview_body(preview.message, preview.change)

        def amend_if_confirmed(answer: str | None) -> None:
            if answer is None:
                return
            try:
                outcome = amend(self.game, seq, text.strip())
            except Refusal as refusal:
                self._resync(str(refusal), "refusal")
                return
            self._resync(outcome.message.splitlines()[0], change=outcome.change)

        self.app.push_screen(ConfirmScreen("Amend an entry", body), amend_if_confirmed)
