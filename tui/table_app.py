"""What the screens and widgets need of the app, without importing it.

``StockadeApp`` (``tui.app``) imports the main screen; if the screens imported the app
back, even for types only, the app, the screens and the forms would form one cycle.
They name ``TableApp`` instead, a Protocol the app satisfies, and reach it through
``table_app(node)``.

The game's changes reach the screen through one reactive, ``TableApp.game_update``:
each write (a command, a form, an undo, a strike, what a writing window appended)
sets it to a new ``GameUpdate``, and the screens and widgets that show the game watch
it (``watch_game(node, callback)``); nobody walks the screen stack.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast

from stockade.core.book.change import Change
from stockade.core.book.game import Game

if TYPE_CHECKING:
    from textual.dom import DOMNode

    # for the type alone: the command language (~25 ms of imports) loads on first use
    from stockade.core.commands.command import Command
    from stockade.core.commands.verbs_control import HelpRow


@dataclass(frozen=True, eq=False)  # eq=False: every update is news, even a same-looking one
class GameUpdate:
    """One change of the game: the core's ``Change`` (None when the game was swapped,
    re-read or only needs showing again) and the reply to show."""

    change: Change | None = None
    message: str = field(default="")
    rows: tuple[HelpRow, ...] = ()  # the message as the core's table (help), if one


class TableApp(Protocol):
    game: Game
    keys_in_force: dict[str, str]
    game_update: GameUpdate | None

    def run_command(self, text: str | Command) -> str: ...

    def game_changed(
        self, message: str = "", change: Change | None = None, rows: tuple[HelpRow, ...] = ()
    ) -> None: ...

    async def switch_game(self, path: Path) -> bool: ...


def table_app(node: DOMNode) -> TableApp:
    """The app ``node`` runs in, as the table app."""
    return cast(TableApp, node.app)


def watch_game(node: DOMNode, callback: Callable[[GameUpdate], None]) -> None:
    """Call ``callback`` with each ``GameUpdate`` while ``node`` is mounted."""

    def updated(update: GameUpdate | None) -> None:
        if update is not None:
            callback(update)

    node.watch(node.app, "game_update", updated, init=False)
