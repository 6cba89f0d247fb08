"""The CLI's rows fit the terminal: in a terminal (or with ``--width N``) a row wider
than the width wraps its last text under itself, every word and rule kept; piped, every
row stays one line, as scripts and the golden files read it (core/model/columns.py,
core/cli/width.py)."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest

from stockade.core.model.columns import MIN_FREE, laid_out
from tests.cli.support import cli

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted((ROOT / "sample_games").glob("*.jsonl"))
DEMO = ROOT / "sample_games" / "demo.jsonl"
READS = ("tally", "history", "show", "check")
RULE = re.compile(r"\bA\d+(?:\.\d+)*\b")


def _longest(text: str) -> int:
    return max(len(line) for line in text.splitlines())


@pytest.mark.parametrize("command", READS)
@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.stem)
def test_every_row_fits_80_columns_and_keeps_every_word_and_rule(capsys, command, game):
    code, full, _ = cli(capsys, command, game)
    assert code == 0
    code, narrow, _ = cli(capsys, command, game, "--width", "80")
    assert code == 0
    assert _longest(narrow) <= 80, narrow
    # the same words in the same order: nothing cut, no word broken at the edge
    assert narrow.split() == full.split()
    assert RULE.findall(narrow) == RULE.findall(full)


def _sections() -> list[str]:
    from stockade.core.reads import conformance

    return sorted({s.rule.removesuffix(" EX") for s in conformance.sections()})


@pytest.mark.parametrize("argv", [["rules"], ["rulings"], *(["rules", s] for s in _sections())])
def test_the_rules_and_rulings_fit_80_columns_and_keep_every_word(capsys, argv):
    _, full, _ = cli(capsys, *argv)
    _, narrow, _ = cli(capsys, *argv, "--width", "80")
    assert _longest(narrow) <= 80, narrow
    assert narrow.split() == full.split()


def test_a_reply_to_do_wraps_each_row_under_its_own_text(capsys, tmp_path):
    game = tmp_path / "demo.jsonl"
    game.write_bytes(DEMO.read_bytes())
    _, full, _ = cli(capsys, "do", game, "help")
    _, narrow, _ = cli(capsys, "do", game, "help", "--width", "80")
    assert _longest(full) > 80 and _longest(narrow) <= 80, narrow
    assert narrow.split() == full.split()
    # a verb's words go on under the words, never back under the verb
    heads = [line for line in narrow.splitlines() if line.startswith("add ")]
    at = heads[0].index("enter units")
    after = narrow.splitlines()[narrow.splitlines().index(heads[0]) + 1]
    assert after[:at].isspace() and not after[at].isspace()


def test_a_tally_row_too_wide_wraps_its_why_under_the_row_with_its_rule_in_place(capsys):
    _, out, _ = cli(capsys, "tally", DEMO, "--width", "80")
    lines = out.splitlines()
    row = next(i for i, line in enumerate(lines) if line.lstrip().startswith("16 "))
    assert "A20.1" in lines[row] and "2 x 2 = 4 *" in lines[row]
    assert lines[row + 1].strip() == "if the game ended now: prisoner guarded by a1"


def test_history_wraps_a_long_entry_under_its_sentence(capsys):
    game = ROOT / "sample_games" / "ex13_hero_capacity.jsonl"
    _, out, _ = cli(capsys, "history", game, "--width", "60")
    lines = out.splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith("    7 "))
    assert lines[i + 1].startswith(" " * 8) and lines[i + 1][8] != " "
    assert _longest(out) <= 60


def test_verify_lays_its_added_entries_out_in_the_width(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # names as a player types them (a path is never broken)
    kept, received = Path("kept.jsonl"), Path("received.jsonl")
    received.write_bytes(DEMO.read_bytes())
    kept.write_bytes(b"".join(DEMO.read_bytes().splitlines(keepends=True)[:10]))
    code, full, _ = cli(capsys, "verify", kept, received)
    assert code == 0 and _longest(full) > 80  # the test would prove nothing otherwise
    _, narrow, _ = cli(capsys, "verify", kept, received, "--width", "80")
    assert _longest(narrow) <= 80 and narrow.split() == full.split()


def test_width_0_and_a_pipe_keep_every_row_on_one_line(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")  # a pipe: $COLUMNS is the terminal's, not the pipe's
    _, piped, _ = cli(capsys, "history", DEMO)
    _, zero, _ = cli(capsys, "history", DEMO, "--width", "0")
    assert piped == zero and _longest(piped) > 80


def test_the_tally_says_what_a_bar_counts(capsys):
    _, out, _ = cli(capsys, "tally", DEMO)
    bars = out.index("    T1 ## 2")
    assert "each # is 1 CVP banked in that Game Turn" in out[bars:]


def _in_a_terminal(argv: list[str], columns: int) -> str:
    """``stockade ARGV`` as the console script runs it, its stdout a terminal
    (a pseudo-terminal) with ``$COLUMNS`` set; what it printed."""
    main, child = pty.openpty()
    env = {**os.environ, "COLUMNS": str(columns)}
    code = "import sys; from stockade.tui.launcher import main; sys.exit(main(sys.argv[1:]))"
    run = subprocess.Popen(
        [sys.executable, "-c", code, *argv], stdout=child, stderr=subprocess.PIPE, cwd=ROOT, env=env
    )
    os.close(child)
    said = b""
    while True:
        ready, _, _ = select.select([main], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the child closed its end
            break
        if not chunk:
            break
        said += chunk
    os.close(main)
    assert run.wait(timeout=60) == 0, run.stderr.read() if run.stderr else ""
    return said.decode().replace("\r\n", "\n")


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal is POSIX")
def test_in_a_terminal_the_width_is_the_terminals_folded_or_kept(tmp_path):
    game = tmp_path / "demo.jsonl"
    game.write_bytes(DEMO.read_bytes())
    folded = _in_a_terminal(["tally", str(game)], 80)
    kept = _in_a_terminal(["tally", str(game)], 80)  # the same bytes: from the store
    assert folded == kept and _longest(folded) <= 80
    assert "A20.1" in folded and "prisoner guarded by a1" in folded
    assert _longest(_in_a_terminal(["history", str(game)], 80)) <= 80


def test_a_row_wraps_under_its_text_never_breaking_a_word():
    lead = "  16  A20.1  "
    lines = laid_out(lead, "if the game ended now: prisoner 4-6-7 guarded by a1", 40)
    assert lines[0].startswith(lead) and all(line.startswith(" " * len(lead)) for line in lines[1:])
    assert (
        " ".join(lines).split()
        == (lead + "if the game ended now: prisoner 4-6-7 guarded by a1").split()
    )
    # a word is not split at its hyphens, where the edge falls inside it
    assert laid_out("", "x" * 17 + " half-squad g1", MIN_FREE) == ["x" * 17, "half-squad g1"]
    assert laid_out("", "y" * 30 + " A20.53", MIN_FREE) == ["y" * 30, "A20.53"]
    # too narrow beside the lead: the text goes below it
    wide = "x" * (40 - MIN_FREE + 1) + " "
    words = "some words that do not fit beside it"
    assert laid_out(wide, words, 40, below=4) == [wide.rstrip(), "    " + words]
    assert laid_out(lead, "short", None) == laid_out(lead, "short", 80) == [lead + "short"]


WIDE = ("tally", "history", "show", "check", "verify", "watch", "rules", "rulings", "do", "undo")


@pytest.mark.parametrize("command", WIDE)
def test_the_help_of_each_command_that_lays_out_rows_says_how_its_width_is_chosen(capsys, command):
    code, out, _ = cli(capsys, command, "--help")
    assert code == 0
    said = " ".join(out.split())
    assert "--width N" in said and "the terminal's width" in said and "piped" in said
