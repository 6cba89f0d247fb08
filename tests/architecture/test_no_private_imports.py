"""No module of core/ or tui/ reaches another module's private name (``_x``): what one
module needs from another is public there, so a private helper can be renamed or changed
by reading its own file alone. Counted from the source: every ``from M import _x`` and
every ``m._x`` read through a module imported as ``m``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.architecture import sources

# The tests that read the sources as syntax trees run on one worker (pyproject.toml:
# --dist loadgroup), so each module is parsed once a run (tests/architecture/sources.py),
# not once by each worker (core/, tui/ and tests/ are some 2 s of CPU to parse).
pytestmark = pytest.mark.xdist_group("architecture_sources")

ROOT = Path(__file__).resolve().parents[2]
ROOMS = ("core", "tui")


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _ours(module: str | None, level: int) -> bool:
    """A module of this project: a relative import, or one under ``stockade``."""
    return level > 0 or (module or "").split(".")[0] == "stockade"


def private_reaches(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, what) for each private name of another module of ours the tree reaches."""
    found: list[tuple[int, str]] = []
    modules: set[str] = set()  # local names bound to a module of ours
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and _ours(node.module, node.level):
            where = "." * node.level + (node.module or "")
            for alias in node.names:
                if _private(alias.name):
                    found.append((node.lineno, f"from {where} import {alias.name}"))
                else:
                    modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if _ours(alias.name, 0):
                    if any(_private(part) for part in alias.name.split(".")):
                        found.append((node.lineno, f"import {alias.name}"))
                    modules.add(alias.asname or alias.name.split(".")[0])
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            dotted = _dotted(node.value)
            if dotted and dotted.split(".")[0] in modules:
                found.append((node.lineno, f"{dotted}.{node.attr}"))
    return found


def _dotted(node: ast.expr) -> str:
    """``a.b.c`` for a chain of names, else ""."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return f"{inner}.{node.attr}" if inner else ""
    return ""


def findings() -> list[str]:
    out: list[str] = []
    for room in ROOMS:
        for path in sorted((ROOT / room).rglob("*.py")):
            tree = sources.tree(path)
            for line, what in private_reaches(tree):
                out.append(f"{path.relative_to(ROOT)}:{line}: {what}")
    return out


def test_no_module_imports_another_modules_private_name():
    assert findings() == []


def test_the_check_sees_each_way_of_reaching_a_private_name():
    # the check itself can fail: each form below is one finding, the public ones none
    source = "\n".join(
        [
            "from stockade.core.rules.lookup import _hidden, unit",
            "from .escape import _helper",
            "from stockade.core.rules import escape as esc",
            "import stockade.core.rules.guards",
            "import collections",
            "esc._private_thing",
            "stockade.core.rules.guards._x",  # read through the package name
            "esc.public_thing",
            "collections._count_elements",  # not ours: stdlib internals are out of scope
            "from typing import _Final",
        ]
    )
    reached = [what for _, what in private_reaches(ast.parse(source))]
    assert sorted(reached) == sorted(
        [
            "from stockade.core.rules.lookup import _hidden",
            "from .escape import _helper",
            "esc._private_thing",
            "stockade.core.rules.guards._x",
        ]
    )
