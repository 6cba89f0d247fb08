"""The controlling process writes pytest's rewritten bytecode for the test modules once
(tests/bytecode.py), so the xdist workers read it instead of each rewriting every module."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests import bytecode


def _names(code) -> set[str]:
    names = set(code.co_names) | set(code.co_varnames)
    for const in code.co_consts:
        if hasattr(const, "co_names"):
            names |= _names(const)
    return names


def test_a_test_module_is_rewritten_once_and_again_when_it_changes(
    tmp_path: Path, request: pytest.FixtureRequest
):
    from _pytest.assertion import rewrite

    module = tmp_path / "test_sample.py"
    module.write_text("def test_it():\n    x = 1\n    assert x == 2\n", encoding="utf-8")
    config = request.config
    assert bytecode.rewrite_once(config, [module]) == 1
    assert bytecode.rewrite_once(config, [module]) == 0  # read back, not rewritten
    pyc = rewrite.get_cache_dir(module) / (module.name[:-3] + rewrite.PYC_TAIL)
    state = config.stash[rewrite.assertstate_key]
    code = rewrite._read_pyc(module, pyc, state.trace)
    assert code is not None
    assert any(n.startswith("@py_assert") for n in _names(code))  # pytest's rewriting
    module.write_text("def test_it():\n    assert 1 == 1 + 0\n", encoding="utf-8")
    os.utime(module, (1, 1))  # a changed source: its mtime and size differ
    assert bytecode.rewrite_once(config, [module]) == 1


def test_the_run_warms_the_test_modules_it_collects(request: pytest.FixtureRequest):
    found = bytecode.test_modules(request.config)
    here = Path(__file__).resolve()
    assert here in found
    assert here.parent.parent / "conftest.py" in found
    assert all(p.name.startswith("test_") or p.name == "conftest.py" for p in found)
