"""A refusal's kind is its type: the rules' refusals name a rule, the others say what
kind of trouble it is by their class, and nothing raises the bare base class."""

from __future__ import annotations

import ast
import copy
import pickle
from pathlib import Path

import pytest

from stockade.core.model.errors import (
    HistoryRefusal,
    InputRefusal,
    InternalRefusal,
    LogRefusal,
    Refusal,
    RuleRefusal,
    require,
    require_input,
)
from tests.architecture.sources import walk

# The tests that read the sources as syntax trees run on one worker (pyproject.toml:
# --dist loadgroup), so each module is parsed once a run (tests/architecture/sources.py),
# not once by each worker (core/, tui/ and tests/ are some 2 s of CPU to parse).
pytestmark = pytest.mark.xdist_group("architecture_sources")

ROOT = Path(__file__).resolve().parents[2]

KINDS = [
    (RuleRefusal("A20.5", "no Guard", "transfer first"), "A20.5: no Guard (transfer first)"),
    (InputRefusal("no unit g9"), "no unit g9"),
    (HistoryRefusal("undo", "nothing to undo"), "undo: nothing to undo"),
    (LogRefusal("the file is read-only"), "log: the file is read-only"),
    (InternalRefusal("a bug"), "internal: a bug"),
]


@pytest.mark.parametrize(("refusal", "shown"), KINDS)
def test_each_kind_reads_as_the_player_sees_it_and_survives_a_copy(refusal, shown):
    assert isinstance(refusal, Refusal) and str(refusal) == shown
    for again in (copy.copy(refusal), pickle.loads(pickle.dumps(refusal))):
        assert type(again) is type(refusal) and str(again) == shown
    kind, arguments = refusal.row()
    rebuilt = Refusal.from_row(kind, arguments)
    assert type(rebuilt) is type(refusal) and str(rebuilt) == shown


def test_only_rule_refusals_carry_a_rule():
    assert [r.rule for r, _ in KINDS] == ["A20.5", "", "", "", ""]
    with pytest.raises(RuleRefusal):
        require(False, "A20.3", "No Quarter")
    with pytest.raises(InputRefusal):
        require_input(False, "not a number")


def test_a_hint_keeps_the_kind():
    hinted = InputRefusal("no unit g9").with_hint("the roster lists them")
    assert type(hinted) is InputRefusal and str(hinted) == "no unit g9 (the roster lists them)"


def test_a_row_that_is_not_a_refusal_is_refused():
    with pytest.raises(KeyError):
        Refusal.from_row("Exception", ["x"])


def test_no_code_raises_the_bare_base_class_or_passes_a_kind_as_a_string():
    """``Refusal(...)`` itself, or a tag like "input" where a rule goes, would bring back
    the string tags the TUI used to branch on."""
    found = []
    for folder in ("core", "tui", "themes"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in walk(path):
                if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                    continue
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                if node.func.id == "Refusal":
                    found.append(f"{where}: Refusal(...)")
                at = {"RuleRefusal": 0, "refuse": 0, "require": 1}.get(node.func.id)
                if at is not None and len(node.args) > at:
                    tag = node.args[at]
                    if isinstance(tag, ast.Constant) and not str(tag.value).startswith(
                        ("A", "B", "C", "D", "E")
                    ):
                        found.append(f"{where}: {node.func.id}({tag.value!r}, ...)")
    assert found == []


def test_no_code_tells_a_refusal_s_kind_by_comparing_its_rule_with_a_tag():
    tags = {"input", "log", "undo", "redo", "strike", "unstrike", "internal"}
    found = []
    for folder in ("core", "tui", "themes"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in walk(path):
                if not isinstance(node, ast.Compare):
                    continue
                sides = [node.left, *node.comparators]
                reads_rule = any(isinstance(s, ast.Attribute) and s.attr == "rule" for s in sides)
                tagged = any(isinstance(s, ast.Constant) and s.value in tags for s in sides)
                if reads_rule and tagged:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []
