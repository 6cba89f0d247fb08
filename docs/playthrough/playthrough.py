"""A recorded playthrough at 80x24 in tmux: a short game from an empty log, entered with
keys, the roster and the pickers only (no handle is ever typed).

    python docs/playthrough/playthrough.py [OUT.txt]

Needs tmux and the ``stockade`` command of this checkout. Each step is sent with
``tmux send-keys``; the screen is captured after each step (``capture-pane -p``) and
written to OUT (default docs/playthrough/screens-80x24.txt) with the step's keystroke
count. Typing a counter, a Location, odds or a DR counts as one keystroke per word
(a word is typed as printed on the counter; what the count measures is the reaching,
picking and confirming). The counts for the actions in docs/tui.md come from here.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # run as a script, or loaded
from tmux_play import Table, keystrokes, shown  # after the path above

SESSION = "stockade-playthrough"
HERE = Path(__file__).resolve().parent

# (label, counted action or "", keys). A key is a tmux key name (Enter, Tab, Space,
# C-s, Down, Escape), "=text" for a counter, Location, odds, DR or reason typed as
# printed (one keystroke per word), or "~text" for a roster filter (one per character).
STEPS: list[tuple[str, str, list[str]]] = [
    (
        "add the German stack, broken, in Q4",
        "",
        ["a", "g", "Enter", "=4-6-7 2-4-7 hs 2-4-7 hs", "Tab", "=Q4", "Tab", "Space", "C-s"],
    ),
    (
        "add three American squads in Q5",
        "",
        ["a", "a", "Enter", "=6-6-6 6-6-6 6-6-6", "Tab", "=Q5", "C-s"],
    ),
    ("add a German squad in R5", "", ["a", "g", "Enter", "=4-6-7", "Tab", "=R5", "C-s"]),
    ("add an American squad in R5", "", ["a", "a", "Enter", "=7-4-7", "Tab", "=R5", "C-s"]),
    ("the roster: every unit", "", ["w"]),
    ("close the roster, on to the RtPh", "", ["Escape", "n", "n", "n", "n", "n"]),
    (
        "surrender: the Q4 stack to a1",
        "surrender",
        ["s", "*", "Enter", "Enter", "y", "Enter", "n", "C-s"],
    ),
    ("on to the APh", "", ["n"]),
    ("transfer: g2 to a2", "transfer", ["f", "t", "Down", "Enter", "Enter", "C-s"]),
    ("on to the CCPh", "", ["n"]),
    (
        "CC capture: a4 takes g4 in R5 (3-1, DR 5)",
        "CC capture",
        ["f", "c", "~r5", "Enter", "Enter", "=3-1", "Tab", "=5", "C-s"],
    ),
    (
        "status: a4, alone in R5 with its prisoner g4, is broken",
        "",
        ["f", "u", "~r5", "Enter", "b", "C-s"],
    ),
    ("on to the German CCPh", "", ["n", "n", "n", "n", "n", "n", "n", "n"]),
    (
        "escape: g4 attacks its broken Guard a4, alone in R5, and eliminates it",
        "escape",
        ["f", "e", "Enter", "Space", "C-s"],
    ),
    # how (in CC) and the enemy (a4) are the only way the game allows: the form fills them
    ("rearm: g4 from a4, killed in CC", "rearm", ["f", "r", "Enter", "C-s"]),
    (
        "takeover: a1 eliminated in CC, a2 (picked of a2, a3) takes its prisoners",
        "takeover",
        ["f", "l", "Enter", "c", "Enter", "Enter", "C-s"],
    ),
    ("strike the takeover entry from the history", "strike", ["h", "x", "=wrong unit", "Enter"]),
    ("back to the present; undo: the last entry (the takeover) is taken back", "", ["Escape", "u"]),
    ("the tally, exported", "", ["v", "m"]),
]


def main(out: Path) -> int:
    stockade = shutil.which("stockade") or str(Path(sys.executable).parent / "stockade")
    table = Table(stockade, SESSION, "stockade-playthrough-")
    table.new_game("Hill 621", "American:American:4", "German:German:3")
    screens = table.play([keys for _, _, keys in STEPS], key_delay=0.3, step_delay=0.8)
    lines: list[str] = []
    counts: dict[str, int] = {}
    for (label, action, keys), screen in zip(STEPS, screens, strict=True):
        n = keystrokes(keys)
        if action:
            counts[action] = n
        lines.append(f"=== {label}  [{n} keystrokes: {shown(keys)}]")
        lines.append(screen)
    lines += table.read_back("tally")
    lines.append("=== keystrokes per action")
    lines += [f"{action}: {n}" for action, n in counts.items()]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines[-len(counts) - 1 :]))
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "screens-80x24.txt"))
