"""The same whole game as game_script.py, with the keys it took on 5b47421 (the start of
the round that made the clock follow the entries), so the two builds can be compared:

    python game_script_5b47421.py [--stockade PATH] [--log GAME.jsonl] [--out SCREENS.txt]

The driver, its options and its counting rules are game_script.py's; only the keys of
each step differ, under the same labels.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from game_script import main  # run as a script: its own folder is on the import path

# (label, counted action or "", keys), as game_script.STEPS.
STEPS: list[tuple[str, str, list[str]]] = [
    # ---- Game Turn 1, British Player Turn (British move first)
    ("set-up: two British 4-5-8 in Q5", "set-up", ["a", "b", "=4-5-8 4-5-8", "Tab", "=Q5", "C-s"]),
    ("set-up: a British 4-5-8 in R6", "set-up", ["a", "b", "=4-5-8", "Tab", "=R6", "C-s"]),
    (
        "set-up: a German 8-1, 4-6-7 and 2-4-7 HS in P4",
        "set-up",
        ["a", "g", "=8-1 4-6-7 2-4-7 hs", "Tab", "=P4", "C-s"],
    ),
    (
        "set-up: a German 4-6-7 and 2-4-7 HS in R5",
        "set-up",
        ["a", "g", "=4-6-7 2-4-7 hs", "Tab", "=R5", "C-s"],
    ),
    ("clock: T1 British: RPh to PFPh", "clock", ["n"]),
    (
        "break: British Prep Fire breaks the German stack in P4",
        "break",
        ["f", "u", "~p4", "*", "Enter", "b", "C-s"],
    ),
    ("clock: T1 British: PFPh to RtPh", "clock", ["n", "n", "n", "n"]),
    (
        "surrender: the broken P4 stack (8-1, 4-6-7, 2-4-7) surrenders to a 4-5-8 in Q5",
        "surrender",
        ["s", "*", "Enter", "Enter", "y", "n", "C-s"],
    ),
    ("clock: T1 British: RtPh to APh", "clock", ["n"]),
    (
        "transfer: the 4-6-7 prisoner to the other 4-5-8 in Q5",
        "transfer",
        ["f", "t", "Down", "Enter", "C-s"],
    ),
    ("move: the R6 4-5-8 advances into R5", "move", [":", "=move b3 R5", "Enter"]),
    ("clock: T1 British: APh to CCPh", "clock", ["n"]),
    (
        "CC capture: the 4-5-8 in R5 captures the 4-6-7 and the 2-4-7 (1-2, DR 2)",
        "CC capture",
        ["f", "c", "~r5", "Enter", "*", "Enter", "=1-2", "Tab", "=2", "C-s"],
    ),
    ("clock: T1 British: CCPh to the German Player Turn", "clock", ["t"]),
    # ---- Game Turn 1, German Player Turn: nothing A20
    ("clock: T1 German: nothing A20, on to T2 British", "clock", ["t"]),
    # ---- Game Turn 2, British Player Turn: nothing A20
    ("clock: T2 British: nothing A20, on to T2 German", "clock", ["t"]),
    # ---- Game Turn 2, German Player Turn
    ("clock: T2 German: RPh to PFPh", "clock", ["n"]),
    (
        "break: German Prep Fire breaks the Guard in R5",
        "break",
        ["f", "u", "~r5", "Enter", "b", "C-s"],
    ),
    ("clock: T2 German: PFPh to CCPh", "clock", ["n", "n", "n", "n", "n", "n"]),
    (
        "escape: both prisoners in R5 try, the 2-4-7 fails its NTC,"
        " the 4-6-7 kills the broken Guard",
        "escape",
        ["f", "e", "*", "Enter", "Tab", "Space", "Tab", "Tab", "Enter", "Down", "Enter", "C-s"],
    ),
    (
        "rearm: the escaped 4-6-7 rearms from the Guard it killed in CC",
        "rearm",
        ["f", "r", "Enter", "i", "C-s"],
    ),
    ("clock: T2 German: CCPh to T3 British", "clock", ["t"]),
    # ---- Game Turn 3, British Player Turn: nothing A20
    ("clock: T3 British: nothing A20, on to T3 German", "clock", ["t"]),
    # ---- Game Turn 3, German Player Turn
    ("clock: T3 German: RPh to PFPh", "clock", ["n"]),
    (
        "break (mis-picked): German Prep Fire at Q5, the first 4-5-8 there recorded broken",
        "",
        ["f", "u", "~q5", "Enter", "b", "C-s"],
    ),
    ("undo: the mis-picked break taken back", "undo", ["u"]),
    (
        "break: the other 4-5-8 in Q5 (the Guard of the 4-6-7) broken",
        "break",
        ["f", "u", "~b2", "Enter", "b", "C-s"],
    ),
    ("clock: T3 German: PFPh to T4 British", "clock", ["t"]),
    # ---- Game Turn 4, British Player Turn
    (
        "strike: the break of T3 was wrong (the MC was passed), then back to the present",
        "strike",
        ["h", "Up", "x", "=MC was passed", "Enter", "Escape"],
    ),
    ("clock: T4 British: nothing more A20, on to T4 German", "clock", ["t"]),
    # ---- Game Turn 4, German Player Turn: the last of the scenario
    ("clock: T4 German: RPh to CCPh", "clock", ["n", "n", "n", "n", "n", "n", "n"]),
    ("end: the scenario is over", "end", ["f", "z", "Space", "C-s"]),
    ("export: the tally, as Markdown", "export", ["v", "m"]),
]


if __name__ == "__main__":
    raise SystemExit(main(STEPS))
