"""The verdict through the headless CLI (issue 22): each card shape entered with
``stockade new --vc`` and ``do``, judged by ``tally --json``; the immediate win
announced by ``do``; a bad ``--vc`` that makes no file; ``watch`` naming a turn of the
verdict. The shapes and their hand-judged verdicts are tests/book/test_verdict.py's."""

from __future__ import annotations

import json

import pytest

from stockade.core.cli import main
from tests.book.kit import SETUP, SHAPES


@pytest.mark.parametrize("shape", SHAPES, ids=[s.name for s in SHAPES])
def test_each_card_shape_is_judged_through_the_cli(shape, tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    code = main(
        ["new", str(path), "--scenario", "Shapes", "--side", "German:German"]
        + ["--side", "Russian:Russian", "--vc", shape.vc, "--vc-card", "the card's words"]
    )
    assert code == 0
    for line in SETUP + shape.lines:
        assert main(["do", str(path), line]) == 0, line
    capsys.readouterr()
    assert main(["tally", str(path), "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)["verdict"]
    assert (verdict["result"], verdict["because"], verdict["immediate"]) == (
        shape.result,
        shape.because,
        shape.immediate,
    )
    assert verdict["card"] == "the card's words"


def test_the_cli_announces_an_immediate_win_and_the_end_it_offers(tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    cap = "Russian loses immediately if suffered >= 4"
    new = ["new", str(path), "--scenario", "T", "--side", "German:German"]
    assert main([*new, "--side", "Russian:Russian"]) == 0
    assert main(["do", str(path), f"vc {cap}"]) == 0
    for line in [*SETUP, "eliminate r1 by enemy"]:
        main(["do", str(path), line])
    capsys.readouterr()
    assert main(["do", str(path), "eliminate r2 by enemy"]) == 0
    out = capsys.readouterr().out
    assert "verdict: Russian win -> German win (immediately): German win now" in out
    assert "an immediate win ends the game ('end')" in out
    assert main(["do", str(path), "end"]) == 0
    assert "verdict: German win (immediately) -> German win: game over" in capsys.readouterr().out


@pytest.mark.parametrize(
    "extra,words",
    [
        (["--vc", "Italian wins if amassed >= 2"], "no side 'Italian'"),
        (["--vc-card", "The Germans win"], "give --vc too"),
    ],
)
def test_new_with_bad_victory_conditions_makes_no_file(tmp_path, capsys, extra, words):
    path = tmp_path / "g.jsonl"
    new = ["new", str(path), "--scenario", "T", "--side", "German:German"]
    assert main([*new, "--side", "Russian:Russian", *extra]) != 0
    assert words in capsys.readouterr().err
    assert not path.exists()


def test_watch_says_when_the_verdict_turns(tmp_path):
    import subprocess
    import sys
    import time
    from pathlib import Path

    from stockade.sample_games import catalog

    full = catalog.log_path("scenario_vc_bridgehead").read_bytes().splitlines(keepends=True)
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"".join(full[:16]))  # before a4, the last to exit, and the end
    root = Path(__file__).resolve().parents[2]
    code = "import sys; from stockade.core.cli import main; sys.exit(main(sys.argv[1:]))"
    command = [sys.executable, "-c", code, "watch", str(path), "--last", "0"]
    watch = subprocess.Popen(
        [*command, "--until", str(len(full)), "--interval", "0.1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=root,
    )
    assert watch.stdout is not None
    assert watch.stdout.readline().startswith(f"watching {path}: 16 entries")
    with open(path, "ab") as f:
        f.write(full[16])  # a4 exits: Exit VP 6 >= 6
    time.sleep(1)
    with open(path, "ab") as f:
        f.write(b"".join(full[17:]))  # the end
    out, err = watch.communicate(timeout=60)
    assert watch.returncode == 0, err
    said = [line.strip() for line in out.splitlines() if "verdict:" in line]
    assert said == [
        "verdict: if the game ended now: American win (American Exit VP off east 6 >= 6)",
        "verdict: game over: American win (American Exit VP off east 6 >= 6)",
    ]


def test_strike_dry_run_names_the_change_of_verdict(tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    new = ["new", str(path), "--scenario", "T", "--side", "German:German"]
    assert main([*new, "--side", "Russian:Russian", "--vc", SHAPES[0].vc]) == 0
    for line in SETUP + SHAPES[0].lines:  # a German win on 6 CVP, the surrender last
        assert main(["do", str(path), line]) == 0
    capsys.readouterr()
    assert main(["tally", str(path), "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert records["verdict"]["result"] == "German win"
    lines = path.read_text(encoding="utf-8").splitlines()
    surrender = next(json.loads(x)["seq"] for x in lines if json.loads(x)["kind"] == "surrender")
    assert main(["strike", str(path), str(surrender), "--dry-run"]) == 0
    assert "would turn the verdict from German win to Russian win" in capsys.readouterr().out
