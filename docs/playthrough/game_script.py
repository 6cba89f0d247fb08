"""A whole game of our own at 80x24 in tmux, British vs Germans, four Game Turns, entered
with keys only (the keystroke table of docs/tui.md): set-up, a break, a RtPh surrender, a transfer,
a move, a CC capture, an escape with one failed NTC, a rearm, a mis-pick taken back by
undo, a strike, the end of the game and the export of the tally.

    python game_script.py [--stockade PATH] [--log GAME.jsonl] [--out SCREENS.txt]

The driver and the counting are docs/playthrough/tmux_play.py's, as for playthrough.py:
each step is sent with ``tmux send-keys``, the screen is captured after each step
(``capture-pane -p``) and written to OUT with the step's keystroke count. A counter, a
Location, odds, a DR, a reason or a word of a command typed at ``:`` counts one
keystroke per word ("=text");
a roster filter one per character ("~text"); every other key (a tmux key name: Enter,
Tab, Space, C-s, Down, Escape, or a single character) one.

To replay the same game on another build, change only the keys of the STEPS whose
keys changed: keep every label as it is (the labels are what the two runs are compared
by), and keep the keys that advance the clock in steps of their own, labelled
"clock: T<n> <side>: ..." (the clock is summed per Player Turn from those labels).
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # run as a script, or imported
from tmux_play import Table, keystrokes, shown  # after the path above

SESSION = "stockade-game-script"

# (label, counted action or "", keys). The counted actions are the ones the keystroke
# table reports; "clock" steps are summed per Player Turn, every step counts in the
# whole game's total.
STEPS: list[tuple[str, str, list[str]]] = [
    # ---- Game Turn 1, British Player Turn (British move first). The command bar is
    # opened once and stays open until esc; the clock's ctrl+t works inside it. A side
    # is set up in one line, each hex ending the counters placed there; the second
    # 2-4-7 takes the kind the first was given. Counters are named by their handles
    # (the reply to each `add` gives them: "new handles: ...") or, a whole stack, by its
    # hex (@P4); a rearm with one legal source is filled in by the core.
    ("set-up: two British 4-5-8 in Q5", "set-up", [":", "=add b 4-5-8 4-5-8 Q5"]),
    ("set-up: a British 4-5-8 in R6", "set-up", ["= 4-5-8 R6", "Enter"]),
    (
        "set-up: a German 8-1, 4-6-7 and 2-4-7 HS in P4",
        "set-up",
        ["=add g 8-1 4-6-7 2-4-7 hs P4"],
    ),
    (
        "set-up: a German 4-6-7 and 2-4-7 HS in R5",
        "set-up",
        ["= 4-6-7 2-4-7 R5", "Enter"],
    ),
    ("clock: T1 British: RPh to PFPh", "clock", ["=next", "Enter"]),
    (
        "break: British Prep Fire breaks the German stack in P4",
        "break",
        ["=break @P4", "Enter"],
    ),
    # The surrender moves the clock to the RtPh by itself (A20.21).
    ("clock: T1 British: PFPh to RtPh", "clock", []),
    (
        "surrender: the broken P4 stack (8-1, 4-6-7, 2-4-7) surrenders to a 4-5-8 in Q5",
        "surrender",
        ["=surrender @P4 to b1", "Enter"],
    ),
    # The transfer moves the clock to the APh by itself (A20.5).
    ("clock: T1 British: RtPh to APh", "clock", []),
    (
        "transfer: the 4-6-7 prisoner to the other 4-5-8 in Q5",
        "transfer",
        ["=transfer g2 to b2", "Enter"],
    ),
    ("move: the R6 4-5-8 advances into R5", "move", ["=move b3 R5", "Enter"]),
    # The CC capture moves the clock to the CCPh by itself (A20.22).
    ("clock: T1 British: APh to CCPh", "clock", []),
    (
        "CC capture: the 4-5-8 in R5 captures the 4-6-7 and the 2-4-7 (1-2, DR 2)",
        "CC capture",
        ["=capture @R5 by b3", "Enter"],
    ),
    ("clock: T1 British: CCPh to the German Player Turn", "clock", ["C-t"]),
    # ---- Game Turn 1, German Player Turn: nothing A20
    ("clock: T1 German: nothing A20, on to T2 British", "clock", ["C-t"]),
    # ---- Game Turn 2, British Player Turn: nothing A20
    ("clock: T2 British: nothing A20, on to T2 German", "clock", ["C-t"]),
    # ---- Game Turn 2, German Player Turn
    ("clock: T2 German: RPh to PFPh", "clock", ["=next", "Enter"]),
    (
        "break: German Prep Fire breaks the Guard in R5",
        "break",
        ["=break b3", "Enter"],
    ),
    # The escape moves the clock to the CCPh by itself (A20.55).
    ("clock: T2 German: PFPh to CCPh", "clock", []),
    (
        "escape: both prisoners in R5 try, the 2-4-7 fails its NTC,"
        " the 4-6-7 kills the broken Guard",
        "escape",
        ["=escape @R5 ntcfail g5 guard-dies", "Enter"],
    ),
    (
        "rearm: the escaped 4-6-7 rearms from the Guard it killed in CC",
        "rearm",
        ["=rearm g4", "Enter"],
    ),
    ("clock: T2 German: CCPh to T3 British", "clock", ["C-t"]),
    # ---- Game Turn 3, British Player Turn: nothing A20
    ("clock: T3 British: nothing A20, on to T3 German", "clock", ["C-t"]),
    # ---- Game Turn 3, German Player Turn
    ("clock: T3 German: RPh to PFPh", "clock", ["=next", "Enter"]),
    (
        "break (mis-picked): German Prep Fire at Q5, the first 4-5-8 there recorded broken",
        "",
        ["=break b1", "Enter"],
    ),
    ("undo: the mis-picked break taken back", "undo", ["C-z"]),
    (
        "break: the other 4-5-8 in Q5 (the Guard of the 4-6-7) broken",
        "break",
        ["=break b2", "Enter"],
    ),
    ("clock: T3 German: PFPh to T4 British", "clock", ["C-t"]),
    # ---- Game Turn 4, British Player Turn
    (
        "strike: the break of T3 was wrong (the MC was passed), then back to the present",
        "strike",
        ["=strike 34 MC was passed", "Enter"],
    ),
    ("clock: T4 British: nothing more A20, on to T4 German", "clock", ["C-t"]),
    # ---- Game Turn 4, German Player Turn: the last of the scenario. The end goes on to
    # the CCPh by itself (a scenario ends after its last CCPh).
    ("clock: T4 German: RPh to CCPh", "clock", []),
    ("end: the scenario is over", "end", ["=end", "Enter"]),
    ("export: the tally, as Markdown", "export", ["Escape", "v", "m"]),
]

PLAYER_TURN = re.compile(r"clock: (T\d+ \w+)")


def main(steps: list[tuple[str, str, list[str]]] = STEPS) -> int:
    """Play ``steps`` (this build's keys by default; game_script_5b47421.py hands in the
    same game's keys on 5b47421)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--stockade",
        default=shutil.which("stockade") or str(Path(sys.executable).parent / "stockade"),
    )
    ap.add_argument("--log", type=Path, default=None, help="the game log to write (must not exist)")
    ap.add_argument("--out", type=Path, default=Path("game-screens.txt"))
    ap.add_argument("--key-delay", type=float, default=0.3)
    ap.add_argument("--step-delay", type=float, default=0.8)
    a = ap.parse_args()
    table = Table(a.stockade, SESSION, "stockade-game-")
    table.new_game("Stockade test game", "British:British:4", "German:German:3", log=a.log)
    screens = table.play([keys for _, _, keys in steps], a.key_delay, a.step_delay)
    lines: list[str] = []
    per_action: dict[str, list[int]] = defaultdict(list)
    per_turn: dict[str, int] = defaultdict(int)
    total = 0
    for (label, action, keys), screen in zip(steps, screens, strict=True):
        n = keystrokes(keys)
        total += n
        if action:
            per_action[action].append(n)
        if m := PLAYER_TURN.match(label):
            per_turn[m.group(1)] += n
        lines.append(f"=== {label}  [{n} keystrokes: {shown(keys)}]")
        lines.append(screen)
    lines += table.read_back("history", "tally")
    exported = sorted(str(p) for p in table.log.parent.glob(table.log.stem + ".tally.*"))
    lines.append(f"=== exported files: {', '.join(exported) or 'none'}")
    summary = ["=== keystrokes per action"]
    summary += [f"{act}: {' + '.join(map(str, ns))} = {sum(ns)}" for act, ns in per_action.items()]
    summary.append("=== clock, per Player Turn")
    summary += [f"{turn}: {n}" for turn, n in per_turn.items()]
    summary.append(f"=== whole game: {total} keystrokes in {len(steps)} steps")
    lines += summary
    a.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"log: {table.log}\nscreens: {a.out}")
    print("\n".join(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
