"""What a one-shot command (``stockade tally``, ``stockade do``) makes that it need not,
counted in a fresh interpreter running the console script's ``main`` (never timed)."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.cli.test_folding_tally import CHILD, DEMO, ROOT

# the state's own classes, which the fold makes for a tally too
STATE_CLASSES = {
    "stockade.core.model.tracked_unit.Origin",
    "stockade.core.model.tracked_unit.Unit",
    "stockade.core.model.state.Side",
    "stockade.core.model.state.Casualty",
    "stockade.core.model.state.GameState",
}


def test_a_do_makes_no_dataclass_beyond_the_states(tmp_path):
    """A dataclass ``exec``s the source of its methods when made (~2.6 M instructions
    each); the line's reading (the lexer's sections, the grammar's verbs and slots, the
    vocabulary, the parse), the rules' board facts and clock and a write's outcome are
    msgspec Structs (~0.1 M): a ``do`` makes the state's classes and nothing more."""
    game = tmp_path / "game.jsonl"
    game.write_bytes(DEMO.read_bytes())
    done = subprocess.run(
        [sys.executable, "-c", CHILD, "do", str(game), "next"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "STOCKADE_CACHE_DIR": "off"},
        timeout=120,
    )
    reply = json.loads(done.stdout)
    assert reply["code"] == 0, done.stderr
    assert len(game.read_bytes()) > len(DEMO.read_bytes())  # it did write
    assert set(reply["made"]) <= STATE_CLASSES, sorted(set(reply["made"]) - STATE_CLASSES)
