"""The imports between Stockade's modules form no cycle, lazy or not.

import-linter's layers contract (pyproject.toml) keeps the arrows between the core's
rooms pointing down; this walks every import statement of every module (at the top, in
a function, under ``TYPE_CHECKING``) and looks for a cycle anywhere, inside a room
too: a cycle hidden by a lazy import is still a cycle."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.architecture.sources import walk

# The tests that read the sources as syntax trees run on one worker (pyproject.toml:
# --dist loadgroup), so each module is parsed once a run (tests/architecture/sources.py),
# not once by each worker (core/, tui/ and tests/ are some 2 s of CPU to parse).
pytestmark = pytest.mark.xdist_group("architecture_sources")

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("core", "tui", "themes")


def module_files() -> dict[str, Path]:
    found = {}
    for folder in PACKAGES:
        for path in (ROOT / folder).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(("stockade", *parts))] = path
    return found


def imports_of(path: Path, modules: dict[str, Path]) -> set[str]:
    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    out: set[str] = set()
    for node in walk(path):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                target = known(f"{node.module}.{alias.name}") or known(node.module)
                if target:
                    out.add(target)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                target = known(alias.name)
                if target:
                    out.add(target)
    return out


def graph() -> dict[str, set[str]]:
    modules = module_files()
    return {name: imports_of(path, modules) - {name} for name, path in modules.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(edges.get(target, ())))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))

    for name in sorted(edges):
        if name not in index:
            visit(name)
    return found


def test_the_cycle_finder_finds_a_cycle_hidden_by_a_lazy_import():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_lazy_and_type_checking_imports(tmp_path):
    (tmp_path / "m.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from stockade.x.a import A\n"
        "def f():\n    import stockade.x.b\n"
    )
    modules = {"stockade.x.a": tmp_path, "stockade.x.b": tmp_path}
    assert imports_of(tmp_path / "m.py", modules) == {"stockade.x.a", "stockade.x.b"}


def test_no_module_of_stockade_takes_part_in_an_import_cycle():
    assert cycles(graph()) == []


def room_arrows() -> dict[str, set[str]]:
    """Which rooms of the core each room imports from, as the modules really do."""
    arrows: dict[str, set[str]] = {}
    for source, targets in graph().items():
        parts = source.split(".")
        if parts[1] != "core" or len(parts) < 3:
            continue
        for target in targets:
            into = target.split(".")
            if into[1] == "core" and len(into) >= 3 and into[2] != parts[2]:
                arrows.setdefault(parts[2], set()).add(into[2])
    return arrows


def test_the_drawing_of_the_rooms_in_the_design_notes_is_the_real_one():
    text = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    drawn: dict[str, set[str]] = {}
    block = text.split("## The core's rooms", 1)[1].split("```", 2)[1]
    for line in block.strip().splitlines():
        names, _, targets = line.partition("──▶")
        room = names.split()[-1].rstrip(",")
        if "nothing" in targets:
            continue
        drawn[room] = {t.strip() for t in targets.split(",")}
    assert drawn == room_arrows()
