"""Opening a game to show it imports what a read uses: the replay of names of entries
never folded here (``core.book.names_replay``) loads when it is first built, what a
failed write left on disk (``core.log.on_disk``) after a failed write; a short log is
decoded with a decoder of the record kinds it holds (``core.model.record_decoder``).
Counted in a fresh process (which modules it imported and which record classes a
decoder was made for, never how long it took: bench/ measures that), and the same
process then writes, undoes and redoes, as the app's first entry does."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "sample_games" / "demo.jsonl"

CHILD = """\
import json, sys
from pathlib import Path
from typing import get_args
import msgspec

made = []  # the types of every JSON decoder made: msgspec reads each class's annotations
real_decoder = msgspec.json.Decoder

class CountedDecoder:
    def __new__(cls, *args, **kwargs):
        for of in args[:1]:  # its type, positional wherever the core makes one
            made.extend(get_args(of) or [of])
        return real_decoder(*args, **kwargs)

    def __class_getitem__(cls, item):
        return real_decoder[item]

msgspec.json.Decoder = CountedDecoder

from stockade.core.book.game import Game
from stockade.core.model import events as ev

game = Game.open(Path(sys.argv[1]), read_only=sys.argv[2] == "read-only")
game.history(then=False)  # what the app shows of the history before the replay is built
opened = sorted(m for m in sys.modules if m.startswith("stockade"))
decoded = sorted({t.__name__ for t in made if isinstance(t, type) and issubclass(t, ev.Record)})
wrote = []
if not game.read_only:  # the first write after the open, then undo and redo
    change = game.submit([ev.StatusChanged(handle="a3", location="S9")])
    game.undo()
    game.redo()
    game.close()
    wrote = [len(change.appended), len(Game.open(Path(sys.argv[1]), read_only=True).records)]
print(json.dumps({"opened": opened, "decoded": decoded, "wrote": wrote}))
"""

# Not for showing a game: built on first use, or after a failed write; or used only
# by a write: the hash chain a line appended carries, what a change did (its observer),
# to an entry's effect and whom it freed or handed over.
NOT_FOR_A_READ = {
    "stockade.core.book.names_replay",
    "stockade.core.log.on_disk",
    "stockade.core.log.chain",
    "stockade.core.book.consequences",
    "stockade.core.book.effects",
    "stockade.core.book.freeing",
}
# The stockade modules opening a game imports (the model, rules, log and book, the
# writer's roles included: ``Game`` is its writer). A new one is a new cost on every
# start of the app (docs/performance.md, "the fill").
# (80: the names replay and the state of a file after a failed write load on first use;
# 77: the hash chain, the effects and the freeing load with a write; 77: the record
# decoder of a short log's kinds in, a change's observer out)
OPEN_MODULES = 77


def opened_in_a_child(tmp_path: Path, how: str) -> dict[str, list]:
    path = tmp_path / "demo.jsonl"
    shutil.copyfile(DEMO, path)
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(path), how],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        env=dict(os.environ, STOCKADE_CACHE_DIR="off"),
    )
    assert done.returncode == 0, done.stderr
    reply: dict[str, list] = json.loads(done.stdout)
    return reply


@pytest.mark.parametrize("how", ["read-only", "for-writing"])
def test_opening_a_game_imports_only_what_a_read_uses(tmp_path, how):
    reply = opened_in_a_child(tmp_path, how)
    opened = set(reply["opened"])
    assert "stockade.core.book.writer" in opened  # the front door is whole
    assert not NOT_FOR_A_READ & opened, sorted(NOT_FOR_A_READ & opened)
    assert len(opened) <= OPEN_MODULES, sorted(opened)


def test_the_first_write_after_a_read_open_is_on_disk(tmp_path):
    records = len(DEMO.read_bytes().splitlines())
    appended, on_disk = opened_in_a_child(tmp_path, "for-writing")["wrote"]
    assert appended == 1 and on_disk == records + 3  # the entry, its undo and its redo


@pytest.mark.parametrize("how", ["read-only", "for-writing"])
def test_opening_a_short_game_decodes_only_the_kinds_it_holds(tmp_path, how):
    """msgspec reads the annotations of each record class a decoder is made for: the
    demo's seven kinds, not every one of the 32 (main: all 32)."""
    kinds = {json.loads(line)["kind"] for line in DEMO.read_bytes().splitlines()}
    decoded = opened_in_a_child(tmp_path, how)["decoded"]
    assert len(decoded) == len(kinds) == 7, decoded
