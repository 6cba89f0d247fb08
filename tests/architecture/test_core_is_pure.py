"""The core never imports Textual: proven in a fresh interpreter."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

from stockade import core

ROOT = Path(__file__).resolve().parents[2]


def core_modules() -> list[str]:
    names = ["stockade.core"]
    for info in pkgutil.walk_packages(core.__path__, prefix="stockade.core."):
        names.append(info.name)
    return sorted(names)


def test_the_list_of_core_modules_includes_the_front_door():
    names = core_modules()
    for must in (
        "book.game",
        "rules",
        "rules.cc_capture",
        "model.events",
        "model.state",
        "log.game_timeline",
        "commands",
        "commands.parser",
        "cli",
        "cli.arguments",
    ):
        assert f"stockade.core.{must}" in names


def test_the_list_of_core_modules_is_every_python_file_under_core():
    """Every module and package on disk is walked, so the import below checks them all
    (core/commands/ and core/cli/ are packages, not core/commands.py and core/cli.py)."""
    on_disk = set()
    for path in (ROOT / "core").rglob("*.py"):
        parts = path.relative_to(ROOT / "core").with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        on_disk.add(".".join(("stockade", "core", *parts)))
    assert (ROOT / "core" / "commands" / "__init__.py").is_file()
    assert (ROOT / "core" / "cli" / "__init__.py").is_file()
    assert on_disk == set(core_modules())


def test_importing_every_core_module_does_not_import_textual():
    names = core_modules()
    code = (
        "import importlib, sys\n"
        f"names = {names!r}\n"
        "for name in names:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "print(len(names), 'imported')\n"
        "assert 'textual' not in sys.modules, bad\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr or result.stdout


def test_import_core_alone_does_not_import_textual():
    code = (
        "import sys, stockade.core.book.game, stockade.core.rules, stockade.core.commands, "
        "stockade.core.cli; assert 'textual' not in sys.modules"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
