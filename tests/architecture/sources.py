"""The project's own modules, parsed once per test process (a plain module, not a test
module).

The architecture tests each read every module of core/, tui/ or tests/ as a syntax tree;
parsing them again in each test cost more than all their checks together. A tree is kept
by its source text, so a file that changed is parsed afresh, and no test changes a tree
it is given.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def parsed(source: str) -> ast.Module:
    return ast.parse(source)


@functools.cache
def _walked(source: str) -> tuple[ast.AST, ...]:
    return tuple(ast.walk(parsed(source)))


def tree(path: Path) -> ast.Module:
    """The syntax tree of the module at ``path``."""
    return parsed(path.read_text(encoding="utf-8"))


def walk(path: Path) -> tuple[ast.AST, ...]:
    """Every node of the module at ``path``, in ``ast.walk``'s order."""
    return _walked(path.read_text(encoding="utf-8"))


def modules(*folders: str) -> Iterator[Path]:
    """The .py files under ``folders`` (relative to the checkout), sorted."""
    for folder in folders:
        yield from sorted((ROOT / folder).rglob("*.py"))
