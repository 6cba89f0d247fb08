"""``stockade rules [SECTION]`` and ``help SECTION``: A20's requirements with Stockade's
status for each (core/data/conformance.toml)."""

from __future__ import annotations

from stockade.core.cli import main
from stockade.core.commands import plan
from stockade.core.model.state import GameState
from stockade.core.reads.conformance import requirements


def test_stockade_rules_section_lists_its_requirements_with_their_status(capsys):
    assert main(["rules", "A20.55"]) == 0
    out = capsys.readouterr().out
    escape = [r for r in requirements() if r.rule == "A20.55"]
    assert len(escape) >= 10
    for r in escape:
        assert f"{r.number}. “{r.words} …” [{r.status}]" in out
    assert "A20.55 EX" in out


def test_stockade_rules_without_a_section_lists_every_section(capsys):
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for rule in ("A20.1 ", "A20.21 ", "A20.221 ", "A20.552 "):
        assert rule in out


def test_stockade_rules_unknown_section_is_a_usage_error(capsys):
    assert main(["rules", "A20.9"]) == 2
    assert "no A20 section 'A20.9'" in capsys.readouterr().err


def test_help_section_in_the_command_language():
    parsed = plan("help 20.21", GameState())
    assert parsed.control == "help" and parsed.text.startswith("A20.21 RtPh")
    assert "A stack of broken units in a Location surrenders simultaneously" in parsed.text


def test_stockade_rules_json(capsys):
    import json

    assert main(["rules", "A20.221", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["command"] == "rules" and data["ok"] is True
    assert {r["rule"] for r in data["requirements"]} == {"A20.221"}
    assert data["requirements"][0]["status"] == "enforced" and data["requirements"][0]["tests"]
