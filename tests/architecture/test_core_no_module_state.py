"""core/ passes nothing between modules through module-level mutable state (issue 10).

An AST scan of every core module: no ``global`` statement; no module-level list, dict or
set (or a call making one) unless it is a constant table (an UPPER_CASE name, or
``__all__``) that nothing in core/ ever changes; no assignment to an attribute of an
imported module (``other_module.flag = ...``, the old recorder hand-off). State that a
change needs to reach lives on objects (``core.model.tracked_unit.ChangeTracker``); memos use
``functools.cache``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.architecture.sources import parsed

# The tests that read the sources as syntax trees run on one worker (pyproject.toml:
# --dist loadgroup), so each module is parsed once a run (tests/architecture/sources.py),
# not once by each worker (core/, tui/ and tests/ are some 2 s of CPU to parse).
pytestmark = pytest.mark.xdist_group("architecture_sources")

CORE = Path(__file__).resolve().parents[2] / "core"

_MUTABLE_NODES = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)
_MUTABLE_CALLS = {
    "list",
    "dict",
    "set",
    "bytearray",
    "defaultdict",
    "OrderedDict",
    "deque",
    "Counter",
    "WeakSet",
    "WeakValueDictionary",
    "WeakKeyDictionary",
    "local",
    "ContextVar",
}
_MUTATORS = {
    "append",
    "extend",
    "insert",
    "update",
    "add",
    "setdefault",
    "pop",
    "popitem",
    "clear",
    "remove",
    "discard",
    "set",  # ContextVar
}
_CONSTANT_NAME = re.compile(r"^_?[A-Z][A-Z0-9_]*$|^__all__$")

# Module-level containers that are changed, each with the reason it is not state passed
# between modules. Keep it short: each entry must be a private memo of one module.
ALLOWED = {
    # outcome per die face per rule, filled on first use and read only by
    # camp/table.py's outcome_for (keyed by id(rule), the rule kept alive in the value)
    ("camp/table.py", "_FACE_CACHE"): "a memo private to one module",
}


def _is_mutable(value: ast.expr | None) -> bool:
    if isinstance(value, _MUTABLE_NODES):
        return True
    if isinstance(value, ast.Call):
        func = value.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return name in _MUTABLE_CALLS
    return False


def _target_name(node: ast.expr) -> str | None:
    return node.id if isinstance(node, ast.Name) else None


def _mutated_base(node: ast.AST) -> str | None:
    """The name a statement/expression changes in place, if it is ``NAME[...] = ``,
    ``del NAME[...]``, ``NAME += ...`` or ``NAME.mutator(...)`` (also ``mod.NAME...``)."""

    def base(expr: ast.expr) -> str | None:
        if isinstance(expr, ast.Subscript):
            expr = expr.value
        if isinstance(expr, ast.Name):
            return expr.id
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
            return expr.attr  # module.NAME
        return None

    if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Delete):
        targets = node.targets if isinstance(node, ast.Assign | ast.Delete) else [node.target]
        for t in targets:
            if isinstance(t, ast.Subscript) or isinstance(node, ast.AugAssign):
                name = base(t)
                if name:
                    return name
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _MUTATORS
    ):
        return base(node.func.value)
    return None


def scan(sources: dict[str, str]) -> list[str]:
    """Every finding in ``sources`` (relative path -> module text)."""
    findings: list[str] = []
    trees = {path: parsed(text) for path, text in sources.items()}
    tables: dict[str, list[str]] = {}  # constant-table name -> modules defining it
    for path, tree in trees.items():
        modules: set[str] = set()  # names bound to imported modules
        for node in tree.body:
            if isinstance(node, ast.Import):
                modules.update((a.asname or a.name).split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    folder = node.module.replace("stockade.core", "").strip(".").replace(".", "/")
                    stem = CORE / folder / alias.name
                    if stem.with_suffix(".py").exists() or (stem / "__init__.py").exists():
                        modules.add(alias.asname or alias.name)
            if isinstance(node, ast.Assign | ast.AnnAssign) and _is_mutable(node.value):
                bound = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in bound:
                    name = _target_name(t)
                    if name is None:
                        continue
                    if _CONSTANT_NAME.match(name):
                        tables.setdefault(name, []).append(path)
                    elif (path, name) not in ALLOWED:
                        findings.append(f"{path}:{node.lineno}: module-level mutable {name}")
        for sub in ast.walk(tree):
            line = getattr(sub, "lineno", 0)
            if isinstance(sub, ast.Global):
                findings.append(f"{path}:{line}: global {', '.join(sub.names)}")
            targets: list[ast.expr] = []
            if isinstance(sub, ast.Assign):
                targets = sub.targets
            elif isinstance(sub, ast.AugAssign | ast.AnnAssign):
                targets = [sub.target]
            for t in targets:
                if (
                    isinstance(t, ast.Attribute)
                    and isinstance(t.value, ast.Name)
                    and t.value.id in modules
                ):
                    findings.append(f"{path}:{line}: sets {t.value.id}.{t.attr} on another module")
    for path, tree in trees.items():
        for sub in ast.walk(tree):
            name = _mutated_base(sub)
            if name is None or name not in tables:
                continue
            if any((owner, name) in ALLOWED for owner in tables[name]):
                continue
            line = getattr(sub, "lineno", 0)
            findings.append(f"{path}:{line}: changes the module-level table {name}")
    return findings


def _core_sources() -> dict[str, str]:
    return {
        p.relative_to(CORE).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(CORE.rglob("*.py"))
    }


def test_core_has_no_module_level_mutable_state():
    assert scan(_core_sources()) == []


def test_every_allowed_exception_still_exists():
    sources = _core_sources()
    for path, name in ALLOWED:
        assert re.search(rf"^{name}\b", sources[path], re.M), (path, name)


def test_the_scan_finds_each_kind_of_hidden_protocol():
    """The old core/model/state.py <-> core/book/projection.py hand-off, and its relatives."""
    sources = {
        "state.py": "_rec = None\n_dirty: list = []\n_epoch = [0]\nTABLE = {'a': 1}\n",
        "projection.py": (
            "from stockade.core.model import state as _st\n"
            "def fold(ops):\n"
            "    _st._rec = ops\n"
            "    _st.TABLE['b'] = 2\n"
        ),
        "other.py": "def bump():\n    global _n\n    _n += 1\n",
    }
    found = "\n".join(scan(sources))
    assert "module-level mutable _dirty" in found
    assert "module-level mutable _epoch" in found
    assert "sets _st._rec on another module" in found
    assert "changes the module-level table TABLE" in found
    assert "global _n" in found
    assert "TABLE" not in "\n".join(scan({"t.py": "TABLE = {'a': 1}\nx = TABLE['a']\n"}))
