"""``--json`` replies with a long list are written as they are produced: the same text
``emit`` prints, without the list or the whole text held (``jsonout.emit_stream``)."""

from __future__ import annotations

import io
import json

import pytest

from stockade.core.cli import jsonout

ITEMS = [
    {"seq": 1, "record": {"t": "add", "units": ["g1", "g2"], "nested": {"a": []}}},
    {"seq": 2, "sentence": "un\u00e9 \x7f \u202e", "record": {}},
]


@pytest.mark.parametrize("items", [ITEMS, ITEMS[:1], []], ids=["two", "one", "none"])
def test_the_stream_prints_what_emit_prints(items, capsys):
    jsonout.emit("history", file="g.jsonl", problem=None, entries=items)
    whole = capsys.readouterr().out
    jsonout.emit_stream("history", "entries", iter(items), file="g.jsonl", problem=None)
    assert capsys.readouterr().out == whole
    assert json.loads(whole)["entries"] == items


def test_each_item_is_written_before_the_next_is_made(monkeypatch):
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    seen: list[str] = []

    def items():
        for n in range(3):
            seen.append(out.getvalue())
            yield {"seq": n}

    jsonout.emit_stream("history", "entries", items(), file="g", problem=None)
    assert '"seq": 0' not in seen[0] and '"seq": 0' in seen[1] and '"seq": 1' in seen[2]
    assert [e["seq"] for e in json.loads(out.getvalue())["entries"]] == [0, 1, 2]
