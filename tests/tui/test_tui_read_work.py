"""What the app's read thread does for the demo (``tui.reading.read_game``: the core's
imports, the open, the main screen's modules), counted in a fresh process: the record
classes a decoder is made for (msgspec reads each one's annotations) are the demo's
seven kinds, and nothing only a change needs is imported (what a change did, the hash
chain a line appended carries). Work counted, never timed: bench/ measures that."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.tui.support import ROOT, demo_in_a_child

CHILD = """\
import json, sys
from pathlib import Path
from typing import get_args
import msgspec

made = []  # the types of every JSON decoder made
real_decoder = msgspec.json.Decoder

class CountedDecoder:
    def __new__(cls, *args, **kwargs):
        for of in args[:1]:
            made.extend(get_args(of) or [of])
        return real_decoder(*args, **kwargs)

    def __class_getitem__(cls, item):
        return real_decoder[item]

msgspec.json.Decoder = CountedDecoder

import stockade.tui.app  # the frame's imports, before the read
from stockade.tui.reading import read_game

read = read_game(Path(sys.argv[1]))
from stockade.core.model import events as ev
decoded = sorted({t.__name__ for t in made if isinstance(t, type) and issubclass(t, ev.Record)})
loaded = sorted(m for m in sys.modules if m.startswith("stockade"))
read.game.close()
print(json.dumps({"problem": read.problem, "decoded": decoded, "loaded": loaded}))
"""

ONLY_A_CHANGE_NEEDS = {"stockade.core.book.consequences", "stockade.core.log.chain"}


@pytest.fixture(scope="module")
def read(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return demo_in_a_child(tmp_path_factory.mktemp("read"), CHILD)


def test_the_read_decodes_only_the_demos_kinds(read: dict[str, Any]) -> None:
    demo = (ROOT / "sample_games" / "demo.jsonl").read_bytes().splitlines()
    kinds = {json.loads(line)["kind"] for line in demo}
    assert read["problem"] == ""
    assert len(read["decoded"]) == len(kinds) == 7, read["decoded"]  # main: 32


def test_the_read_imports_nothing_only_a_change_needs(read: dict[str, Any]) -> None:
    assert not ONLY_A_CHANGE_NEEDS & set(read["loaded"])  # main: the change's observer
