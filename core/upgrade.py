"""Upgrading records written by older schema versions, one small pure step each.

``UPGRADES[n]`` turns a raw record of version ``n`` into version ``n + 1``. Records
are upgraded on read; the file itself is never rewritten.
"""

from __future__ import annotations

from typing import Callable

from core.events import SCHEMA_VERSION


def _v0_to_v1(raw: dict) -> dict:
    """v0 (pre-release) wrote ``type`` instead of ``kind`` and ``group`` for ``grp``,
    and units carried ``kind_of_unit``."""
    raw = dict(raw)
    if "type" in raw and "kind" not in raw:
        raw["kind"] = raw.pop("type")
    if "group" in raw:
        raw["grp"] = raw.pop("group")
    if "kind_of_unit" in raw:
        raw["unit_kind"] = raw.pop("kind_of_unit")
    raw["v"] = 1
    return raw


UPGRADES: dict[int, Callable[[dict], dict]] = {0: _v0_to_v1}


def upgrade_record(raw: dict) -> dict:
    version = raw.get("v", 0)
    while version < SCHEMA_VERSION:
        raw = UPGRADES[version](raw)
        version = raw["v"]
    return raw
