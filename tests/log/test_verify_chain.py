"""The hash chain over a log's lines (core/log/chain.py), ``stockade check`` walking it, and
``stockade verify OLD NEW`` (core/reads/verify.py): PBEM logs an opponent can check."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from stockade.core.book.game import Game
from stockade.core.cli.errors import Exit
from stockade.core.log import chain, snap_sizes
from tests.cli.support import cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines()


@pytest.fixture
def game_log(tmp_path, capsys) -> Path:
    """A German/Russian game of 8 lines: header, four units, phase, surrender, phase."""
    path = tmp_path / "game.jsonl"
    assert (
        cli(
            capsys,
            *("new", path, "--scenario", "Chain"),
            *("--side", "Russian:Russian", "--side", "German:German"),
        )[0]
        == 0
    )
    script = tmp_path / "setup.txt"
    script.write_text(
        "add Russian 4-4-7 at K5\nadd Russian 9-1 at K5\n"
        "add German 4-6-7 2-4-7 hs at K6 broken\nphase rtph\nsurrender g1 g2 to r1\nnext\n"
    )
    assert cli(capsys, "run", path, script)[0] == 0
    assert len(lines_of(path)) == 8
    return path


def kept_copy(path: Path) -> Path:
    copy = path.with_name("kept.jsonl")
    shutil.copyfile(path, copy)
    return copy


# ------------------------------------------------------------------- the chain
def test_every_line_after_the_header_links_to_the_line_before(game_log):
    lines = lines_of(game_log)
    assert "prev" not in json.loads(lines[0])
    for number, (before, line) in enumerate(zip(lines, lines[1:], strict=False), 1):
        assert json.loads(line)["prev"] == chain.link_of(before, None if number == 1 else "")
    assert chain.walk(lines).intact


def test_the_link_is_documented_sha256_truncated(game_log):
    import hashlib

    first, second = lines_of(game_log)[:2]
    assert json.loads(second)["prev"] == hashlib.sha256(first).hexdigest()[: chain.LINK_HEX]
    assert chain.LINK_HEX == 32


def test_undo_redo_and_strike_records_are_chained_too(game_log, capsys):
    for argv in (("undo",), ("redo",), ("strike", 6, "--reason", "misread")):
        assert cli(capsys, argv[0], game_log, *argv[1:])[0] in (0, Exit.CONFLICTS)
    lines = lines_of(game_log)
    assert [json.loads(line)["kind"] for line in lines[-3:]] == ["undo", "redo", "strike"]
    assert chain.walk(lines).intact


def test_reopening_a_game_continues_the_chain(game_log):
    for _ in range(3):
        game = Game.open(game_log)
        game.undo()
        game.close()
    report = chain.walk(lines_of(game_log))
    assert report.intact and report.walked == 11 and report.unchained == 0


def test_a_torn_tail_set_aside_does_not_break_the_chain(game_log):
    with open(game_log, "ab") as f:
        f.write(b'{"kind":"undo","target":8,"se')  # a crash mid-write
    game = Game.open(game_log)  # sets the torn bytes aside, cuts the file back
    game.undo()
    game.close()
    assert chain.walk(lines_of(game_log)).intact


@pytest.mark.parametrize("line", [2, 4, 8])
def test_check_names_the_first_line_whose_link_breaks(game_log, capsys, line):
    lines = lines_of(game_log)
    lines[line - 1] = lines[line - 1].replace(b'"at":"', b'"at":"1')  # retouched
    game_log.write_bytes(b"".join(x + b"\n" for x in lines))
    code, out, err = cli(capsys, "check", game_log)
    if line == 8:  # the last line: nothing after it holds its link
        assert code == 0, err
        return
    assert code == Exit.DAMAGED
    assert f"line {line + 1}: its link to line {line} does not match" in err


def test_check_reports_the_chain_when_sound(game_log, capsys):
    code, out, _ = cli(capsys, "check", game_log)
    assert code == 0 and "hash chain intact over 8 lines" in out


def test_a_line_without_a_link_after_chained_lines_breaks_the_chain(game_log, capsys):
    lines = lines_of(game_log)
    record = json.loads(lines[-1])
    del record["prev"]
    lines[-1] = json.dumps(record, separators=(",", ":")).encode()
    game_log.write_bytes(b"".join(x + b"\n" for x in lines))
    code, _, err = cli(capsys, "check", game_log)
    assert code == Exit.DAMAGED and "line 8: carries no link" in err


# ---------------------------------------------------------- upgrading old logs
def test_an_old_log_is_chained_from_its_first_line_without_being_rewritten(tmp_path, capsys):
    path = tmp_path / "old.jsonl"
    shutil.copyfile(FIXTURES / "v0_game.jsonl", path)
    before = path.read_bytes()
    code, out, _ = cli(capsys, "check", path)
    assert code == 0 and "no line carries a link yet" in out
    game = Game.open(path)
    game.undo()
    game.close()
    after = path.read_bytes()
    assert after.startswith(before)  # the old lines are as they were
    old_lines = before.splitlines()
    head = None
    for line in old_lines:
        head = chain.link_of(line, head)
    new_line = after.splitlines()[-1]
    assert json.loads(new_line)["prev"] == head  # commits to every old line
    code, out, _ = cli(capsys, "check", path)
    assert code == 0 and f"lines 2-{len(old_lines)} predate it" in out


def test_rewriting_an_old_unchained_line_is_caught_once_the_log_is_chained(tmp_path, capsys):
    path = tmp_path / "old.jsonl"
    shutil.copyfile(FIXTURES / "v0_game.jsonl", path)
    game = Game.open(path)
    game.undo()
    game.close()
    lines = lines_of(path)
    lines[2] = lines[2].replace(b"19:01:10", b"19:01:11")
    path.write_bytes(b"".join(x + b"\n" for x in lines))
    code, _, err = cli(capsys, "check", path)
    assert code == Exit.DAMAGED and f"line {len(lines)}: its link" in err


# ------------------------------------------------------------------- verify
def test_verify_append_only_lists_added_entries_and_their_sides(game_log, capsys):
    old = kept_copy(game_log)
    assert cli(capsys, "do", game_log, "next")[0] == 0
    assert cli(capsys, "undo", game_log)[0] == 0
    added = len(lines_of(game_log)) - len(lines_of(old))
    code, out, err = cli(capsys, "verify", old, game_log)
    assert code == 0, err
    assert "nothing rewritten" in out and f"{added} entries added" in out
    rows = [r for r in out.splitlines() if r.startswith("  ")]
    assert len(rows) == added
    assert all(r.split()[1] in ("Russian", "German", "-") for r in rows)
    assert "sides named on the added entries:" in out


def test_verify_of_an_identical_copy_adds_nothing(game_log, capsys):
    old = kept_copy(game_log)
    code, out, _ = cli(capsys, "verify", old, game_log)
    assert code == 0 and "no entries added" in out


def test_verify_names_a_rewritten_middle_line(game_log, capsys):
    old = kept_copy(game_log)
    lines = lines_of(game_log)
    lines[4] = lines[4].replace(b'"K6"', b'"K7"')
    assert lines[4] != lines_of(old)[4]
    game_log.write_bytes(b"".join(x + b"\n" for x in lines))
    code, _, err = cli(capsys, "verify", old, game_log)
    assert code == Exit.REWRITTEN and "line 5 differs" in err


def test_verify_catches_a_rewrite_with_every_link_recomputed(game_log, capsys):
    """The chain is no signature: an editor can recompute it. The copy you kept
    still catches the rewrite."""
    old = kept_copy(game_log)
    lines = lines_of(game_log)
    lines[2] = lines[2].replace(b'"9-1"', b'"8-1"')
    assert lines[2] != lines_of(old)[2]
    head = None
    for i, line in enumerate(lines):
        if i:
            record = json.loads(line)
            record["prev"] = head
            line = lines[i] = json.dumps(record, separators=(",", ":")).encode()
        head = chain.link_of(line, head)
    game_log.write_bytes(b"".join(x + b"\n" for x in lines))
    assert chain.walk(lines_of(game_log)).intact  # the forged chain holds on its own
    code, _, err = cli(capsys, "verify", old, game_log)
    assert code == Exit.REWRITTEN and "line 3 differs" in err


def test_verify_refuses_a_truncated_log(game_log, capsys):
    old = kept_copy(game_log)
    game_log.write_bytes(b"".join(x + b"\n" for x in lines_of(game_log)[:6]))
    code, _, err = cli(capsys, "verify", old, game_log)
    assert code == Exit.REWRITTEN and "stops after line 6" in err and "7-8 are missing" in err


def test_verify_refuses_reordered_lines(game_log, capsys):
    old = kept_copy(game_log)
    lines = lines_of(game_log)
    lines[2], lines[3] = lines[3], lines[2]
    game_log.write_bytes(b"".join(x + b"\n" for x in lines))
    code, _, err = cli(capsys, "verify", old, game_log)
    # the seqs are out of order too: the log is not even sound
    assert code in (Exit.REWRITTEN, Exit.DAMAGED)
    assert "line 3" in err


def test_verify_refuses_reordered_lines_even_with_renumbered_seqs(game_log, capsys):
    old = kept_copy(game_log)
    lines = lines_of(game_log)
    a, b = json.loads(lines[2]), json.loads(lines[3])
    a["seq"], b["seq"], a["grp"], b["grp"] = 4, 3, 4, 3
    lines[2], lines[3] = (json.dumps(r, separators=(",", ":")).encode() for r in (b, a))
    game_log.write_bytes(b"".join(x + b"\n" for x in lines))
    code, _, err = cli(capsys, "verify", old, game_log)
    assert code == Exit.REWRITTEN and "line 3 differs" in err


def test_verify_refuses_a_log_from_another_game(game_log, tmp_path, capsys):
    other = tmp_path / "other.jsonl"
    assert (
        cli(
            capsys,
            *("new", other, "--scenario", "Chain, the return match"),
            *("--side", "Russian:Russian", "--side", "German:German"),
        )[0]
        == 0
    )
    assert cli(capsys, "do", other, "add Russian 4-4-7 at K5")[0] == 0
    for old, new in ((game_log, other), (other, game_log)):
        code, _, err = cli(capsys, "verify", old, new)
        assert code == Exit.REWRITTEN and "line 1 (the game header) differs" in err


def test_verify_refuses_added_lines_that_break_the_chain(game_log, capsys):
    old = kept_copy(game_log)
    assert cli(capsys, "undo", game_log)[0] == 0
    assert cli(capsys, "redo", game_log)[0] == 0
    lines = lines_of(game_log)
    record = json.loads(lines[8])
    record["at"] = "2000-01-01T00:00:00+00:00"  # an added line edited afterwards
    lines[8] = json.dumps(record, separators=(",", ":")).encode()
    game_log.write_bytes(b"".join(x + b"\n" for x in lines))
    code, _, err = cli(capsys, "verify", old, game_log)
    assert code == Exit.REWRITTEN and "chain breaks at line 10 (added)" in err


def test_verify_of_a_damaged_log_names_the_file_and_line(game_log, capsys):
    old = kept_copy(game_log)
    with open(game_log, "ab") as f:
        f.write(b"not json\n{}\n")
    code, _, err = cli(capsys, "verify", old, game_log)
    assert code == Exit.DAMAGED and "line 9" in err


# --------------------------------------------------------- with the snapshot cache
def test_a_game_opened_from_a_snapshot_chains_on(tmp_path, monkeypatch):
    from bench.generate import Driver, generate, write_log

    monkeypatch.setattr(snap_sizes, "MIN_EVENTS", 200)
    monkeypatch.setattr(snap_sizes, "TAIL", 30)
    path = tmp_path / "big.jsonl"
    write_log(generate(400, seed=4), path)
    assert chain.walk(lines_of(path)).intact and chain.walk(lines_of(path)).unchained == 0
    Game.open(path, read_only=True).close()  # writes the snapshot
    assert list((tmp_path / "cache").glob("*.snap"))
    game = Game.open(path)
    assert game.projection.snap_position > 0  # opened from the snapshot
    driver = Driver(game, seed=6)
    for _ in range(10):
        driver.step()
    game.undo()
    game.close()
    report = chain.walk(lines_of(path))
    assert report.intact and report.walked > 400


def test_check_json_reports_the_chain(game_log, capsys):
    code, out, _ = cli(capsys, "check", game_log, "--json")
    assert code == 0 and json.loads(out)["chain"]["intact"] is True
    lines = lines_of(game_log)
    lines[2] = lines[2].replace(b'"at":"', b'"at":"1')
    game_log.write_bytes(b"".join(x + b"\n" for x in lines))
    code, out, _ = cli(capsys, "check", game_log, "--json")
    data = json.loads(out)
    assert code == Exit.DAMAGED and data["ok"] is False
    assert data["problem"]["line"] == 4 and data["chain"]["intact"] is False
