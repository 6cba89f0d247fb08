"""Reading the game off the event loop, and the keys typed meanwhile.

``read_game`` runs in a worker thread while the frame (``tui.screens.opening``) is on
the screen: it imports the core, opens and folds the game, and imports the main
screen's modules, so the event loop only mounts the main screen when it is done.
``TypeAhead`` keeps the keys the player types meanwhile, in order, to be handed to the
main screen once it is up.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from textual import events

if TYPE_CHECKING:
    from stockade.core.book.game import Game


@dataclass(frozen=True)
class GameRead:
    """What reading the file gave: the game, or the reason there is none."""

    game: Game | None
    problem: str = ""


def read_game(path: Path) -> GameRead:
    """Open and fold the game at ``path`` (blocking: run it in a thread)."""
    from stockade.core.book.game import Game
    from stockade.core.log.journal_errors import JournalError
    from stockade.core.model.visible import visible

    try:
        game = Game.open(path)
    except (JournalError, OSError) as exc:
        return GameRead(None, visible(f"cannot open {path}: {exc}"))
    # the main screen's own modules (the core's reads, the widgets) load here too
    import stockade.tui.screens.main  # noqa: F401

    return GameRead(game)


# Keys that act while the game is read: Textual's quit and its "how to quit" notice.
QUIT_KEYS = frozenset({"ctrl+q", "ctrl+c"})


def key_words(key: events.Key) -> str:
    """A typed key as the frame shows it: its character, or its name in brackets."""
    if key.key in ("enter", "ctrl+j"):
        return "⏎"
    if key.is_printable and key.character is not None:
        return key.character
    return f"‹{key.key}›"


def again(event: events.Key | events.Paste) -> events.Key | events.Paste:
    """A fresh copy of a kept key or paste, to be handed on as if typed now."""
    if isinstance(event, events.Paste):
        return events.Paste(event.text)
    if event.key == "ctrl+j":
        # Enter typed before the app set the terminal raw (while Python starts) was
        # turned into a line feed by the terminal: it meant Enter.
        return events.Key("enter", "\r")
    return events.Key(event.key, event.character)


async def settled(step: float = 0.01, most: float = 1.0) -> None:
    """Until the process has been idle for two steps in a row (its CPU time still while
    the wall clock moves), or ``most`` seconds: a key handed on before the one before
    it is done (a command entered, a screen pushed) could land in the wrong place."""
    start = time.monotonic()
    quiet = 0
    while quiet < 2 and time.monotonic() - start < most:
        cpu = time.process_time()
        await asyncio.sleep(step)
        quiet = quiet + 1 if time.process_time() - cpu < step / 10 else 0


@dataclass
class TypeAhead:
    """The keys and pastes typed before the game was read, in the order typed."""

    kept: list[events.Key | events.Paste] = field(default_factory=list)

    def keep(self, event: events.Key | events.Paste) -> None:
        self.kept.append(event)

    def words(self) -> str:
        return "".join(
            event.text if isinstance(event, events.Paste) else key_words(event)
            for event in self.kept
        )

    def take(self) -> list[events.Key | events.Paste]:
        taken, self.kept = self.kept, []
        return taken
