"""``stockade show FILE [--at N] [--json]``: the board as text, every unit and each
side's flags, documented in docs/commands.md's JSON table."""

from __future__ import annotations

import json
import re
from pathlib import Path

from stockade.core.cli import main

ROOT = Path(__file__).resolve().parents[2]
UNIT_KEYS = {
    "handle",
    "side",
    "counter",
    "kind",
    "location",
    "status",
    "guard",
    "melee",
    "armed",
    "traits",
}
SIDE_KEYS = {"name", "nationality", "elr", "no_quarter", "massacre"}


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _game(tmp_path: Path, capsys) -> Path:
    """American 6-6-7 a1 in Q4 guards the German 4-6-7 g1 (a RtPh surrender); the
    Americans then invoke No Quarter by rejecting the surrender of the HS g2."""
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
        "German:German",
    )
    assert code == 0, err
    script = tmp_path / "s.txt"
    script.write_text(
        "add American 6-6-7 at Q4\nadd German 4-6-7 at Q4 broken\n"
        "add German 2-4-7 hs at R4 broken\nphase RtPh\nsurrender g1 to a1\nreject g2 by American\n",
        encoding="utf-8",
    )
    code, _, err = cli(capsys, "run", path, script, "-q")
    assert code == 0, err
    return path


def test_show_json_lists_every_unit_and_each_sides_flags(tmp_path, capsys):
    path = _game(tmp_path, capsys)
    code, out, _ = cli(capsys, "show", path, "--json")
    data = json.loads(out)
    assert code == 0 and data["command"] == "show" and data["ok"] and data["at"] is None
    units = {u["handle"]: u for u in data["units"]}
    assert set(units) == {"a1", "g1", "g2"}
    assert all(set(u) >= UNIT_KEYS for u in units.values())
    g1 = units["g1"]
    assert (g1["side"], g1["status"], g1["guard"], g1["armed"], g1["location"]) == (
        "German",
        "prisoner",
        "a1",
        False,
        "Q4",
    )
    assert g1["counter"].startswith("(1)-0-6") and g1["kind"] == "squad"
    assert units["g2"]["status"] == "eliminated"
    assert units["a1"]["armed"] and units["a1"]["guard"] is None and not units["a1"]["melee"]
    sides = {s["name"]: s for s in data["sides"]}
    assert all(set(s) >= SIDE_KEYS for s in sides.values())
    assert sides["American"]["no_quarter"] and not sides["German"]["no_quarter"]
    assert sides["American"]["elr"] == 4 and not sides["American"]["massacre"]
    code, out, _ = cli(capsys, "show", path, "--json", "--at", "3")  # header, phase?, a1
    early = json.loads(out)
    assert code == 0 and early["at"] == 3 and len(early["units"]) < 3
    assert not any(s["no_quarter"] for s in early["sides"])


def test_show_text_and_a_bad_at(tmp_path, capsys):
    path = _game(tmp_path, capsys)
    code, out, _ = cli(capsys, "show", path)
    assert code == 0
    assert "American (American): ELR 4, No Quarter (A20.3), no Massacre" in out
    assert re.search(r"g1: squad \(1\)-0-6 \[was 4-6-7 squad\] in Q4: prisoner, Guard a1", out)
    code, _, err = cli(capsys, "show", path, "--at", "99")
    assert code == 1 and "--at 99" in err


def test_show_names_each_units_traits(tmp_path, capsys):
    # A Commissar or an SS squad changes what A20 allows (A20.21, A20.4): the board says so.
    path = tmp_path / "game.jsonl"
    sides = ["--side", "Russian:Russian", "--side", "German:German"]
    assert cli(capsys, "new", path, "--scenario", "T", *sides)[0] == 0
    script = tmp_path / "s.txt"
    script.write_text(
        "add Russian 4-4-7 9-1 +commissar at K5\nadd German 4-6-8 +ss 4-6-7 at K6\n",
        encoding="utf-8",
    )
    code, _, err = cli(capsys, "run", path, script, "-q")
    assert code == 0, err
    code, out, _ = cli(capsys, "show", path)
    assert code == 0
    assert re.search(r"r2: leader 9-1 \+commissar in K5: active", out), out
    assert re.search(r"g1: squad 4-6-8 \+ss in K6: active", out), out
    assert re.search(r"g2: squad 4-6-7 in K6: active", out), out
    code, out, _ = cli(capsys, "show", path, "--json")
    units = {u["handle"]: u for u in json.loads(out)["units"]}
    assert units["g1"]["traits"] == ["ss"] and units["g2"]["traits"] == []


def test_show_is_in_the_json_table_of_docs_commands():
    doc = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    row = next(line for line in doc.splitlines() if line.startswith("| `show` |"))
    for key in UNIT_KEYS | SIDE_KEYS:
        assert f"`{key}`" in row, key
    assert "stockade show FILE" in doc


def test_show_writes_each_units_line_as_it_makes_its_row(tmp_path, monkeypatch):
    """The text is written a line at a time: when the first unit's line is written,
    one row has been made (all 300 before, and their text joined whole, held at once:
    ~300 bytes a unit on top of the game)."""
    from bench.hostile_shapes import added
    from stockade.core.log.chain import chained
    from stockade.core.model import events as ev
    from stockade.core.reads import board

    path = tmp_path / "added.jsonl"
    lines = chained([ev.encode(r) for r in added(300)])
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    made = 0
    real_row = board._row

    def counted(u):
        nonlocal made
        made += 1
        return real_row(u)

    monkeypatch.setattr(board, "_row", counted)
    seen: list[tuple[str, int]] = []

    class Out:
        def write(self, text: str) -> int:
            seen.append((text, made))
            return len(text)

        def writelines(self, texts) -> None:
            for text in texts:
                self.write(text)

        def flush(self) -> None:
            pass

    monkeypatch.setattr("sys.stdout", Out())
    assert main(["show", str(path)]) == 0
    text = "".join(t for t, _ in seen)
    assert text.count("\n  u") == 300
    first = next(n for t, n in seen if "  u0: " in t)
    assert first == 1, first
