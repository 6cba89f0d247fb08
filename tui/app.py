"""Stockade's Textual app: the table-side dashboard over one game's prisoner book.

The app holds no rule. Keys, the command bar and the forms all become command text
handed to ``core.commands.execute``; what the core refuses is shown with its rule; what
it records is on disk before the screen changes.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual import events
from textual.app import App
from textual.notifications import SeverityLevel
from textual.reactive import var
from textual.theme import Theme
from textual.timer import Timer
from textual.worker import Worker, WorkerState

from stockade.core.model.visible import visible
from stockade.themes import load_themes
from stockade.tui.bindings import bindings as key_bindings
from stockade.tui.bindings import key_of
from stockade.tui.config import DEFAULT_THEME, check_keymap, load_config, save_theme
from stockade.tui.escape_keys import EscapeThenKey
from stockade.tui.palette import StockadeCommands
from stockade.tui.paths import config_dir, remember_last_game
from stockade.tui.reading import QUIT_KEYS, GameRead, TypeAhead, again, read_game, settled
from stockade.tui.screens.opening import OpeningScreen

if TYPE_CHECKING:
    # The core and the main screen load in the reading thread (tui/reading.py): the
    # frame paints before them.
    from stockade.core.book.change import Change
    from stockade.core.book.game import Game
    from stockade.core.commands.command import Command
    from stockade.core.commands.verbs_control import HelpRow
    from stockade.tui.opening import Note
    from stockade.tui.table_app import GameUpdate

LOG_WATCH_SECONDS = 2.0  # how often the app checks the log is still the file it writes


class StockadeApp(EscapeThenKey):
    TITLE = "Stockade"
    CSS_PATH = "stockade.tcss"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (80, "-normal"), (130, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (24, "-tall")]
    # Each change of the game, for the screens and widgets that watch it
    # (``tui.table_app.watch_game``). A ``var``: the app itself draws nothing of it,
    # and a ``reactive`` would repaint the whole screen on each entry, over the
    # regions the watchers repaint themselves.
    game_update: var[GameUpdate | None] = var(None, always_update=True, init=False)
    COMMANDS = App.COMMANDS | {StockadeCommands}
    BINDINGS = key_bindings("app")

    def __init__(
        self, game: Game | Path, notes: list[Note] | None = None, remember: bool = True
    ) -> None:
        """``game`` is an open game, or the path of one: then the app paints its frame
        first and reads the game in a thread (``tui.reading``)."""
        super().__init__()
        self.path: Path | None = game if isinstance(game, Path) else None
        self._game: Game | None = None if isinstance(game, Path) else game
        self.problem = ""  # why the game at ``path`` could not be read
        # the keys typed while the game is read (None once it is shown)
        self.type_ahead: TypeAhead | None = None
        self._reader: Worker[GameRead] | None = None
        # the cyclic collector is paused while a game is read and shown (_collector_back)
        self._collector_paused = False
        self._reading_path: Path | None = None  # what the reader reads
        self._following: Timer | None = None  # polls the log another window writes
        self._handed: events.Event | None = None  # the kept key being handed on
        self.notes = list(notes or [])
        self._notes_up = False  # the start-up notes are shown until the first key
        self.remember = remember
        self.stockade_themes: list[Theme] = []
        # the keymap applied (binding id -> keys): what hints read to name a key
        self.keys_in_force: dict[str, str] = {}
        self._theme_ready = False
        self._problems: list[str] = []
        self._setup_themes_and_keys()

    @property
    def game(self) -> Game:
        if self._game is None:
            raise RuntimeError("the game is still being read")
        return self._game

    @game.setter
    def game(self, game: Game) -> None:
        self._game = game

    @property
    def game_is_open(self) -> bool:
        return self._game is not None

    # ------------------------------------------------------------------ set-up
    def _setup_themes_and_keys(self) -> None:
        config, problems = load_config()
        user_themes = sorted((config_dir() / "themes").glob("*.toml"))
        themes, theme_problems = load_themes(extra=user_themes)
        problems += theme_problems
        for theme in themes:
            self.register_theme(theme)
        self.stockade_themes = themes
        wanted = config.theme
        if wanted not in self.available_themes:
            fallback = DEFAULT_THEME if DEFAULT_THEME in self.available_themes else "textual-dark"
            problems.append(
                f"config: there is no theme '{wanted}'; using {fallback} "
                f"(themes: {', '.join(t.name for t in themes)})"
            )
            wanted = fallback
        self.theme = wanted
        self._config_keys = config.keys
        self.new_games_strict = config.strict  # the new-game form's games are strict
        self._problems = problems

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every notice of the app passes here: a control character in it (an escape
        sequence in a file name, an OSC that would set the window title or the
        clipboard) is shown, never sent to the terminal. Markup stays Textual's default
        for Textual's own notices ("Press [b]ctrl+q[/b] to quit"); Stockade's notices
        hold game text (a Location '[/nope]R4' raised MarkupError, '[@click=app.quit]'
        became a link) and pass ``markup=False``, every one of them
        (tests/tui/test_tui_hostile_text.py reads the sources to hold them to it)."""
        super().notify(
            visible(message),
            title=visible(title),
            severity=severity,
            timeout=timeout,
            markup=markup,
        )

    def set_keymap(self, keymap: Mapping[str, str]) -> None:
        super().set_keymap(keymap)
        self.keys_in_force = dict(keymap)

    def binding_ids(self) -> set[str]:
        """Every id the keymap may name: the one binding registry's."""
        from stockade.tui.bindings import ids

        return ids()

    def on_mount(self) -> None:
        if self._config_keys:  # the ids of every screen's keys: imports them all
            keys, problems = check_keymap(self._config_keys, self.binding_ids())
            self._problems += problems
            if keys:
                self.set_keymap(keys)
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        self._theme_ready = True
        if self.path is not None:
            self.type_ahead = TypeAhead()
            self.push_screen(OpeningScreen(self.path, self.start_reading))
        else:
            from stockade.tui.screens.main import MainScreen

            self.push_screen(MainScreen())
            self._game_shown()
        for problem in self._problems:
            self.notify(problem, title="Config", severity="warning", timeout=12, markup=False)

    # --------------------------------------------- reading the game, typing ahead
    def start_reading(self, path: Path | None = None) -> None:
        """Read the game at ``path`` (the app's, at the first open) in a thread (called
        once the frame is painted)."""
        path = path or self.path
        first = self._reader is None and not self.game_is_open
        if path is not None and (first or self.game_is_open):
            self._reading_path = path
            self._pause_collector()
            self._reader = self.run_worker(
                partial(read_game, path),
                name="read-game",
                group="read-game",
                thread=True,
                exit_on_error=False,
            )

    async def on_event(self, event: events.Event) -> None:
        """While the game is read, every key and paste is kept (the quit keys act),
        shown on the frame, and handed on in order once the main screen is up."""
        ahead = self.type_ahead
        if (
            ahead is not None
            and event is not self._handed
            and isinstance(event, (events.Key, events.Paste))
            and not event.is_forwarded
            and not (isinstance(event, events.Key) and event.key in QUIT_KEYS)
        ):
            ahead.keep(event)
            if isinstance(self.screen, OpeningScreen):
                self.screen.typed = ahead.words()
            return
        if self._notes_up and isinstance(event, events.Key) and not event.is_forwarded:
            # read by now, and in the way of what the key opens (help, a reply)
            self._notes_up = False
            self.clear_notifications()
        await super().on_event(event)

    def _pause_collector(self) -> None:
        """No cyclic collection from the read's start until the main screen is up and
        the app idle: the core's imports, the fold and the main screen's mount make
        long-lived objects (modules, the game, the widgets), and the ~60 young
        collections they set off walked them again and again before the panels were
        filled. The collector runs as usual once the app is idle (``_collector_back``):
        what it has to walk then is walked once, after the panels are on the screen."""
        if not self._collector_paused and gc.isenabled():
            self._collector_paused = True
            gc.disable()

    async def _collector_when_idle(self) -> None:
        """The collector back once the game's screen is up and the app idle."""
        await settled()
        self._collector_back()

    def _collector_back(self) -> None:
        if self._collector_paused:
            self._collector_paused = False
            gc.enable()

    def on_unmount(self) -> None:
        self._collector_back()  # the app quit while a game was read

    async def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker is self._reader and event.state == WorkerState.CANCELLED:
            self._collector_back()
        if worker is not self._reader or event.state not in (
            WorkerState.SUCCESS,
            WorkerState.ERROR,
        ):
            return
        read, path = worker.result, self._reading_path
        switching = self.game_is_open  # a game is open: the player opened another
        if event.state == WorkerState.ERROR or read is None:
            problem = f"cannot open {path}: the core failed ({worker.error!r})"
        elif read.game is None:
            problem = read.problem
        elif switching and path is not None:
            await self._show_switched(read.game, path)
            return
        else:
            await self._show_read_game(read.game)
            return
        self._collector_back()
        if switching:
            await self._not_switched(visible(problem))
        else:
            self._not_read(problem)

    async def _show_read_game(self, game: Game) -> None:
        """The main screen replaces the frame, then the keys typed meanwhile reach it."""
        from stockade.tui.screens.main import MainScreen

        self.game = game
        screen = MainScreen(over_frame=True)
        try:
            await self.switch_screen(screen)
        finally:
            screen.frame_removed()
        self._game_shown()
        self.run_worker(self._collector_when_idle(), name="collector-back", group="collector")
        self.run_worker(self._hand_on_typed(), name="hand-on-typed", group="type-ahead")

    async def _hand_on_typed(self) -> None:
        """Each key kept, in order, in the app's turn as the terminal's keys come, once
        the app is idle again after the one before (as a player's next key finds it:
        a command entered, a form open). Keys typed meanwhile are kept behind them."""
        ahead = self.type_ahead
        while ahead is not None and ahead.kept:
            await settled()
            self._handed = again(ahead.kept.pop(0))
            self.post_message(self._handed)
        self.type_ahead = None

    def _not_read(self, problem: str) -> None:
        """The reason is shown on the frame, with what was typed (kept, not entered)."""
        self.problem = visible(problem)
        if isinstance(self.screen, OpeningScreen):
            self.screen.problem = self.problem

    def typed_ahead(self) -> str:
        """What was typed while the game was read and is not entered yet."""
        return self.type_ahead.words() if self.type_ahead is not None else ""

    def _game_shown(self) -> None:
        """What follows the game once the main screen shows it."""
        game = self.game
        if self.remember and game.path:
            self._remember(Path(game.path))
        self.set_interval(LOG_WATCH_SECONDS, self.watch_log)
        self._follow_if_read_only()
        new_game = key_of(self, "stockade.new_game")
        for note in self.notes + list(game.warnings):
            said = note if isinstance(note, str) else note.worded(new_game)
            self.notify(said, title="Stockade", timeout=8, markup=False)
            self._notes_up = True

    def watch_log(self) -> None:
        """Every few seconds: is the log still the file this game writes? A deleted or
        replaced log is told at once, before the player types the next entry."""
        problem = self.game.check_log()
        if problem:
            self.notify(problem, title="Log", severity="error", timeout=30, markup=False)
            self.game_changed()

    # ------------------------------------------ following the writing window
    def _follow_if_read_only(self) -> None:
        """A window that opened its game read-only because another one writes it
        follows that window live (core/book/follow.py): what it appends shows within a
        second, undo/redo/strike included."""
        game = self.game
        if not (game.read_only and game.path and game.problem is None and game.journal):
            return
        from stockade.core.book.follow import GameFollower

        self._follower = GameFollower(game.path, game)
        self._following = self.set_interval(0.5, self._follow_writer, name="follow-writer")

    def _follow_writer(self) -> None:
        try:
            new, why = self._follower.poll()
        except Exception as exc:  # never let the view take the table down
            self.log.error(f"following the log failed: {exc!r}")
            return
        self.game = self._follower.game
        if why:
            self.notify(
                f"{why}: read again from the top", title="Stockade", timeout=8, markup=False
            )
        if new or why:
            from stockade.core.model.plural import counted

            said = counted(len(new), "new entry", "new entries")
            self.game_changed(f"{said} from the window that writes")

    def _theme_changed(self, theme: Theme) -> None:
        if self._theme_ready:
            self.run_worker(
                partial(self._save_theme, theme.name),
                thread=True,
                group="config",
                name="save-theme",
            )
            self.game_changed()

    def _remember(self, path: Path) -> None:
        """Keep ``path`` as the game to open next time, in a thread: the last game's file
        and the recent games' list are each written and synced to disk, which would hold
        the screen that has just shown the game."""
        self.run_worker(
            partial(self._remember_now, path),
            thread=True,
            group="config",
            name="remember-game",
        )

    def _remember_now(self, path: Path) -> None:
        problem = remember_last_game(path)
        if problem:
            self.call_from_thread(
                self.notify, problem, title="Config", severity="warning", timeout=12, markup=False
            )

    def _save_theme(self, name: str) -> None:
        problem = save_theme(name)
        if problem:
            self.call_from_thread(self.notify, problem, severity="warning", markup=False)

    # --------------------------------------------------------------- the game
    def run_command(self, text: str | Command) -> str:
        """Hand a command (or a line) to the core; return its message. Raises ``Refusal``.

        The core writes and fsyncs the entry before returning, so the screens change
        only after the entry is safe on disk.
        """
        # the command language: loaded on first use
        from stockade.core.commands import execute
        from stockade.core.commands.execute import told_rows_or_lines
        from stockade.core.commands.verbs_control import rows_text
        from stockade.core.model.errors import InternalRefusal, Refusal

        try:
            outcome = execute(self.game, text)
        except Refusal:
            raise
        except Exception as exc:  # a bug in the core must not take the table down
            self.log.error(f"command {text!r} failed: {exc!r}")
            raise InternalRefusal(
                f"the core failed on this command ({exc!r}); nothing was recorded"
            ) from exc
        # the reply and what else the entry did (CVP, later entries), as the CLI says it
        # (as rows, so a wrapped line goes on under its own text on the status line)
        rows, lines = told_rows_or_lines(self.game, outcome)
        message = rows_text(rows) if rows else "\n".join(lines)
        self.game_changed(message, outcome.change, tuple(rows))
        return message

    async def switch_game(self, path: Path) -> bool:
        """Close this game and open the one at ``path`` on a fresh main screen, read
        as the first one was: the frame shows while a worker thread reads it, the keys
        typed meanwhile are kept and handed to the new game's screen (never to this
        game's). On failure this game stays open and the kept keys are said, not
        entered. False when nothing is read (the game open now, or a read under way)."""
        path = Path(path)
        if self.game.path is not None and Path(self.game.path).resolve() == path.resolve():
            self.notify(f"{path.name} is the game open now", title="Stockade", markup=False)
            return False
        if self._reader is not None and self._reader.state in (
            WorkerState.PENDING,
            WorkerState.RUNNING,
        ):
            self.notify("a game is being read already", title="Stockade", markup=False)
            return False
        while len(self.screen_stack) > 2:  # the default screen, then the main screen
            await self.pop_screen()
        self.type_ahead = TypeAhead()
        await self.push_screen(OpeningScreen(path, partial(self.start_reading, path)))
        return True

    async def _show_switched(self, game: Game, path: Path) -> None:
        """The game read replaces the open one: a fresh main screen, then the keys."""
        from stockade.tui.screens.main import MainScreen

        old, self.game = self.game, game
        if self._following is not None:  # the old game's writer is followed no more
            self._following.stop()
            self._following = None
        while len(self.screen_stack) > 2:  # the frame
            await self.pop_screen()
        screen = MainScreen(over_frame=True)
        try:
            await self.switch_screen(screen)
        finally:
            screen.frame_removed()
        old.close()
        self._follow_if_read_only()
        if self.remember:
            self._remember(path)
        for note in [f"opened {path}", *game.warnings]:
            self.notify(note, title="Stockade", timeout=6, markup=False)
            self._notes_up = True  # read by the first key, then out of the bar's way
        self.run_worker(self._collector_when_idle(), name="collector-back", group="collector")
        self.run_worker(self._hand_on_typed(), name="hand-on-typed", group="type-ahead")

    async def _not_switched(self, problem: str) -> None:
        """The game open stays, its screen back; the keys kept are said, not entered."""
        typed = self.typed_ahead()
        self.type_ahead = None
        if isinstance(self.screen, OpeningScreen):
            await self.pop_screen()
        said = f"{problem}; typed, not entered: {typed}" if typed else problem
        self.notify(said, severity="error", timeout=10, markup=False)

    def game_changed(
        self, message: str = "", change: Change | None = None, rows: tuple[HelpRow, ...] = ()
    ) -> None:
        """Tell every screen and widget that watches the game (``game_update``):
        ``change`` (the core's ``Change``) says which history lines to rewrite; ``rows``
        are the message as a table (help), for the screen to lay out."""
        from stockade.tui.table_app import GameUpdate

        self.game_update = GameUpdate(change, message, rows)


