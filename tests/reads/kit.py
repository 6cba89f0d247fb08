"""Games the reads' tests play, shared with the TUI's tests (a plain module, not a test
module)."""

from __future__ import annotations

PLAYTHROUGH_APH = [  # docs/playthrough/game_script.py, up to the CC capture
    "add British 4-5-8 4-5-8 at Q5",
    "add British 4-5-8 at R6",
    "add German 8-1 4-6-7 2-4-7 hs at P4",
    "add German 4-6-7 2-4-7 hs at R5",
    "phase PFPh 1 British",
    "break g1 g2 g3",
    "surrender g1 g2 g3 to b1",
    "transfer g2 to b2",
    "move b3 R5",
]
