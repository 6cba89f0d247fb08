"""The main screen: header, the two side panels, the history, the command bar."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Self

from textual import on
from textual.app import ComposeResult
from textual.events import Resize, ScreenResume
from textual.geometry import Region, Size
from textual.screen import Screen
from textual.widgets import Input, Static

from stockade.core.book.change import Change
from stockade.core.book.game import Game
from stockade.core.model.errors import Refusal
from stockade.core.model.plural import counted
from stockade.core.reads.views import side_panels
from stockade.tui.bindings import Key, hint, named_in_bar
from stockade.tui.bindings import bindings as key_bindings
from stockade.tui.screens.board import TOO_SMALL, compose_board
from stockade.tui.table_app import GameUpdate, TableApp, table_app, watch_game
from stockade.tui.widgets.command_bar import CommandBar
from stockade.tui.widgets.footer import StockadeFooter
from stockade.tui.widgets.history_view import HistoryView, Line, all_lines
from stockade.tui.widgets.laid_out_once import LaidOutOnce
from stockade.tui.widgets.phase_bar import PhaseBar
from stockade.tui.widgets.side_panel import SidePanelView
from stockade.tui.widgets.status_line import StatusLine
from stockade.tui.widgets.verdict_bar import VerdictBar

if TYPE_CHECKING:
    # for the type alone: the command language loads on the first command
    from stockade.core.commands.command import Command
    from stockade.core.commands.verbs_control import HelpRow
    from stockade.core.model.state import GameState
    from stockade.core.reads.may import May

HINT_PHASES = ("RPh", "APh", "CCPh", "RtPh")
GAME_ACTIONS = {
    "next_phase",
    "prev_phase",
    "next_a20_phase",
    "next_turn",
    "forms",
    "form",
    "accept_offer",
}
READ_ONLY = "this game is open read-only: nothing can be entered"


def history_lines(game: Game) -> list[Line]:
    """The history's lines: every domain entry, with its status and reason (the whole
    game: the views rewrite only the lines each ``Change`` names)."""
    return all_lines(game)


# What A20 allows now (core.reads.may, ~10% of the main screen's imports) is asked when
# a phase opens or the bar lists entries, never for the screen to show: loaded then.
def what_may_happen(state: GameState) -> list[May]:
    from stockade.core.reads.may import may_now

    return may_now(state)


def worded(facts: list[May], state: GameState) -> list[str]:
    from stockade.core.reads.may import sentence

    return [sentence(fact, state) for fact in facts]


class MainScreen(LaidOutOnce, Screen[None]):
    BINDINGS = key_bindings("main")
    # Its parts cover it whole (the too-small notice, when shown, too): its own lines
    # are only its background, drawn blank rather than through the styles' line cache.
    BLANK = True

    def __init__(self, over_frame: bool = False) -> None:
        """``over_frame``: the screen replaces the frame painted while the game was
        read (``App.switch_screen``); the app calls ``frame_removed`` once it is gone."""
        super().__init__()
        self._over_frame = over_frame
        # painted whole by the mount's own resume, and the frame not removed yet
        self._painted_whole = False
        self._phase: tuple[int, str] | None = None
        self._keys: tuple[bool, ...] | None = None  # what check_action reads, as last refreshed
        self._wide: bool | None = None  # the breakpoint the panels were laid out for
        # what the last refusal offered (the entries that record a board fact that
        # may have changed since it was recorded) and the line it refused
        self._offer: tuple[tuple[Command, ...], str] | None = None
        # the game was shown when mounted: the resume that follows a push or a switch
        # (Textual's, right after the mount) has nothing new to show
        self._shown_by_mount = False
        self._size_classes()

    def _size_classes(self) -> None:
        """The app's breakpoint classes (-narrow / -normal / -wide, -short / -tall) for
        the size it has now, set before the first layout. Textual sets them on the
        screen's first Resize, which comes after its first layout and paint: the whole
        screen was laid out and painted twice before the first paint settled, once
        without the classes (~30 ms of CPU). Textual's Resize then finds them set and
        changes nothing; later resizes are its own."""
        self.update_classes(self._breakpoints(self.app.size), update=False)  # styled when mounted

    def _breakpoints(self, size: Size) -> dict[str, bool]:
        """Which of the app's breakpoint classes a screen of ``size`` has."""
        app = self.app
        classes: dict[str, bool] = {}
        for marks, cells in (
            (app.HORIZONTAL_BREAKPOINTS or [], size.width),
            (app.VERTICAL_BREAKPOINTS or [], size.height),
        ):
            chosen = next((name for edge, name in sorted(marks, reverse=True) if cells >= edge), "")
            classes.update({name: name == chosen for _, name in marks})
        return classes

    @property
    def table(self) -> TableApp:
        return table_app(self)

    @property
    def game(self) -> Game:
        return self.table.game

    def compose(self) -> ComposeResult:
        # The board's parts sit on the screen itself, with no container that only
        # groups them: the too-small classes hide each (stockade.tcss). The notice
        # itself is made only for a screen too small, now or when resized so.
        if self._too_small(self.app.size):
            yield self._notice()
        yield from compose_board(self.game)
        yield VerdictBar(id="vc-verdict", classes="part")
        yield CommandBar(self._candidates, self._command_text, id="command-bar", classes="part")
        yield StatusLine(id="status", classes="part")
        yield StockadeFooter(compact=True)

    def _too_small(self, size: Size) -> bool:
        """Whether a screen of ``size`` shows only the too-small notice."""
        classes = self._breakpoints(size)
        return classes.get("-narrow", False) or classes.get("-short", False)

    @staticmethod
    def _notice() -> Static:
        return Static(TOO_SMALL, id="too-small")

    def on_mount(self) -> None:
        self._phase = (self.game.state.turn, self.game.state.phase)
        watch_game(self, self._game_updated)
        self.show_game()
        self._shown_by_mount = True
        self.query_one(HistoryView).focus()
        if self.game.read_only:
            # Said as a fact, not as a refusal: nothing was refused yet.
            self.status.say(READ_ONLY, "info")
        elif self.game.conflicts:  # e.g. a log an older version accepted more loosely
            # (worded by the core's describer: loaded only for a game with conflicts)
            from stockade.core.book.conflicts import conflicts_notice

            self.status.say(conflicts_notice(self.game), "info")
        else:
            self.status.say(self.key_hint(), "hint")

    def key_hint(self) -> str:
        """The main verbs with the keys bound to them now (they follow the keymap)."""
        keys: list[str | tuple[str, str]]
        if self.game.read_only or self.game.state.ended:  # n and f do nothing then
            keys = ["stockade.history", ("stockade.tally", "tally"), "stockade.open_game"]
        else:
            keys = [
                "stockade.next_phase",
                ("stockade.forms", "forms"),
                ("stockade.command", "command"),
            ]
        return hint(self.app, *keys, ("stockade.help", "help"))

    def on_resize(self, event: Resize) -> None:
        # A layout that changes the screen's size sends the screen a Resize of the size
        # it was just laid out at, and Textual's handler lays the whole screen out
        # again (after the first layout, and after every terminal resize). That second
        # layout changes nothing when the breakpoint classes are already the size's:
        # the widgets that changed in the first (a scrollbar shown) ask for their own
        # layout, done with the next one. A terminal resize (a size the screen was not
        # laid out at yet) goes on to Textual's handler.
        if event.size == self.container_size and all(
            self.has_class(name) == on for name, on in self._breakpoints(event.size).items()
        ):
            event.prevent_default()
        elif self._too_small(event.size) and not self.query("#too-small"):
            self.mount(self._notice(), before=0)
        self.call_after_refresh(self._resized)

    def _resized(self) -> None:
        # Only the panels' layout depends on the size class (-wide: tables with an
        # escape and a rearm column); the rest repaints itself at the new size.
        if self.has_class("-wide") != self._wide:
            self.show_game()

    def on_screen_resume(self, event: ScreenResume) -> None:
        if self._shown_by_mount:  # the mount's own resume: shown already
            self._shown_by_mount = False
            # and styled already: each widget as it mounted, and what a class set since
            # touches when it was set. Textual's resume would style the whole screen
            # again, every widget, before its first layout.
            event.refresh_styles = False
            # Textual's own handler lays the screen out and paints it whole next
            self._painted_whole = self._over_frame
            return
        self.show_game()

    def refresh(
        self,
        *regions: Region,
        repaint: bool = True,
        layout: bool = False,
        recompose: bool = False,
    ) -> Self:
        """From the mount's own resume, which paints the whole screen, to the frame
        removed, Textual asks the whole screen to be painted again three times (the
        resume itself, the switch, the frame's removal), each the same screen again:
        a full render of every widget's lines (~20 M instructions of the fill). Those
        repaints are left out; a layout asked with them still runs, and every widget
        still repaints its own region when what it shows changes."""
        if self._painted_whole and not regions and not recompose:
            repaint = False
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def frame_removed(self) -> None:
        """The frame under this screen is gone: whole repaints are Textual's again."""
        self._painted_whole = False

    def on_screen_suspend(self) -> None:
        self._shown_by_mount = False  # covered before its first resume: show it then
        self._painted_whole = False

    def _game_updated(self, update: GameUpdate) -> None:
        self.show_game(update.message, update.change, update.rows)

    # -------------------------------------------------------------- drawing
    @property
    def status(self) -> StatusLine:
        return self.query_one(StatusLine)

    def _candidates(self, text: str) -> list[str]:
        from stockade.core.commands import complete

        try:
            return list(complete(text, self.game.state))
        except Refusal:
            return []

    def show_game(
        self, message: str = "", change: Change | None = None, rows: tuple[HelpRow, ...] = ()
    ) -> None:
        """Show the game as it stands (on each ``GameUpdate``, and on resume): the
        phase bar and each panel repaint only if what they say changed, the footer's
        keys are refreshed only if what ``check_action`` reads changed. The history
        follows by itself (it watches the same updates)."""
        game, state = self.game, self.game.state
        flags = (["READ-ONLY"] if game.read_only else []) + (
            [counted(len(game.conflicts), "CONFLICT", "CONFLICTS")] if game.conflicts else []
        )
        self.query_one(PhaseBar).show(state, flags)
        self._wide = wide = self.has_class("-wide")
        panels = [panel for panel in self.query(SidePanelView) if panel.side in state.sides]
        if panels:
            views = side_panels(state, [panel.side for panel in panels])
            for panel in panels:
                panel.show(views[panel.side], wide=wide)
        self.query_one(VerdictBar).show(state, change)
        history = self.query_one(HistoryView)
        if not history.shows(game):
            history.sync_game(game)  # first fill, or the game swapped or re-read
        now = (state.turn, state.phase)
        hints = []
        bar = self.query_one(CommandBar)
        opened = now != self._phase
        # what A20 allows now: worded on the status line when a phase opens, and listed
        # as entries by the bar (when a phase opens, and while it is open and empty)
        facts = what_may_happen(state) if opened or bar.listing else []
        if opened or bar.listing:
            bar.list_offers(self._offer_lines(facts), now=True if opened else None)
        if opened:
            self._phase = now
            if state.ended and message:
                pass  # the entry that ended the game already says so, and why (A20.1)
            elif state.phase in HINT_PHASES or state.ended:
                hints = worded(facts, state) or ["nothing A20 asks for now"]
        if hints:
            text = " · ".join(([message] if message else []) + hints)
            # (not while typing in the bar: there the key is a letter, not "next")
            if not state.ended and not isinstance(self.focused, Input):
                # The key that moves on, at the end if the whole fits; if only the rules
                # text fits, that alone (the footer names the key); if even that does
                # not, the key first, so the part "↓ more" hides is the rules text.
                key = hint(self.app, "stockade.next_phase")
                if self.status.fits(f"{text} · {key}"):
                    text = f"{text} · {key}"
                elif not self.status.fits(text):
                    text = f"{key} · {text}"
            self.status.say(text, "hint")
        elif message:
            self.status.say(message, "ok", rows)
        keys = (game.can_undo(), game.can_redo(), game.read_only, state.ended)
        if keys != self._keys:
            self._keys = keys
            self.refresh_bindings()

    # -------------------------------------------------------------- keys
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # After the end these keys stay live only to say why nothing happens.
        if action == "command" and isinstance(self.focused, Input):
            return None  # ':' typed in the bar is text (a priority key would take it)
        return None if self.why_not(action) else True

    def why_not(self, action: str) -> str:
        """Why a key of the board does nothing now ("" when it acts): what
        ``check_action`` disables, in words, for the bar to say when a key's word is
        typed (``forms`` in a read-only game)."""
        game = self.game
        if game.read_only and action in GAME_ACTIONS | {"undo", "redo"}:
            return READ_ONLY
        if action == "undo" and not game.can_undo():
            return "nothing to undo"
        if action == "redo" and not game.can_redo():
            return "nothing to redo"
        if action == "accept_offer" and self._offer is None:
            return "no refusal has offered an entry to record"
        return ""

    def _key_not_now(self, key: Key) -> str:
        """Why a board key named in the bar would do nothing now ("" when it acts, or
        when it is the app's: those always act)."""
        return self.why_not(key.action_name) if key.scope == "main" else ""

    def _run(self, text: str) -> bool:
        from stockade.core.commands.implied import StaleBoardFact

        had_offer = self._offer is not None
        self._offer = None
        try:
            message = self.table.run_command(text)
        except StaleBoardFact as refusal:
            self._offer = (refusal.offers, text)
            key = hint(self.app, ("stockade.accept_offer", "record " + "; ".join(refusal.lines)))
            # the key says what the refusal's hint says: the hint is left out
            self.status.say(f"{refusal.rule}: {refusal.text} · {key}", "refusal")
            self.refresh_bindings()
            return False
        except Refusal as refusal:
            self.status.say(str(refusal), "refusal")
            return False
        finally:
            if had_offer and self._offer is None:
                self.refresh_bindings()
        self._page_if_long(text, message)
        return True

    def action_accept_offer(self) -> None:
        """Record the entries the last refusal offered, then the line it refused."""
        if self._offer is None:
            return
        offers, text = self._offer
        for offer in offers:
            if not self._run(str(offer)):
                return
        if self._run(text):
            bar = self.query_one(CommandBar)
            if bar.input.value.strip() == text:
                bar.close()

    def _page_if_long(self, text: str, message: str) -> None:
        """A reply to read, not an entry's, gets a page of its own (the page keys read
        it): ``help A20.55`` (the section's requirements), or one longer than two of the
        status line's pages (``help``, the verbs: ~11 presses of ctrl+down at 80x24).
        An entry's reply stays on the status line, beside the bar's next command."""
        from stockade.core.reads.conformance import is_rule_id

        words = text.split()
        rules = len(words) == 2 and words[0].lower() in ("help", "?") and is_rule_id(words[1])
        update = self.table.game_update
        read = update is not None and update.change is None and update.message == message
        if rules or (read and self.status.pages() > 2):
            from stockade.tui.screens.text_screen import TextScreen

            rows = update.rows if update is not None else ()
            self.app.push_screen(TextScreen(text, message or "", rows))

    def _after_the_end(self) -> bool:
        """After the end the clock and the forms are still: say so, do nothing."""
        if self.game.state.ended:
            self.status.say(
                "the game has ended: the clock no longer moves and nothing more can be "
                "entered (undo the end to go on; the tally is final)",
                "refusal",
            )
            return True
        return False

    @on(VerdictBar.EndOffered)
    def _offer_the_end(self, event: VerdictBar.EndOffered) -> None:
        from stockade.tui.screens.confirm import ConfirmScreen  # asked once a game

        self.app.push_screen(
            ConfirmScreen(
                "Victory Conditions met",
                f"{event.headline}.\n\nEnd the game now? (recorded as an entry; "
                "undo takes it back)",
            ),
            self._end_answered,
        )

    def _end_answered(self, answer: str | None) -> None:
        if answer is None:
            return
        try:
            table_app(self).run_command("end")
        except Refusal as refusal:
            self.app.notify(str(refusal), severity="error", markup=False)

    def action_next_phase(self) -> None:
        if not self._after_the_end():
            self._run("next")

    def action_prev_phase(self) -> None:
        if not self._after_the_end():
            self._run("prev")

    def action_next_a20_phase(self) -> None:
        if not self._after_the_end():
            self._run("skip")

    def action_next_turn(self) -> None:
        if not self._after_the_end():
            self._run("turn")

    def action_reply(self, step: int) -> None:
        self.status.scroll_pages(step)

    def action_undo(self) -> None:
        self._run("undo")

    def action_redo(self) -> None:
        self._run("redo")

    def action_command(self) -> None:
        bar = self.query_one(CommandBar)
        bar.list_offers(self._offer_lines(what_may_happen(self.game.state)))
        bar.open()

    def _offer_lines(self, facts: list[May]) -> list[tuple[str, str]]:
        """The entries that may happen now, as the core writes them (line, rule)."""
        game = self.game
        if game.read_only or game.state.ended:
            return []
        from stockade.core.commands.offers import offers

        return [(offer.line, offer.rule) for offer in offers(game.state, facts)]

    def action_forms(self) -> None:
        if self._after_the_end():
            return
        from stockade.tui.forms.menu import FormMenu

        self.app.push_screen(FormMenu(), self._form_chosen)

    def _form_chosen(self, name: str | None) -> None:
        if name:
            self.action_form(name)

    def action_form(self, name: str) -> None:
        if self._after_the_end():
            return
        from stockade.tui.forms import open_form

        open_form(self.app, name, self._form_done)

    def _form_done(self, message: str | None) -> None:
        if message:
            self.status.say(message, "ok")
        self.focus_board()

    def focus_board(self) -> None:
        """Back to the board: the keys (n, u, :) work at once, nothing types into the bar."""
        self.query_one(CommandBar).close()
        self.set_focus(self.query_one(HistoryView))  # at once: the next key is the board's

    # -------------------------------------------------------------- games
    def action_new_game(self) -> None:
        from stockade.tui.screens.games import NewGameScreen

        self.app.push_screen(NewGameScreen(), self._game_chosen)

    def action_open_game(self) -> None:
        from stockade.tui.screens.games import OpenGameScreen

        self.app.push_screen(OpenGameScreen(), self._game_chosen)

    def action_demo_game(self) -> None:
        from stockade.tui.opening import ensure_demo

        try:
            path, _notes = ensure_demo()
        except OSError as exc:
            self.status.say(f"cannot make the demo game: {exc.strerror or exc}", "refusal")
            return
        self._game_chosen(path)

    def _game_chosen(self, path: Path | None) -> None:
        if path is None:
            self.focus_board()
            return
        self.app.call_later(self.table.switch_game, path)

    def action_history(self) -> None:
        from stockade.tui.screens.replay import ReplayScreen

        seq = self.query_one(HistoryView).selected_seq
        self.app.push_screen(ReplayScreen(seq))

    def action_tally(self) -> None:
        from stockade.tui.screens.tally import TallyScreen

        self.app.push_screen(TallyScreen())

    def action_roster(self) -> None:  # every unit, filterable
        from stockade.tui.screens.roster import RosterScreen

        self.app.push_screen(RosterScreen())

    def action_help(self) -> None:
        from stockade.tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen())

    async def action_quit(self) -> None:
        self.app.exit(0)

    # -------------------------------------------------------------- command bar
    def _command_text(self, text: str) -> None:
        # Recorded: the bar empties and stays open for the next command, so what is
        # typed ahead is text, never a board key (n, a, ...); esc leaves it. Refused:
        # the text stays in the bar, selected: a letter starts the next command, an
        # arrow or backspace fixes the line the refusal names (``CommandInput.keep``).
        bar = self.query_one(CommandBar)
        if self._board_key_named(text):
            return
        if self._run(text):
            bar.open()
        else:
            bar.input.keep()

    def _board_key_named(self, text: str) -> bool:
        """A line that is no verb of the book but names one of the board's keys ("new",
        "tally", "quit"): that key's action, and its key said, so that the next time it
        is one press."""
        from stockade.core.commands.grammar import verb_at

        key = named_in_bar(text)
        if key is None or verb_at(text.split())[0] is not None:
            return False
        why = self._key_not_now(key)
        if why:  # its key would do nothing either: why, not the key
            self.status.say(f"{key.does}: not now ({why})", "refusal")
            return True
        self.focus_board()
        self.status.say(f"{hint(self.app, key.id)} (a key of the board)", "ok")
        self.call_later(self.app.run_action, key.action, self.app if key.scope == "app" else self)
        return True

    @on(CommandBar.Changed)
    def _typing(self, event: CommandBar.Changed) -> None:
        text = event.text
        if not text.strip() or event.turn != self.query_one(CommandBar).turn:
            return  # emptied, or stale: edited since, or entered (its reply stays)
        offers = self._candidates(text)
        from stockade.core.commands.grammar import verb_at

        tokens = text.split()
        verb, used = verb_at(tokens)
        said = " ".join(tokens[:used])
        # a player's word for a verb says which verb it is read as ("refuse = reject")
        usage = "" if verb is None else verb.usage_in(self.game.state)
        if verb is None:
            key = named_in_bar(text)
            if key is not None and (why := self._key_not_now(key)):
                usage = f"{key.does}: not now ({why})"
            elif key is not None:
                usage = f"{hint(self.app, key.id)}: a key of the board; enter does it"
        if verb is not None and said.lower() != verb.name:
            usage = f"{said} = {usage}"
        from stockade.core.commands.complete import offers_line

        width = max(30, 2 * self.size.width - len(usage) - 10)  # the status line wraps once
        more = ("  tab: " + offers_line(offers, self.game.state, width)) if offers else ""
        if usage or more:
            self.status.say(f"{usage}{more}", "hint")

    @on(CommandBar.Left)
    def _left(self) -> None:
        self.focus_board()
        self.status.say(self.key_hint(), "hint")
