"""New game and open game, inside the app (``ctrl+n`` / ``ctrl+o``, or the palette).

The new-game form hands its fields to ``core.book.new_game``, the code
``stockade new`` runs, so both refuse the same things in the same words. Both screens
dismiss with the path of the game to open; the app switches to it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual import on, work
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.containers import Grid, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from stockade.tui.bindings import bindings as key_bindings
from stockade.tui.bindings import hint
from stockade.tui.paths import data_dir
from stockade.tui.plain import plain

if TYPE_CHECKING:  # the list is read in a worker, on first use
    from stockade.tui.recent import GameSummary

SIDE_FIELDS = ("name", "nationality", "elr")


def game_file_for(scenario: str, directory: Path | None = None) -> Path:
    """``<data dir>/<scenario-slug>.jsonl``, numbered if that name is taken."""
    directory = directory or data_dir()
    slug = "".join(ch if ch.isalnum() else "-" for ch in scenario.lower()).strip("-")
    slug = "-".join(part for part in slug.split("-") if part) or "game"
    path, n = directory / f"{slug}.jsonl", 2
    while path.exists():
        path, n = directory / f"{slug}-{n}.jsonl", n + 1
    return path


def resolve_game_file(text: str, scenario: str) -> Path:
    """A bare name goes in the data dir; a path (with a folder or ~) is taken as given."""
    text = text.strip()
    if not text:
        return game_file_for(scenario)
    path = Path(text).expanduser()
    if path.suffix != ".jsonl":
        path = path.with_name(path.name + ".jsonl")
    return path if (path.is_absolute() or len(path.parts) > 1) else data_dir() / path


class GameModal(ModalScreen[Path | None]):
    """What the two screens share: a bordered box, a verdict line, a keys line."""

    DEFAULT_CSS = """
    GameModal { align: center middle; }
    GameModal > #games-box { width: 78; max-width: 100%; height: auto; max-height: 100%;
                             border: thick $primary; background: $surface; padding: 0 1; }
    GameModal #games-verdict { height: auto; }
    GameModal #games-verdict.-refusal { color: $error; text-style: bold; }
    GameModal #games-keys { color: $text-muted; }
    GameModal Input { width: 1fr; }
    GameModal Input:focus { background: $primary 30%; }
    """
    BINDINGS = key_bindings("games")

    def say(self, text: str, refusal: bool = False) -> None:
        verdict = self.query_one("#games-verdict", Static)
        verdict.set_class(refusal, "-refusal")
        verdict.update(plain(("✗ " if refusal else "") + text))  # never markup

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_next_field(self) -> None:
        raise SkipAction()  # enter is the focused widget's own (open a game, a path)


class NewGameScreen(GameModal):
    DEFAULT_CSS = """
    NewGameScreen #new-grid { grid-size: 4; grid-columns: 11 1fr 1fr 9; height: auto;
                              grid-gutter: 0 1; }
    NewGameScreen #new-grid Label { color: $text-muted; }
    NewGameScreen .wide-row { height: 1; layout: horizontal; }
    NewGameScreen .wide-row Label { width: 12; color: $text-muted; }
    NewGameScreen Select { width: 1fr; }
    """

    def compose(self) -> ComposeResult:
        from stockade.core.book.new_game import DEFAULT_ELR, DEFAULT_SIDES

        with Vertical(id="games-box") as box:
            box.border_title = "New game"
            with Vertical(classes="wide-row"):
                yield Label("Scenario")
                yield Input(placeholder="the scenario's name", id="new-scenario", compact=True)
            with Grid(id="new-grid"):
                for text in ("", "side", "nationality", "ELR 1-6"):
                    yield Label(text)
                # the defaults are placeholders, not text: what is typed replaces them
                for n, (name, nation) in enumerate(DEFAULT_SIDES, 1):
                    yield Label(f"Side {n}")
                    yield Input(placeholder=name, id=f"new-side{n}-name", compact=True)
                    yield Input(placeholder=nation, id=f"new-side{n}-nationality", compact=True)
                    yield Input(
                        placeholder=str(DEFAULT_ELR),
                        id=f"new-side{n}-elr",
                        compact=True,
                        max_length=1,
                    )
            with Vertical(classes="wide-row"):
                yield Label("Moves first")
                yield Select(
                    [("side 1", "1"), ("side 2", "2")],
                    value="1",
                    allow_blank=False,
                    id="new-attacker",
                    compact=True,
                )
            with Vertical(classes="wide-row"):
                yield Label("File")
                yield Input(
                    placeholder="blank: named after the scenario, in the data dir",
                    id="new-file",
                    compact=True,
                )
            yield Static(id="games-verdict")
            yield Static(
                hint(
                    self.app,
                    ("stockade.games_accept", "create"),
                    ("stockade.games_cancel", "cancel"),
                )
                + " · tab/shift+tab: next/previous field · enter: next field",
                id="games-keys",
            )

    def on_mount(self) -> None:
        self.query_one("#new-scenario", Input).focus()
        self.say("a scenario name is all it needs; the sides and ELRs have defaults")

    def action_next_field(self) -> None:
        field = self.focused
        if not isinstance(field, Input) or field.id == "new-file":
            raise SkipAction()  # the file's enter creates the game; a list's picks
        self.focus_next()

    @on(Input.Submitted)
    def _next_field(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "new-file":
            self.action_accept()
        else:
            self.focus_next()

    def _value(self, wid: str) -> str:
        """The field as typed, or its default (the placeholder) when left empty."""
        field = self.query_one(f"#{wid}", Input)
        return field.value.strip() or (field.placeholder if wid.startswith("new-side") else "")

    def action_accept(self) -> None:
        from stockade.core.book.new_game import create_game, side_spec
        from stockade.core.log.journal_errors import JournalError
        from stockade.core.model.errors import InputRefusal, Refusal

        scenario = self._value("new-scenario")
        first = self.query_one("#new-attacker", Select).value
        attacker = self._value(f"new-side{first}-name")
        try:
            sides = []
            for n in (1, 2):
                try:
                    sides.append(side_spec(*(self._value(f"new-side{n}-{f}") for f in SIDE_FIELDS)))
                except Refusal as refusal:
                    raise InputRefusal(f"side {n}: {refusal.text}", refusal.hint) from None
            path = resolve_game_file(self._value("new-file"), scenario or "game")
            path.parent.mkdir(parents=True, exist_ok=True)
            strict = bool(getattr(self.app, "new_games_strict", False))
            game = create_game(path, scenario, sides, attacker, strict=strict)
        except JournalError as exc:
            self.say(str(exc), refusal=True)
            return
        except Refusal as refusal:
            self.say(str(refusal), refusal=True)
            return
        except OSError as exc:
            self.say(f"cannot create the game: {exc.strerror or exc}", refusal=True)
            return
        game.close()
        self.dismiss(path)


class OpenGameScreen(GameModal):
    DEFAULT_CSS = """
    OpenGameScreen OptionList { height: auto; max-height: 12; border: none; padding: 0; }
    OpenGameScreen OptionList:focus { background: $primary 10%; border: none; }
    OpenGameScreen #open-path-row { height: 1; layout: horizontal; }
    OpenGameScreen #open-path-row Label { width: 6; color: $text-muted; }
    """

    def compose(self) -> ComposeResult:
        with Vertical(id="games-box") as box:
            box.border_title = "Open game"
            box.border_subtitle = "newest first"
            yield OptionList(Option("reading the games …", disabled=True), id="open-list")
            with Vertical(id="open-path-row"):
                yield Label("Path")
                yield Input(
                    placeholder="or type a game file's path, then enter",
                    id="open-path",
                    compact=True,
                )
            yield Static(id="games-verdict")
            yield Static(
                "enter: open · ↑↓: choose · tab: path field · "
                + hint(self.app, ("stockade.games_cancel", "cancel")),
                id="games-keys",
            )

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        self.load_games()

    @work(thread=True, exclusive=True, group="open-game")
    def load_games(self) -> None:
        from stockade.tui.recent import recent_games

        games = recent_games()
        self.app.call_from_thread(self._show_games, games)

    def _show_games(self, games: list[GameSummary]) -> None:
        options = self.query_one(OptionList)
        options.clear_options()
        current = getattr(getattr(self.app, "game", None), "path", None)
        home = data_dir()  # games elsewhere name their folder
        first = None  # the cursor starts on the newest game that is not open now
        for n, summary in enumerate(games):
            here = current is not None and Path(current).resolve() == summary.path.resolve()
            where = "" if summary.path.parent == home else f"  in {summary.path.parent}"
            label = f"{summary.path.name}{' (open now)' if here else ''}{where}\n  {summary.line}"
            # a scenario name from a log: plain text, never markup
            option = Option(plain(label), id=str(summary.path), disabled=bool(summary.problem))
            options.add_option(option)
            if first is None and not here and not summary.problem:
                first = n
        if first is not None:
            options.highlighted = first
        if not games:
            options.add_option(Option("no games in the data dir yet", disabled=True))
            self.query_one("#open-path", Input).focus()
        from stockade.core.model.plural import counted

        self.say(f"{counted(len(games), 'game')}: the data dir's and the ones opened before")

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.dismiss(Path(event.option.id))

    @on(Input.Submitted)
    def _typed(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_accept()

    def action_accept(self) -> None:
        text = self.query_one("#open-path", Input).value.strip()
        if text:
            path = Path(text).expanduser()
            if not path.is_file():
                self.say(f"{path}: no such game file", refusal=True)
                return
            self.dismiss(path)
            return
        options = self.query_one(OptionList)
        if options.highlighted is not None:
            option = options.get_option_at_index(options.highlighted)
            if option.id:
                self.dismiss(Path(option.id))
                return
        self.say("choose a game or type a path", refusal=True)