def launched(path: Path, notes: list[Note] | None = None) -> StockadeApp:
    """The app as the launcher starts it on the game at ``path``.

    What the process holds before the app is made (the interpreter's, Textual's and
    Stockade's modules, their classes and functions) lives as long as the process: it
    is moved out of the cyclic collector's walks (``gc.freeze``), so the full
    collections that the core's imports and the game's fold set off walk only what
    was made since. Nothing of the app, the frame or a game is made yet, so nothing
    that may become garbage is kept from the collector."""
    gc.freeze()
    return StockadeApp(Path(path), notes)


def run_app(path: Path, notes: list[Note] | None = None) -> int:
    """Run the app on the game at ``path`` (read once the frame is painted); returns
    the exit code. A game that cannot be read is said on the frame, then here."""
    app = launched(Path(path), notes)
    try:
        result = app.run()
        if app.problem:
            print(visible(f"stockade: {app.problem}"), file=sys.stderr)
            typed = app.typed_ahead()
            if typed:
                print(visible(f"stockade: typed, not entered: {typed}"), file=sys.stderr)
            return 1
        # return_code, not run()'s value: an app that died of an exception must not
        # exit 0 (run() returns None after a MemoryError, say).
        return app.return_code or (result if isinstance(result, int) else 0)
    finally:
        if app.game_is_open:
            app.game.close()  # the game open at the end (the player may have switched)
