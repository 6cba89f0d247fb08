"""A game log from an opponent can never run code, and cannot make us parse without
bound (issue 4)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from msgspec.structs import replace

import stockade.core.log.game_log as logfile
import stockade.core.log.reader as logread
from bench.generate import Driver, new_game
from stockade.core.log.journal import Journal
from stockade.core.log.journal_errors import JournalWriteError
from stockade.core.log.log_lines import MAX_LINE_BYTES
from stockade.core.model import events as ev

CORE = Path(__file__).resolve().parents[2] / "core"
FORBIDDEN = re.compile(
    r"\b(pickle|cPickle|marshal|shelve|dill|jsonpickle)\b|"
    r"(?<![\w.])(eval|exec|compile|__import__)\s*\(|"
    r"yaml\.(unsafe_)?load\s*\(|import_module\s*\(|os\.system|subprocess"
)


def test_no_code_loading_anywhere_in_core():
    hits = []
    for path in sorted(CORE.rglob("*.py")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#", 1)[0]
            if FORBIDDEN.search(code):
                hits.append(f"{path.relative_to(CORE.parent)}:{n}: {line.strip()}")
    assert not hits, "\n".join(hits)


def test_the_checker_itself_catches_them():
    for line in (
        "import pickle",
        "x = eval(s)",
        "exec(code)",
        "yaml.load(f)",
        "mod = importlib.import_module(name)",
        "__import__(n)",
    ):
        assert FORBIDDEN.search(line), line
    for line in ("re.compile(p)", "self.evaluate(x)", "executor = 1"):
        assert not FORBIDDEN.search(line), line


def _log(tmp_path: Path) -> list[bytes]:
    game = new_game()
    driver = Driver(game, seed=9)
    while len(game.records) < 30:
        driver.step()
    return [ev.encode(r) for r in game.records]


@pytest.mark.parametrize("where", [5, -1])
def test_an_over_long_line_is_refused_before_it_is_parsed(tmp_path, monkeypatch, where):
    lines = _log(tmp_path)
    huge = lines[where][:-1] + b',"pad":"' + b"x" * (MAX_LINE_BYTES + 10) + b'"}'
    lines[where] = huge
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    seen = []

    class Spy:
        def __init__(self, real):
            self.real = real

        def decode(self, data):
            seen.append(len(data))
            return self.real.decode(data)

        def decode_lines(self, data):
            seen.extend(len(x) for x in bytes(data).split(b"\n"))
            return self.real.decode_lines(data)

    game_format = replace(logfile.GAME, decoder=Spy(logfile.GAME.decoder))
    monkeypatch.setattr(logfile, "GAME", game_format)
    monkeypatch.setattr(logread, "_raw_decoder", Spy(logread._raw_decoder))
    loaded = logfile.load(path)
    number = where % len(lines) + 1
    assert loaded.problem is not None and loaded.problem.line == number
    assert "limit" in loaded.problem.message
    assert seen and max(seen) <= MAX_LINE_BYTES, "the long line reached the parser"


def test_the_journal_never_writes_an_over_long_line(tmp_path):
    journal = Journal.create(tmp_path / "j.jsonl", b"{}")
    with pytest.raises(JournalWriteError, match="over the line limit"):
        journal.append(b"x" * MAX_LINE_BYTES)
    with pytest.raises(ValueError):
        journal.append(b"two\nlines")
    assert (tmp_path / "j.jsonl").read_bytes() == b"{}\n"
    journal.close()
