"""The tables a fold reads (core/model/unit_tables.py) are the TOML files' in core/data,
value for value and in the files' order, and a fold reads them without tomllib."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib

from stockade.core.model import unit_tables, units

DATA = os.path.join(os.path.dirname(os.path.dirname(unit_tables.__file__)), "data")


def toml(name: str) -> object:
    with open(os.path.join(DATA, name), "rb") as fh:
        return tomllib.load(fh)


def test_the_tables_are_the_toml_files_value_for_value_in_order():
    fix = "run `python -m stockade.core.model.unit_tables` then `ruff format`"
    tables = (("cvp.toml", unit_tables.CVP), ("nationalities.toml", units.nationalities()))
    for name, table in tables:
        want = toml(name)
        assert table == want, fix
        assert list(table) == list(want), fix  # the order a list of nationalities shows
        assert units._load(name) == want


def test_the_module_made_afresh_holds_the_same_tables():
    namespace: dict[str, object] = {}
    exec(compile(unit_tables.source(), "made", "exec"), namespace)
    assert namespace["CVP"] == toml("cvp.toml")
    assert namespace["NATIONALITIES"] == toml("nationalities.toml")


def test_a_fold_reads_the_unit_tables_without_tomllib(tmp_path):
    # a fresh interpreter: the modules a game's rules load, then every table a fold asks
    code = (
        "import sys\n"
        "from stockade.core.model import units\n"
        "from stockade.core import rules\n"
        "units.normal_cvp('leader', '9-2'); units.nationality_flags('German')\n"
        "units.canonical_nationality('russian')\n"
        "print('tomllib' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    assert done.stdout.strip() == "False", done.stderr
