"""The camp's terminal UI. ``run_camp`` is what ``stockade camp FILE`` ends up calling."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from stockade.core.camp.campaign import Campaign, options_from_mapping
from stockade.core.camp.cli import DEFAULT_LOG_NAME
from stockade.core.camp.errors import CampError


def default_camp_log() -> Path:
    """Where a campaign is kept when no file is named: the data dir (``stockade camp``
    and the palette's "Camp" alike)."""
    from stockade.tui.paths import data_dir

    directory = data_dir()
    directory.mkdir(parents=True, exist_ok=True)
    return directory / DEFAULT_LOG_NAME


def open_campaign(path: str | Path | None, options: dict[str, Any] | None = None) -> Campaign:
    """Resume the log at ``path`` (default: ``default_camp_log()``) if it exists, else
    start one with ``options``.

    Options only shape a new campaign: a resumed one keeps those in its header.
    """
    return Campaign.open_or_create(
        Path(path) if path else default_camp_log(), options_from_mapping(options)
    )


def run_camp(path: str | Path | None, options: dict[str, Any] | None = None) -> int:
    """Play a campaign full-screen; returns the process exit code."""
    from stockade.tui.camp.app import CampApp  # Textual loads only when a screen is wanted

    try:
        campaign = open_campaign(path, options)
    except CampError as exc:
        print(f"stockade camp: {exc}", file=sys.stderr)
        return 1
    try:
        return CampApp(campaign).run() or 0
    finally:
        campaign.close()


__all__ = ["open_campaign", "run_camp"]
