"""The A20 conformance matrix (core/data/conformance.toml) and the rulings
(core/data/rulings.toml) are traced to tests that exist and can fail.

Fails when a requirement has no status, when a named test does not exist, when an
enforced requirement has no test that expects a refusal or an effect citing its rule
id (or one of its ``cites``), when a section of A20 in seed 004 has no requirement, or
when docs/conformance.md is not what the generator makes.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

from stockade.core.reads import conformance
from stockade.core.reads.rulings import rulings

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT.parent / "shared" / "seeds" / "004_8d4c2dcfa38f73b0.txt"


@cache
def _module(path: str) -> tuple[str, ast.Module]:
    source = (ROOT / path).read_text(encoding="utf-8")
    return source, ast.parse(source)


def _test_function(node_id: str) -> tuple[str, ast.FunctionDef] | None:
    """The test function a pytest node id names (parameters stripped), or None."""
    path, _, name = node_id.partition("::")
    name = name.split("[", 1)[0]
    if not path.startswith("tests/") or not (ROOT / path).is_file() or not name:
        return None
    source, module = _module(path)
    for node in module.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return source, node
    return None


def cites(source: str, function: ast.FunctionDef, rule: str) -> bool:
    """Does ``function`` expect a refusal or an effect citing ``rule``: the rule id as a
    string in a ``refused(...)`` call, or inside an ``assert`` statement (a rule field,
    a casualty line's rule, a reply that names it)? A20.5 is not A20.55."""
    pattern = re.compile(re.escape(rule) + r"(?![\d])")
    for node in ast.walk(function):
        if isinstance(node, ast.Assert):
            if pattern.search(ast.get_source_segment(source, node) or ""):
                return True
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "refused":
            for arg in node.args:
                if isinstance(arg, ast.Constant) and arg.value == rule:
                    return True
    return False


def test_every_requirement_has_a_status_and_tests_or_a_reason():
    problems = []
    for r in conformance.requirements():
        if r.status not in conformance.STATUSES:
            problems.append(f"{r.ref} ({r.words}): status {r.status!r}")
        elif r.status == "out of scope" and not r.note:
            problems.append(f"{r.ref}: out of scope without a reason")
        elif r.status != "out of scope" and not r.tests:
            problems.append(f"{r.ref}: {r.status} but no test proves it")
    assert not problems, "\n".join(problems)


def test_every_named_test_exists():
    named = [(r.ref, t) for r in conformance.requirements() for t in r.tests]
    named += [(f"ruling {x.topic}", t) for x in rulings() for t in x.tests]
    missing = [f"{ref}: {t}" for ref, t in named if _test_function(t) is None]
    assert not missing, "\n".join(missing)


def test_every_enforced_requirement_has_a_test_citing_its_rule():
    uncited = []
    for r in conformance.requirements():
        if r.status != "enforced":
            continue
        rule = r.rule.removesuffix(" EX")
        ids = (rule, *r.cites)
        found = [_test_function(t) for t in r.tests]
        if not any(f and cites(f[0], f[1], i) for f in found for i in ids):
            uncited.append(f"{r.ref} ({r.words}): no test cites {' or '.join(ids)}")
    assert not uncited, "\n".join(uncited)


def test_every_ruling_a_requirement_points_at_exists():
    topics = {x.topic for x in rulings()}
    pointed = [r for r in conformance.requirements() if r.ruling]
    assert pointed
    wrong = [f"{r.ref}: {r.ruling}" for r in pointed if r.ruling not in topics]
    assert not wrong, "\n".join(wrong)


def test_every_ruling_has_a_source_and_tests():
    for ruling in rulings():
        assert ruling.source, f"ruling {ruling.topic} has no source"
        assert ruling.tests, f"ruling {ruling.topic} names no test"


def test_the_citation_check_can_fail():
    source = 'def test_x(game):\n    refused(game, e, "A20.55")\n    assert u.rule == "A20.51"\n'
    function = ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef)
    assert cites(source, function, "A20.55") and cites(source, function, "A20.51")
    assert not cites(source, function, "A20.5")  # A20.5 is not A20.55 nor A20.51
    assert _test_function("tests/rules/test_conformance.py::test_no_such_test") is None


def test_every_section_of_a20_is_in_the_matrix():
    ruled = {r.rule for r in conformance.requirements()}
    for section in conformance.sections():
        assert section.rule in ruled, f"{section.rule} has no requirement"
    expected = {"A20.1", "A20.2", "A20.21", "A20.22", "A20.221", "A20.23", "A20.24"}
    expected |= {"A20.3", "A20.4", "A20.5", "A20.51", "A20.52", "A20.53", "A20.54"}
    expected |= {"A20.55", "A20.551", "A20.552", "A20.22 EX", "A20.55 EX"}
    assert {s.rule for s in conformance.sections()} == expected


@pytest.mark.skipif(not SEED.is_file(), reason="the seed documents are not next to this clone")
def test_the_matrix_follows_the_seed_text_in_order():
    """Each requirement's first words are in seed 004's text of its section, in order,
    and every section heading of 004 (20.1 ... 20.552) has requirements."""
    text = re.sub(r"\s+", " ", SEED.read_text(encoding="utf-8"))
    heads = list(re.finditer(r"(?<![\d.])(20\.\d+) [A-Z]", text))
    in_seed = {"A" + m.group(1) for m in heads}
    assert in_seed <= {r.rule for r in conformance.requirements()}
    cursor = 0
    for r in conformance.requirements():
        words = re.sub(r"\s+", " ", r.words)
        at = text.find(words, cursor)
        assert at >= 0, f"{r.ref}: '{words}' not found after the previous requirement"
        cursor = at


def test_docs_conformance_md_is_up_to_date():
    committed = conformance.DOC.read_text(encoding="utf-8")
    assert committed == conformance.markdown(), (
        "docs/conformance.md is stale: python -m stockade.core.reads.conformance --write"
    )


def test_section_text_lists_each_requirement_with_its_status():
    text = conformance.section_text("a20.55")
    assert text is not None
    assert text.startswith("A20.55 ESCAPE")
    assert "Escape is successful only if there are no enemy units" in text
    assert "[enforced]" in text and "A20.55 EX" in text and "see also: A20.551" in text
    # each sentence is quoted by its first words, and the text says the rest is the book's
    assert "“Escape is successful only if there are no enemy units" in text
    assert "the rulebook has the whole text" in text
    assert conformance.section_text("A20.9") is None
