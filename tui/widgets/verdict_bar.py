"""The verdict bar: a line (wrapped when long) on the main screen with the core's
verdict on the scenario's Victory Conditions ("if the game ended now: German win
(German CVP amassed 22 >= 20)"), hidden while the game keeps none. It decides
nothing: the words are the core's.

When a write makes an "immediately" condition met (the core's ``Change`` says the
verdict turned to "... (immediately)"), the bar offers to end the game; ending it is
the ``end`` command, an entry like any other (undo takes it back).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Static

from stockade.core.book.tally import cvp_if_ended
from stockade.core.book.verdict import judge
from stockade.core.model.errors import Refusal
from stockade.core.model.state import GameState
from stockade.tui.plain import visible
from stockade.tui.screens.confirm import ConfirmScreen
from stockade.tui.table_app import table_app

IMMEDIATE = " (immediately)"  # the core's mark on a verdict won at once (Verdict.key)


class VerdictBar(Static):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__("", **kwargs)
        self.headline = ""

    def show(self, state: GameState, change: Any = None) -> None:
        """Show the verdict on ``state``; offer to end the game when ``change`` (the
        write just made) turned it into an immediate win."""
        # judged from the CVP sum, not the whole tally (its lines): after every entry
        verdict = judge(state, cvp_if_ended(state))
        self.display = verdict is not None
        if verdict is None:
            self.headline = ""
            return
        self.headline = verdict.headline
        self.set_class(verdict.immediate or verdict.ended, "-decided")
        self.update(Text("VC: " + visible(verdict.headline)))  # whole: it wraps
        shift = getattr(change, "verdict", None)
        if shift is not None and not state.ended and shift.after.endswith(IMMEDIATE):
            self.app.push_screen(
                ConfirmScreen(
                    "Victory Conditions met",
                    f"{verdict.headline}.\n\nEnd the game now? (recorded as an entry; "
                    "undo takes it back)",
                ),
                self._answered,
            )

    def _answered(self, answer: str | None) -> None:
        if answer is None:
            return
        try:
            table_app(self).run_command("end")
        except Refusal as refusal:
            self.app.notify(str(refusal), severity="error", markup=False)
