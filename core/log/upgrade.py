"""Upgrading records written by older schema versions, one small pure step each.

``UPGRADES[n]`` turns a raw record (a dict decoded from JSON) of version ``n`` into
version ``n + 1``; it never mutates its argument and never looks outside it. Records
are upgraded on read; the file itself is never rewritten (new records are appended at
the current version, so one log may hold several versions).

Adding a schema version: bump ``core.model.events.SCHEMA_VERSION``, add ``_vN_to_vN+1``
here, and a fixture log in the old shape under ``tests/fixtures/``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from stockade.core.model.events import SCHEMA_VERSION


def _v0_to_v1(raw: dict[str, Any]) -> dict[str, Any]:
    """v0 (pre-release) wrote ``type`` instead of ``kind`` and ``group`` for ``grp``,
    units carried ``kind_of_unit``, and the version field was absent."""
    raw = dict(raw)
    if "type" in raw and "kind" not in raw:
        raw["kind"] = raw.pop("type")
    if "group" in raw and "grp" not in raw:
        raw["grp"] = raw.pop("group")
    if "kind_of_unit" in raw and "unit_kind" not in raw:
        raw["unit_kind"] = raw.pop("kind_of_unit")
    raw["v"] = 1
    return raw


UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {0: _v0_to_v1}


def upgrade_record(raw: dict[str, Any]) -> dict[str, Any]:
    """Bring ``raw`` to ``SCHEMA_VERSION``. Raises ValueError for a version that has no
    upgrade path (negative, not a number, or newer than this program)."""
    version = raw.get("v", 0)
    if type(version) is not int or version < 0:
        raise ValueError(f"schema version {version!r} is not a known version")
    if version > SCHEMA_VERSION:
        raise ValueError(f"schema v{version} is newer than this Stockade (v{SCHEMA_VERSION})")
    while version < SCHEMA_VERSION:
        step = UPGRADES.get(version)
        if step is None:
            raise ValueError(f"no upgrade from schema v{version}")
        raw = step(raw)
        if raw.get("v") != version + 1:
            raise ValueError(f"upgrade from v{version} did not produce v{version + 1}")
        version += 1
    return raw
