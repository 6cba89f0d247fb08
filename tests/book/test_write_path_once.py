"""``stockade do FILE CMD`` does each piece of work once: one read of the file, one fold
of its N entries, one parse, one rules check and one encode of the new record (a
rehearsal on a read-only copy once read the file twice and folded it three times).
Counted, never timed: a counter patched into each step."""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from stockade.core import rules
from stockade.core.book.projection import Projection
from stockade.core.cli import main
from stockade.core.log import store as log_store
from stockade.core.log.game_log import load
from stockade.core.model import events as ev

parsing = importlib.import_module("stockade.core.commands.parser")  # (the package
# exports a function of the same name)

N = 600  # entries: below the snapshot cache's threshold, so every one is folded


def _counting(calls: Counter[str], name: str, real: Callable[..., Any]) -> Callable[..., Any]:
    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[name] += 1
        return real(*args, **kwargs)

    return counted


@pytest.fixture
def calls(monkeypatch) -> Counter[str]:
    calls: Counter[str] = Counter()
    for module, name in (
        (rules, "step"),  # one per entry folded (and per record applied)
        (Projection, "check"),  # the rules asked about a new entry before it is written
        (log_store, "load"),  # reads of the log file
        (parsing, "read_line"),  # the command line read into its Command (parse calls it too)
        (ev, "encode"),  # records turned into log lines
    ):
        monkeypatch.setattr(module, name, _counting(calls, name, getattr(module, name)))
    return calls


def test_one_do_reads_folds_parses_checks_and_encodes_once(tmp_path, calls, generated_log):
    path = tmp_path / "game.jsonl"
    generated_log(path, N, 3)
    entries = len(load(path).records)
    calls.clear()
    assert main(["do", str(path), "add German 4-6-7 as zz1 at Q4"]) == 0
    assert len(load(path).records) == entries + 1
    # one fold of the log's entries (each effective one steps once; undone and struck
    # ones do not fold at all), then the new entry applied once
    assert entries // 2 < calls["step"] <= entries + 1, calls
    assert calls["load"] == 1 and calls["read_line"] == 1, calls
    assert calls["check"] == 1 and calls["encode"] == 1, calls


def test_a_refused_do_writes_nothing_and_still_reads_once(tmp_path, calls, generated_log):
    path = tmp_path / "game.jsonl"
    generated_log(path, N, 3)
    before = path.read_bytes()
    calls.clear()
    assert main(["do", str(path), "surrender zz404 to zz405"]) == 1
    assert path.read_bytes() == before
    assert calls["load"] == 1 and calls["read_line"] == 1 and calls["encode"] == 0, calls
