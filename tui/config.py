"""The user's config file: theme and key overrides.

``config.toml`` in the config dir (see ``tui.paths``)::

    theme = "stockade-dark"

    [keys]                       # binding id = key(s), comma separated
    "stockade.next_phase" = "space"
    "stockade.undo" = "u,ctrl+z"

A broken file never stops the app: ``load_config`` returns the defaults with a readable
list of problems, which the app shows as a notification.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from stockade.tui.paths import config_file

DEFAULT_THEME = "stockade-dark"
_THEME_LINE = re.compile(r"^\s*theme\s*=.*$", re.MULTILINE)


@dataclass
class Config:
    theme: str = DEFAULT_THEME
    keys: dict[str, str] = field(default_factory=dict)
    path: Path | None = None


def load_config(path: Path | None = None) -> tuple[Config, list[str]]:
    """Read the config file; a missing file is the defaults, a broken one too (with why)."""
    path = path or config_file()
    config = Config(path=path)
    problems: list[str] = []
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return config, problems
    except OSError as exc:
        return config, [f"{path}: cannot be read ({exc.strerror}); using the defaults"]
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        return config, [f"{path}: not valid TOML ({exc}); using the defaults"]
    theme = data.get("theme", DEFAULT_THEME)
    if isinstance(theme, str) and theme.strip():
        config.theme = theme.strip()
    else:
        problems.append(f"{path}: 'theme' must be a theme name in quotes; using {DEFAULT_THEME}")
    keys = data.get("keys", {})
    if not isinstance(keys, dict):
        problems.append(f'{path}: [keys] must be a table of binding id = "key"; ignored')
        keys = {}
    for binding_id, value in keys.items():
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            value = ",".join(value)
        if not isinstance(value, str) or not value.strip():
            problems.append(f'{path}: keys."{binding_id}" must be a key such as "n"; ignored')
            continue
        config.keys[str(binding_id)] = value.replace(" ", "")
    for name in sorted(set(data) - {"theme", "keys"}):
        problems.append(f"{path}: unknown setting '{name}' ignored")
    return config, problems


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
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        return f"could not save the theme in {path}: {exc.strerror}"
    return None
