"""The data tables of core/data/cvp.toml and core/data/nationalities.toml, as Python.

The TOML files are the source (edit them, with their comments); the tables below are
made from them by ``python -m stockade.core.model.unit_tables`` and held equal to them
by tests/model/test_unit_tables.py. A fold reads the tables from here: this module's
bytecode loads for far less than importing tomllib and parsing the two files (~16 M
instructions of a ~400 M folding tally).
"""

from __future__ import annotations

from typing import Any

_BEGIN = "# made from the TOML files (below: this line to the end marker)\n"
_END = "# end of the tables made from the TOML files\n"

# made from the TOML files (below: this line to the end marker)
CVP: dict[str, Any] = {
    "squad": 2,
    "hs": 1,
    "crew": 2,
    "hero": 1,
    "smc": 1,
    "vehicle": 0,
    "leader_base": 1,
}

NATIONALITIES: dict[str, Any] = {
    "German": {
        "rearm_squad": "4-3-6",
        "rearm_hs": "2-3-6",
        "half_squad": {"4-6-7": "2-4-7", "4-4-7": "2-4-7", "4-3-6": "2-3-6"},
    },
    "SS": {
        "trait": "ss",
        "trait_of": "German",
        "massacre": True,
        "rearm_squad": "4-3-6",
        "rearm_hs": "2-3-6",
    },
    "American": {
        "rearm_squad": "5-4-6",
        "rearm_hs": "",
        "half_squad": {"7-4-7": "3-4-7", "6-6-7": "3-3-7", "6-6-6": "3-3-6"},
        "half_squads": ["3-4-7", "3-3-7", "3-3-6"],
    },
    "British": {"rearm_squad": "", "rearm_hs": ""},
    "Russian": {"massacre": True, "rearm_squad": "4-2-6", "rearm_hs": "2-2-6"},
    "Italian": {"no_escape": True, "rearm_squad": "", "rearm_hs": ""},
    "Japanese": {
        "massacre": True,
        "no_rtph": True,
        "no_escape": True,
        "rearm_squad": "",
        "rearm_hs": "",
        "half_squad": {"4-4-7": "2-2-8"},
    },
    "Finnish": {"rearm_squad": "", "rearm_hs": ""},
    "Hungarian": {"no_escape": True, "axis_minor": True, "rearm_squad": "", "rearm_hs": ""},
    "Romanian": {"no_escape": True, "axis_minor": True, "rearm_squad": "", "rearm_hs": ""},
    "Slovakian": {"no_escape": True, "axis_minor": True, "rearm_squad": "", "rearm_hs": ""},
    "Croatian": {"no_escape": True, "axis_minor": True, "rearm_squad": "", "rearm_hs": ""},
    "Bulgarian": {"no_escape": True, "axis_minor": True, "rearm_squad": "", "rearm_hs": ""},
    "French": {"rearm_squad": "", "rearm_hs": ""},
    "Partisan": {"massacre": True, "no_rtph": True, "rearm_squad": "", "rearm_hs": ""},
    "Gurkha": {"no_rtph": True, "rearm_squad": "", "rearm_hs": ""},
    "Polish": {"rearm_squad": "", "rearm_hs": ""},
    "Chinese": {"rearm_squad": "", "rearm_hs": ""},
    "KPA": {"massacre": True, "rearm_squad": "", "rearm_hs": ""},
}
# end of the tables made from the TOML files


def source() -> str:
    """This module's text with its tables made afresh from the TOML files (then
    ``ruff format`` lays them out)."""
    import os
    import pprint
    import tomllib

    data = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data")
    with open(__file__, encoding="utf-8") as fh:
        text = fh.read()
    head, _, rest = text.partition(_BEGIN)
    _, _, tail = rest.partition(_END)
    tables = []
    for name, table in (("CVP", "cvp.toml"), ("NATIONALITIES", "nationalities.toml")):
        with open(os.path.join(data, table), "rb") as fh:
            value = tomllib.load(fh)
        shown = pprint.pformat(value, sort_dicts=False, width=88)
        tables.append(f"{name}: dict[str, Any] = {shown}\n")
    return head + _BEGIN + "\n".join(tables) + _END + tail


if __name__ == "__main__":
    made = source()
    with open(__file__, "w", encoding="utf-8") as out:
        out.write(made)
