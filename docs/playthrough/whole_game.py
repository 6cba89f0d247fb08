"""A whole game at 80x24 in tmux, four Game Turns, entered as a player at the table
would: surrender, transfer, CC capture, a move, escape with one failed NTC, rearm, an
undo, a strike, the end and the exports. The same game is played twice, with the keys
each version needs:

* ``table``: this branch (the clock follows the entries, the command bar stays open
  for the next command until esc);
* ``main``: the original main commit c715cb0 (each command opens the bar with ``:``;
  the phase is moved by hand with ``n`` before an entry of a later phase).

    python docs/playthrough/whole_game.py table STOCKADE [OUT.txt]
    python docs/playthrough/whole_game.py main STOCKADE_OF_MAIN [OUT.txt]

Needs tmux. A key is a tmux key name (Enter, Escape, Up), or "=text" for a command or
reason typed as printed: one keystroke per word (tmux_play.py, the driver the
playthroughs share; what the count measures is the reaching and confirming, not the
typing speed). The screen is captured
after each step; at the end ``stockade tally`` and ``history`` check the book.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # run as a script
from tmux_play import Table, keystrokes  # after the path above

SESSION = "stockade-whole-game"
HERE = Path(__file__).resolve().parent

SET_UP = [
    "add American 6-6-6 6-6-6 9-1 at Q4",
    "add American 7-4-7 at R5",
    "add German 4-6-7 4-6-7 2-4-7 hs at Q5 broken",
    "add German 4-6-7 at R5",
]


def typed(*lines: str) -> list[str]:
    """Commands typed one after another in a bar that stays open."""
    return [key for line in lines for key in (f"={line}", "Enter")]


def each_opened(*lines: str) -> list[str]:
    """Commands each typed after ``:`` (the bar closes after each)."""
    return [key for line in lines for key in (":", f"={line}", "Enter")]


# (label, counted action, table keys, main keys)
STEPS: list[tuple[str, str, list[str], list[str]]] = [
    ("T1 American: the units", "set-up", [":", *typed(*SET_UP)], each_opened(*SET_UP)),
    (
        "surrender: the broken stack in Q5 to a1 (typed in the RPh)",
        "surrender",
        typed("surrender g1 g2 g3 to a1"),
        ["n"] * 5 + each_opened("surrender g1 g2 g3 to a1"),
    ),
    (
        "transfer: g3 to a2 (typed in the RtPh)",
        "transfer",
        typed("transfer g3 to a2"),
        ["n", *each_opened("transfer g3 to a2")],
    ),
    (
        "CC capture: a4 takes g4 in R5 (typed in the APh)",
        "CC capture",
        typed("capture g4 by a4"),
        ["n", *each_opened("capture g4 by a4")],
    ),
    (
        "T2 American: a2 and a3 move off to R4",
        "move",
        ["Escape", "t", "t", ":", *typed("move a2 a3 R4")],
        ["t", "t", *each_opened("move a2 a3 R4")],
    ),
    (
        "T2 German: fire breaks a1, alone with g1 and g2",
        "",
        ["Escape", "t", ":", *typed("break a1")],
        ["t", *each_opened("break a1")],
    ),
    (
        "escape: g1 kills its broken Guard, g2 fails its NTC (typed in the RPh)",
        "escape",
        typed("escape g1 g2 ntcfail g2 guard-dies"),
        ["n"] * 7 + each_opened("escape g1 g2 ntcfail g2 guard-dies"),
    ),
    (
        "rearm: g1 from a1, killed in CC",
        "rearm",
        typed("rearm g1 cc a1"),
        each_opened("rearm g1 cc a1"),
    ),
    (
        "T3 American: a mistaken entry, undone",
        "undo",
        ["Escape", "t", ":", *typed("break a4"), "Escape", "u"],
        ["t", *each_opened("break a4"), "u"],
    ),
    (
        "a wrong pin, struck from the history with a reason",
        "strike",
        [":", *typed("pin a4"), "Escape", "h", "x", "=wrong unit", "Enter", "Escape"],
        [*each_opened("pin a4"), "h", "x", "=wrong unit", "Enter", "Escape"],
    ),
    ("T3 German to T4 German: nothing A20", "", ["t", "t", "t"], ["t", "t", "t"]),
    ("the end", "end", [":", *typed("end"), "Escape"], each_opened("end")),
    ("the tally, exported", "export", ["v", "m"], ["v", "m"]),
]


def main(version: str, stockade: str, out: Path) -> int:
    column = 2 if version == "table" else 3
    table = Table(stockade, SESSION, "stockade-whole-game-")
    table.new_game("Whole game", "American:American:4", "German:German:3")
    screens = table.play([step[column] for step in STEPS], 0.4, 1.0, settle=4)
    lines: list[str] = []
    counts: dict[str, int] = {}
    for step, screen in zip(STEPS, screens, strict=True):
        label, action, keys = step[0], step[1], step[column]
        n = keystrokes(keys)
        counts[action or label] = counts.get(action or label, 0) + n
        lines.append(f"=== {label}  [{n} keystrokes]")
        lines.append(screen)
    lines += table.read_back("history", "tally")
    lines.append(f"=== keystrokes per action ({version})")
    lines += [f"{action}: {n}" for action, n in counts.items()]
    lines.append(f"whole game: {sum(counts.values())}")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines[-len(counts) - 2 :]))
    return 0


if __name__ == "__main__":
    version, stockade = sys.argv[1], sys.argv[2]
    default = HERE / f"whole-game-80x24-{version}.txt"
    sys.exit(main(version, stockade, Path(sys.argv[3]) if len(sys.argv) > 3 else default))
