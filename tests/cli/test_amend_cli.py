"""``stockade amend FILE N 'COMMAND'``: the dry run lists what would change and writes
nothing; the amendment is one appended line; ``history`` shows the entry as amended;
``check`` and ``verify`` accept the log; ``undo`` takes it back."""

from __future__ import annotations

import json

from tests.book.kit import AMEND_SCRIPT
from tests.cli.support import cli


def game_file(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    code, _, err = cli(
        capsys,
        "new",
        path,
        "--scenario",
        "T",
        "--side",
        "American:American:4",
        "--side",
        "German:German:3",
    )
    assert code == 0, err
    script = tmp_path / "s.txt"
    script.write_text("\n".join(AMEND_SCRIPT) + "\n")
    assert cli(capsys, "run", path, script, "-q")[0] == 0
    return path


def test_the_dry_run_lists_what_changes_and_writes_nothing(tmp_path, capsys):
    path = game_file(tmp_path, capsys)
    before = path.read_bytes()
    code, out, _ = cli(capsys, "amend", path, 10, "transfer g1 to a3", "--dry-run")
    assert code == 0 and path.read_bytes() == before
    lines = out.splitlines()
    assert lines[0] == (
        "amend entry 10 (German 4-6-7 (g1) transferred to American 6-6-7 (a2) [A20.5]) to: "
        "transfer g1 to a3 would (nothing written):"
    )
    assert lines[1].startswith("  entry 15 (")
    assert (
        "would change: holds in part: a2 eliminated; the takeover by a1 is dropped: "
        "a2 guards none now" in lines[1]
    )


def test_amend_appends_one_line_and_history_check_verify_accept_it(tmp_path, capsys):
    path = game_file(tmp_path, capsys)
    old = tmp_path / "old.jsonl"
    old.write_bytes(path.read_bytes())
    n = len(path.read_bytes().splitlines())
    code, out, _ = cli(capsys, "amend", path, 10, "transfer g1 to a3")
    assert code == 0
    assert out.startswith("amended entry 10: German 4-6-7 (g1) transferred to American 6-6-7 (a3)")
    lines = path.read_bytes().splitlines()
    assert len(lines) == n + 1 and json.loads(lines[-1])["kind"] == "amend"
    assert lines[:n] == old.read_bytes().splitlines()  # nothing before it rewritten
    code, out, _ = cli(capsys, "history", path)
    history = {int(line.split()[0]): line for line in out.splitlines()}
    assert history[10].split()[1] == "~" and "(a3)" in history[10]
    assert history[10].endswith(f"<amended by entry {n + 1}>")
    assert "<holds in part: a2 eliminated; the takeover by a1 is dropped" in history[15]
    assert cli(capsys, "check", path)[0] == 0
    code, out, _ = cli(capsys, "verify", old, path)
    assert code == 0 and "amended entry 10" in out
    code, out, _ = cli(capsys, "undo", path)
    assert code == 0 and out.startswith(f"undone: entry {n + 1} (the amendment of entry 10)")
    code, out, _ = cli(capsys, "history", path, "--json")
    entries = json.loads(out)["entries"]
    assert entries[9]["amended_by"] == 0 and entries[9]["record"]["to_guard"] == "a2"
    assert cli(capsys, "check", path)[0] == 0


def test_a_refused_amendment_names_why_and_writes_nothing(tmp_path, capsys):
    path = game_file(tmp_path, capsys)
    before = path.read_bytes()
    code, _, err = cli(capsys, "amend", path, 10, "escort a3")
    assert code != 0 and "guards no prisoners" in err
    code, _, err = cli(capsys, "amend", path, 1, "transfer g1 to a3")
    assert code != 0 and "the game header cannot be amended" in err
    assert path.read_bytes() == before
