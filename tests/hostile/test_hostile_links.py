"""Writes that never follow a planted link (issue 13): atomic writes, repair, exports.

In every test the link's target is a file the attacker wants overwritten; it must
come out byte for byte as it went in."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from stockade.core.cli import main
from stockade.core.log.files import atomic_write, write_new_file
from stockade.tui.app import StockadeApp
from stockade.tui.screens.tally import TallyScreen, export_path
from tests.tui.support import new_game, sync

PRECIOUS = b"the attacker wants this overwritten\n"


@pytest.fixture
def victim(tmp_path) -> Path:
    path = tmp_path / "elsewhere" / "victim.txt"
    path.parent.mkdir()
    path.write_bytes(PRECIOUS)
    return path


def test_atomic_write_replaces_a_link_and_leaves_its_target(tmp_path, victim):
    link = tmp_path / "out.txt"
    link.symlink_to(victim)
    atomic_write(link, b"new\n")
    assert victim.read_bytes() == PRECIOUS
    assert not link.is_symlink() and link.read_bytes() == b"new\n"


def test_atomic_write_uses_no_guessable_temporary_name(tmp_path, victim, monkeypatch):
    # Plant links under every name the old code would have used, and a few more.
    target = tmp_path / "out.txt"
    for name in (f".out.txt.tmp-{os.getpid()}", "out.txt.part", "out.txt.tmp", ".out.txt.tmp"):
        (tmp_path / name).symlink_to(victim)
    atomic_write(target, b"new\n")
    assert victim.read_bytes() == PRECIOUS
    assert target.read_bytes() == b"new\n"
    leftovers = {p.name for p in tmp_path.iterdir()} - {"out.txt", "elsewhere"}
    assert all((tmp_path / n).is_symlink() for n in leftovers)  # only the planted links


def test_atomic_write_without_replace_refuses_a_dangling_link(tmp_path, victim):
    link = tmp_path / "out.txt"
    link.symlink_to(tmp_path / "does-not-exist-yet")
    with pytest.raises(FileExistsError):
        atomic_write(link, b"new\n", replace=False)
    assert not (tmp_path / "does-not-exist-yet").exists()
    assert [p.name for p in tmp_path.iterdir() if not p.is_symlink()] == ["elsewhere"]


def test_a_side_file_never_follows_a_link(tmp_path, victim):
    link = tmp_path / "g.jsonl.torn-x"
    link.symlink_to(victim)
    with pytest.raises(FileExistsError):
        write_new_file(link, b"torn")
    assert victim.read_bytes() == PRECIOUS


def _damaged_log(tmp_path: Path) -> Path:
    game = new_game(tmp_path, "Links", [("American", "American", 4), ("German", "German", 3)])
    game.close()
    assert game.path is not None
    with open(game.path, "ab") as log:
        log.write(b'{"kind":"phase","turn":2}\n{"kind":"end","seq":3,"v":1,"grp":3}\n')
    return game.path


@pytest.mark.parametrize("which", ["out", "dropped"])
@pytest.mark.parametrize("dangling", [False, True])
def test_repair_refuses_a_planted_link(tmp_path, victim, capsys, which, dangling):
    log = _damaged_log(tmp_path)
    out = tmp_path / "fixed.jsonl"
    planted = out if which == "out" else out.with_name(out.name + ".dropped")
    target = tmp_path / "nowhere" if dangling else victim
    planted.symlink_to(target)
    assert main(["repair", str(log), "-o", str(out)]) not in (0, 2)
    assert "already exists" in capsys.readouterr().err
    assert victim.read_bytes() == PRECIOUS and not (tmp_path / "nowhere").exists()


def test_repair_with_force_replaces_the_link_not_its_target(tmp_path, victim, capsys):
    log = _damaged_log(tmp_path)
    out = tmp_path / "fixed.jsonl"
    out.symlink_to(victim)
    out.with_name(out.name + ".dropped").symlink_to(victim)
    assert main(["repair", str(log), "-o", str(out), "--force"]) == 0
    assert victim.read_bytes() == PRECIOUS
    assert not out.is_symlink() and out.read_bytes().startswith(b'{"kind":"game"')


def test_repair_never_writes_over_the_log_through_a_link(tmp_path, capsys):
    log = _damaged_log(tmp_path)
    before = log.read_bytes()
    out = tmp_path / "fixed.jsonl"
    out.symlink_to(log)
    assert main(["repair", str(log), "-o", str(out), "--force"]) not in (0, 2)
    assert log.read_bytes() == before


@sync
async def test_the_tui_export_never_writes_through_a_planted_link(tmp_path, victim):
    game = new_game(tmp_path, "Links", [("American", "American", 4), ("German", "German", 3)])
    md = export_path(game.path, "Links", "md")
    (tmp_path / f"{md.name}.part").symlink_to(victim)  # the old fixed temporary name
    html = export_path(game.path, "Links", "html")
    html.symlink_to(victim)  # the export's own name
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("v")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TallyScreen)
        await pilot.press("m")
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("w")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert md.read_text(encoding="utf-8").startswith("# CVP tally")
        assert "html" not in screen.exported  # refused: a link sits at its name
        assert html.is_symlink()
    assert victim.read_bytes() == PRECIOUS
    game.close()


@sync
async def test_the_tui_export_asks_before_replacing_a_file_it_did_not_write(tmp_path):
    game = new_game(tmp_path, "Ask", [("American", "American", 4), ("German", "German", 3)])
    md = export_path(game.path, "Ask", "md")
    md.write_bytes(PRECIOUS)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("v")
        await pilot.pause()
        await pilot.press("m")  # asks
        await pilot.pause()
        await pilot.press("n")  # no: kept
        await app.workers.wait_for_complete()
        assert md.read_bytes() == PRECIOUS
        await pilot.press("m", "y")  # yes: replaced
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert md.read_text(encoding="utf-8").startswith("# CVP tally")
        await pilot.press("m")  # its own file now: written again without asking
        await pilot.pause()
        await app.workers.wait_for_complete()
        assert isinstance(app.screen, TallyScreen)
    game.close()
