"""The user's config file: theme and key overrides.

``config.toml`` in the config dir (see ``tui.paths``)::

    theme = "stockade-dark"
    strict = true                # new games: the players record every board fact

    [keys]                       # binding id = key(s), comma separated
    "stockade.next_phase" = "space"
    "stockade.undo" = "u,ctrl+z"

A broken file never stops the app: ``load_config`` returns the defaults with a readable
list of problems, which the app shows as a notification.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from stockade.core.config import tomlstruct
from stockade.core.log.files import write_own_file
from stockade.tui.paths import config_file

DEFAULT_THEME = "stockade-dark"
_THEME_LINE = re.compile(r"^\s*theme\s*=.*$", re.MULTILINE)


# Blank values are checked in load_config rather than by msgspec.Meta(pattern=...): a
# pattern inside a Union crashed msgspec 0.22 (segmentation fault) when this was written.
class ConfigFile(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """What config.toml may hold (docs/tui.md); anything else is reported and ignored."""

    theme: str = DEFAULT_THEME
    # new games are strict: no entry implies a board fact (docs/rulings.md)
    strict: bool = False
    # binding id = "key" or "key1,key2" or ["key1", "key2"]
    keys: dict[str, str | list[str]] = {}


@dataclass
class Config:
    theme: str = DEFAULT_THEME
    strict: bool = False
    keys: dict[str, str] = field(default_factory=dict)
    path: Path | None = None


def load_config(path: Path | None = None) -> tuple[Config, list[str]]:
    """Read the config file; a missing file is the defaults, a broken one too (with why).

    Each bad setting is named (file, line, key, value) and replaced by its default; the
    good ones are kept."""
    path = path or config_file()
    config = Config(path=path)
    if not path.exists():
        return config, []
    try:
        loaded, problems = tomlstruct.load(path, ConfigFile)
    except tomlstruct.Invalid as exc:
        return config, [f"{p}; using the defaults" for p in exc.problems]
    messages = [str(p) for p in problems]
    config.strict = loaded.strict
    if loaded.theme.strip():
        config.theme = loaded.theme.strip()
    else:
        messages.append(
            f"{path}: theme = {loaded.theme!r}: a theme name is needed; using {DEFAULT_THEME}"
        )
    for binding_id, value in loaded.keys.items():
        keys = ",".join(value if isinstance(value, list) else [value]).replace(" ", "")
        if not keys.strip(","):
            messages.append(f'{path}: keys."{binding_id}" = {value!r}: no key given; ignored')
            continue
        config.keys[binding_id] = keys
    return config, messages


def check_keymap(keys: dict[str, str], known_ids: set[str]) -> tuple[dict[str, str], list[str]]:
    """Keep the overrides whose binding id exists; say which ones do not."""
    good = {k: v for k, v in keys.items() if k in known_ids}
    problems = [
        f"config: no key binding has the id '{k}' (see docs/tui.md for the ids); ignored"
        for k in keys
        if k not in known_ids
    ]
    return good, problems


def save_theme(name: str, path: Path | None = None) -> str | None:
    """Remember ``name`` as the theme, keeping the rest of the file as it was."""
    path = path or config_file()
    line = f'theme = "{name}"'
    try:
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        if _THEME_LINE.search(text):
            text = _THEME_LINE.sub(line, text, count=1)
        else:
            text = f"{line}\n{text}"
        path.parent.mkdir(parents=True, exist_ok=True)
        write_own_file(path, text.encode("utf-8"))  # whole or not at all; never via a link
    except OSError as exc:
        return f"could not save the theme in {path}: {exc.strerror}"
    return None
