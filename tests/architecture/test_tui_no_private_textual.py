"""The app uses Textual through its public names only: a private name (``_x``) of
Textual is neither read nor overridden from tui/, so a Textual release that renames its
insides cannot silently change what the player sees. Counted from the source: every
``self._x`` and ``def _x`` in Textual's package against what tui/ reads and defines."""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import re
from pathlib import Path

import pytest
import textual

from tests.architecture import sources

# The tests that read the sources as syntax trees run on one worker (pyproject.toml:
# --dist loadgroup), so each module is parsed once a run (tests/architecture/sources.py),
# not once by each worker (core/, tui/ and tests/ are some 2 s of CPU to parse).
pytestmark = pytest.mark.xdist_group("architecture_sources")

TUI = Path(__file__).resolve().parents[2] / "tui"
PRIVATE = re.compile(r"\bself\.(_[a-z][a-z0-9_]*)\b|^\s*(?:async\s+)?def\s+(_[a-z][a-z0-9_]*)\(")


def private_names(source: str) -> set[str]:
    return {a or b for line in source.splitlines() for a, b in PRIVATE.findall(line)}


@functools.cache
def private_names_of_class(cls: type) -> frozenset[str]:
    """The private names in one Textual class's own source. Many of our classes share
    bases (Widget, DOMNode, MessagePump): each base's source is read and scanned once,
    not once per subclass (``inspect.getsource`` re-parses the whole module each call)."""
    return frozenset(private_names(inspect.getsource(cls)))


@functools.cache
def textual_private() -> frozenset[str]:
    """Every private name in Textual's package (scanned once a test process: two tests
    ask, and Textual's source does not change during a run)."""
    names: set[str] = set()
    for path in Path(textual.__file__).parent.rglob("*.py"):
        names |= private_names(path.read_text(encoding="utf-8", errors="replace"))
    return frozenset(names)


def ours() -> list[tuple[Path, ast.Module]]:
    return [(p, sources.tree(p)) for p in sorted(TUI.rglob("*.py"))]


def defined_by_us(modules: list[tuple[Path, ast.Module]]) -> set[str]:
    names: set[str] = set()
    for _, tree in modules:
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
    return names


def test_no_private_textual_name_is_read():
    modules = ours()
    theirs, mine = textual_private(), defined_by_us(modules)
    read = [
        f"{path.relative_to(TUI.parent)}:{node.lineno}: .{node.attr}"
        for path, tree in modules
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
        and node.attr in theirs
        and node.attr not in mine
    ]
    assert not read, "\n".join(read)


def test_no_private_textual_name_is_overridden():
    clashes = []
    for path, tree in ours():
        module = importlib.import_module(
            "stockade." + ".".join(path.relative_to(TUI.parent).with_suffix("").parts)
        )
        for node in ast.walk(tree):
            cls = getattr(module, node.name, None) if isinstance(node, ast.ClassDef) else None
            if not isinstance(cls, type):
                continue
            bases = [b for b in cls.__mro__[1:] if b.__module__.split(".")[0] == "textual"]
            theirs = set().union(*(private_names_of_class(b) for b in bases))
            mine = {
                n.name
                for n in ast.walk(node)
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                and n.name.startswith("_")
                and not n.name.startswith("__")
            }
            clashes += [f"{module.__name__}.{node.name}.{name}" for name in mine & theirs]
    assert not clashes, clashes


def test_the_checks_see_a_private_name():
    from textual.widgets import Checkbox

    assert "_suggestion" in textual_private()  # Input's, once read by the command bar
    toggle = next(b for b in Checkbox.__mro__ if b.__name__ == "ToggleButton")
    assert "_button" in private_names(inspect.getsource(toggle))  # once overridden
