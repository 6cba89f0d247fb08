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

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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
        "takeover: a1 eliminated, a2 (picked of a2, a3) takes its prisoners",
        "takeover",
        ["f", "l", "Enter", "e", "Enter", "Enter", "C-s"],
    ),
    ("strike the takeover entry from the history", "strike", ["h", "x", "=wrong unit", "Enter"]),
    ("back to the present; undo: the last entry (the takeover) is taken back", "", ["Escape", "u"]),
    ("the tally, exported", "", ["v", "m"]),
]


def keystrokes(keys: list[str]) -> int:
    return sum(
        len(k[1:].split()) if k.startswith("=") else len(k) - 1 if k.startswith("~") else 1
        for k in keys
    )


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], check=True, capture_output=True, text=True).stdout


def main(out: Path) -> int:
    stockade = shutil.which("stockade") or str(Path(sys.executable).parent / "stockade")
    work = Path(tempfile.mkdtemp(prefix="stockade-playthrough-"))
    env = {
        "STOCKADE_CONFIG_DIR": str(work / "config"),
        "STOCKADE_DATA_DIR": str(work / "data"),
        "STOCKADE_CACHE_DIR": str(work / "cache"),
    }
    log = work / "game.jsonl"
    subprocess.run(
        [
            stockade,
            "new",
            str(log),
            "--scenario",
            "Hill 621",
            "--side",
            "American:American:4",
            "--side",
            "German:German:3",
        ],
        check=True,
        env={**os.environ, **env},
        capture_output=True,
    )
    exports = " ".join(f"{k}={v}" for k, v in env.items())
    subprocess.run(["tmux", "kill-session", "-t", SESSION], capture_output=True)
    tmux(
        "new",
        "-d",
        "-s",
        SESSION,
        "-x",
        "80",
        "-y",
        "24",
        f"cd {work} && {exports} {stockade} {log}",
    )
    time.sleep(3)
    lines: list[str] = []
    counts: dict[str, int] = {}
    try:
        for label, action, keys in STEPS:
            for key in keys:
                if key.startswith(("=", "~")):
                    tmux("send-keys", "-t", SESSION, "-l", key[1:])
                else:
                    tmux("send-keys", "-t", SESSION, key)
                time.sleep(0.3)
            time.sleep(0.8)
            n = keystrokes(keys)
            if action:
                counts[action] = n
            shown = " ".join(k[1:].join('""') if k[0] in "=~" and len(k) > 1 else k for k in keys)
            lines.append(f"=== {label}  [{n} keystrokes: {shown}]")
            lines.append(tmux("capture-pane", "-t", SESSION, "-p").rstrip("\n"))
        tmux("send-keys", "-t", SESSION, "Escape")
        time.sleep(0.3)
        tmux("send-keys", "-t", SESSION, "q")
        time.sleep(0.5)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", SESSION], capture_output=True)
    tally = subprocess.run(
        [stockade, "tally", str(log)], env={**os.environ, **env}, capture_output=True, text=True
    ).stdout
    lines.append("=== stockade tally (after quitting)")
    lines.append(tally.rstrip("\n"))
    lines.append("=== keystrokes per action")
    lines += [f"{action}: {n}" for action, n in counts.items()]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines[-len(counts) - 1 :]))
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "screens-80x24.txt"))
