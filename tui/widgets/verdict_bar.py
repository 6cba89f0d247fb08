"""The verdict bar: a line (wrapped when long) on the main screen with the core's
verdict on the scenario's Victory Conditions ("if the game ended now: German win
(German CVP amassed 22 >= 20)"), hidden while the game keeps none. It decides
nothing: the words are the core's.

When a write makes an "immediately" condition met (the core's ``Change`` says the
verdict turned to "... (immediately)"), the bar says so (``VerdictBar.EndOffered``): the
screen asks the player whether to end the game; ending it is the ``end`` command, an
entry like any other (undo takes it back).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.message import Message
from textual.widgets import Static

from stockade.core.book.tally import cvp_if_ended
from stockade.core.book.verdict import judge
from stockade.core.model.state import GameState
from stockade.core.model.visible import visible

IMMEDIATE = " (immediately)"  # the core's mark on a verdict won at once (Verdict.key)


class VerdictBar(Static):
    class EndOffered(Message):
        """The write just made met an "immediately" condition: offer to end the game."""

        def __init__(self, headline: str) -> None:
            super().__init__()
            self.headline = headline

    def __init__(self, classes: str = "", **kwargs: Any) -> None:
        # hidden until a verdict is shown (by a class, not an inline style, so that a
        # screen too small hides it too)
        super().__init__("", classes=f"{classes} -none", **kwargs)
        self.headline = ""

    def show(self, state: GameState, change: Any = None) -> None:
        """Show the verdict on ``state``; offer to end the game when ``change`` (the
        write just made) turned it into an immediate win."""
        # judged from the CVP sum, not the whole tally (its lines): after every entry
        verdict = judge(state, cvp_if_ended(state))
        self.set_class(verdict is None, "-none")
        if verdict is None:
            self.headline = ""
            return
        self.headline = verdict.headline
        self.set_class(verdict.immediate or verdict.ended, "-decided")
        self.update(Text("VC: " + visible(verdict.headline)))  # whole: it wraps
        shift = getattr(change, "verdict", None)
        if shift is not None and not state.ended and shift.after.endswith(IMMEDIATE):
            self.post_message(self.EndOffered(verdict.headline))
