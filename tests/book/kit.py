"""Games the book's tests play, shared with the CLI's and the TUI's tests (a plain
module, not a test module)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from stockade.core.book.describe import sentence
from stockade.core.book.game import Game
from stockade.core.commands import run_script
from stockade.core.model import events as ev

# ------------------------------------------------- a strike with later consequences
# A strike of the transfer (entry 9) makes the later elimination (entry 14) free a
# prisoner: tests/book/test_change.py, tests/tui/test_change_tui.py.
SCENARIO = [
    "add American 6-6-7 6-6-7 at Q4",
    "add German 4-6-7 4-6-7 at Q5 broken",
    "phase RtPh 1 American",
    "surrender g1 g2 to a1",
    "next",
    "transfer g2 to a2",  # entry 9
    "next",
    "move a2 R4",
    "next",
    "next",
    "eliminate a1 by enemy",  # entry 14: frees what a1 still holds
]


# ------------------------------------------------------------------- the verdict
# Six Victory Conditions in the shapes real cards use: tests/book/test_verdict.py,
# tests/cli/test_verdict_cli.py.
SETUP = [
    "add German 4-6-7 x3 at P4",  # g1 g2 g3
    "add Russian 4-4-7 x3 at P5",  # r1 r2 r3
]


@dataclass
class Shape:
    name: str
    vc: str
    lines: list[str]
    result: str  # the hand-judged result after ``lines``
    because: str
    immediate: bool = False


SHAPES = [
    # German amassed: r1 eliminated 2 + r2 prisoner guarded, if the game ended now 2 x 2
    # = 4; total 6 >= 6.
    Shape(
        "cvp threshold",
        "German wins at end if amassed >= 6",
        ["eliminate r1 by enemy", "phase RtPh 1 German", "break r2", "surrender r2 to g1"],
        "German win",
        "German CVP amassed 6 >= 6",
    ),
    # The Russians suffer r1 + r2 + r3 eliminated: 3 x 2 = 6 >= 6: the cap is hit,
    # the Germans win at once.
    Shape(
        "casualty cap",
        "Russian loses immediately if suffered >= 6",
        ["eliminate r1 by enemy", "eliminate r2 by enemy", "eliminate r3 by enemy"],
        "German win",
        "Russian CVP suffered 6 >= 6, immediately",
        immediate=True,
    ),
    # German amassed 2 (r1), Russian amassed 4 (g1, g2): Russian 4 > German 2.
    Shape(
        "more cvp than",
        "German wins if amassed > Russian; Russian wins if amassed > German; otherwise draw",
        ["eliminate r1 by enemy", "eliminate g1 by enemy", "eliminate g2 by enemy"],
        "Russian win",
        "Russian CVP amassed 4 > German 2",
    ),
    # Exit VP off east: g1 2 (its CVP) + g2 given 3 = 5 >= 5; g3 off north does not count.
    Shape(
        "exit vp",
        "German wins at end if exit >= 5 off east",
        ["exit g1 off east", "exit g3 off north", "exit g2 off east vp 3"],
        "German win",
        "German Exit VP off east 5 >= 5",
    ),
    # The Russians hold P4 and R6 (Q5 German): 2 of 3 >= 2.
    Shape(
        "location control",
        "Russian wins at end if controls 2 of P4 Q5 R6",
        ["control P4 R6 Russian", "control Q5 German"],
        "Russian win",
        "Russian controls 2 of P4 Q5 R6 (needs 2 of)",
    ),
    # amassed 2 (r1) >= 2 but P4 is the Russians': the first branch fails; the second
    # (exit g1 2 + g2 2 = 4 >= 4) is met.
    Shape(
        "combination",
        "German wins at end if amassed >= 2 and controls P4 or exit >= 4",
        ["eliminate r1 by enemy", "control P4 Russian", "exit g1 g2 off east"],
        "German win",
        "German Exit VP 4 >= 4",
    ),
]


# ---------------------------------------- entries that never folded keep their words
# tests/book/test_history_branches.py, tests/tui/test_names_then_worker.py.
BRANCH_SIDES = [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]


class Book:
    """A game on disk, and each entry's sentence right after it was recorded."""

    def __init__(self, path: Path):
        self.game = Game.create(path, "Branches", BRANCH_SIDES)
        self.said: dict[int, str] = {1: self.sentences()[1]}

    def sentences(self) -> dict[int, str]:
        return {e.seq: sentence(e, self.game) for e in self.game.history()}

    def write(self, act: Callable[[], object]) -> None:
        known = len(self.game.records)
        act()
        now = self.sentences()
        self.said.update({s: now[s] for s in range(known + 1, len(self.game.records) + 1)})

    def play(self, *commands: str) -> None:
        for command in commands:
            self.write(functools.partial(run_script, self.game, [command]))


def record_game(path: Path, pad: int = 0) -> Book:
    """The three cases: a deploy on a branch undone then abandoned, whose HS handles go
    to new units; a reduced unit struck after its handle was reused; a reduction on a
    branch left undone. ``pad`` effective entries in between (a snapshot's worth)."""
    book = Book(path)
    book.play(
        "add American 6-6-7 6-6-7 at Q4",  # a1, a2
        "add German 4-6-7 at Q5 broken",
        "phase RtPh 1 American",
        "surrender g1 to a1",
        "deploy a1 3-3-7",  # a3, a4: made on the branch itself
        "break a4",  # names a 3-3-7 HS no add ever entered
    )
    book.write(book.game.undo)
    book.write(book.game.undo)
    book.play("add American 8-3-8 at S5", "add American 9-2 at T6")  # a3, a4 again
    assert book.game.state.units["a4"].counter == "9-2"
    book.play("reduce a3 to 4-3-8", "break a3")
    book.write(lambda: book.game.strike(len(book.game.records)))  # the 4-3-8 break
    for i in range(pad):
        book.play(f"move a4 {'T7' if i % 2 else 'T6'}")
    book.play("reduce a2 to 3-3-7", "move a2 R4")  # the move names the reduced HS
    book.write(book.game.undo)
    book.write(book.game.undo)  # left undone: redoable, never folded after reopening
    assert {"abandoned", "undone", "struck"} <= {e.status for e in book.game.history()}
    return book


# ---------------------------------------------- an entry to amend, with later entries
# The transfer (entry 10) amended to another Guard, the later elimination with its
# takeover (entry 15) checked again: tests/log, tests/cli and tests/tui's amend tests.
AMEND_SCRIPT = [
    "add American 6-6-7 6-6-7 6-6-7 at Q4",
    "add German 4-6-7 4-6-7 at Q5 broken",
    "phase RtPh 1 American",  # entry 7
    "surrender g1 g2 to a1",  # entry 8
    "next",  # entry 9: APh
    "transfer g1 to a2",  # entry 10
    "move a1 R4",
    "move a1 Q4",
    "next",  # 13
    "phase PFPh 1 German",  # 14: fire is made in a fire phase (A7)
    "eliminate a2 by enemy takeover a1",  # entry 15
]
