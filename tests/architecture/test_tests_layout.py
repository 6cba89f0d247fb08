"""The tests' own house: rooms that mirror the code's, kits that are plain modules, and a
test that cannot import fails rather than skips."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.architecture.sources import tree, walk

# The tests that read the sources as syntax trees run on one worker (pyproject.toml:
# --dist loadgroup), so each module is parsed once a run (tests/architecture/sources.py),
# not once by each worker (core/, tui/ and tests/ are some 2 s of CPU to parse).
pytestmark = pytest.mark.xdist_group("architecture_sources")

TESTS = Path(__file__).resolve().parents[1]


def _modules() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if "__snapshots__" not in p.parts)


def _imported(tree: ast.AST) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.lineno, node.module))
            found += [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
    return found


def test_no_module_imports_a_test_module():
    """What tests share lives in a kit (a plain module) or a conftest: a test module
    imported by another would run its tests' imports and fixtures twice, and moving a
    test would break a second file."""
    wrong = []
    for path in _modules():
        for line, name in _imported(tree(path)):
            parts = name.split(".")
            if parts[0] == "tests" and any(p.startswith("test_") for p in parts[1:]):
                wrong.append(f"{path.relative_to(TESTS.parent)}:{line} imports {name}")
    assert not wrong, "\n".join(wrong)


def test_a_missing_import_fails_never_skips():
    """``pytest.importorskip`` (or a skip in ``except ImportError``) turns a broken install
    into a green run; the test extra installs everything the suite imports."""
    wrong = []
    for path in _modules():
        for node in walk(path):
            if isinstance(node, ast.Attribute) and node.attr == "importorskip":
                wrong.append(f"{path.relative_to(TESTS.parent)}:{node.lineno} importorskip")
            if isinstance(node, ast.ExceptHandler) and "ImportError" in ast.unparse(
                node.type or ast.Name("")
            ):
                body = ast.unparse(ast.Module(body=node.body, type_ignores=[]))
                if "skip" in body:
                    wrong.append(f"{path.relative_to(TESTS.parent)}:{node.lineno} skips")
    assert not wrong, "\n".join(wrong)


def test_every_room_is_a_package_and_test_files_live_in_rooms():
    """Rooms are packages (their kits import as ``tests.ROOM.kit``); no test sits at the
    top, outside a room."""
    rooms = [p for p in TESTS.iterdir() if p.is_dir() and any(p.glob("test_*.py"))]
    assert len(rooms) >= 10, rooms
    assert [p.name for p in rooms if not (p / "__init__.py").is_file()] == []
    assert sorted(p.name for p in TESTS.glob("test_*.py")) == []
