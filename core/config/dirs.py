"""Where Stockade keeps the user's config and games: ``STOCKADE_CONFIG_DIR`` and
``STOCKADE_DATA_DIR`` (when set and not empty) override the platformdirs defaults.
One place, read by the app and by ``stockade locate`` alike."""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "stockade"


def config_dir() -> Path:
    env = os.environ.get("STOCKADE_CONFIG_DIR")
    if env:
        return Path(env)
    from platformdirs import user_config_dir

    return Path(user_config_dir(APP_NAME))


def data_dir() -> Path:
    env = os.environ.get("STOCKADE_DATA_DIR")
    if env:
        return Path(env)
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP_NAME))
