"""Stockade's themes are data: one TOML file per theme in this folder.

``load_themes`` reads them into ``textual.theme.Theme`` objects. A broken file is
skipped with a readable problem, never a traceback. Per-nationality accents become theme
variables named ``nation-<nationality>`` (lower case, spaces as dashes); use
``nation_colour(theme, nationality)`` to read one.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from importlib import resources
from pathlib import Path

COLOUR_KEYS = (
    "primary",
    "secondary",
    "accent",
    "warning",
    "error",
    "success",
    "foreground",
    "background",
    "surface",
    "panel",
    "boost",
)


def nation_variable(nationality: str) -> str:
    return "nation-" + nationality.strip().lower().replace(" ", "-")


def _theme_files(folder: Path | None) -> list[Path]:
    if folder is not None:
        return sorted(Path(folder).glob("*.toml"))
    base = resources.files("stockade.themes")
    return sorted(Path(str(p)) for p in base.iterdir() if p.name.endswith(".toml"))


def theme_from_mapping(data: dict, source: str):
    """Build a Theme from a parsed TOML mapping; raise ValueError saying what is wrong."""
    from textual.color import Color, ColorParseError
    from textual.theme import Theme

    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ValueError("it has no 'name'")
    if "primary" not in data:
        raise ValueError("it has no 'primary' colour")
    colours: dict[str, str] = {}
    for key in COLOUR_KEYS:
        if key in data:
            value = data[key]
            try:
                Color.parse(value)
            except (ColorParseError, TypeError, ValueError):
                raise ValueError(f"{key} = {value!r} is not a colour") from None
            colours[key] = value
    variables: dict[str, str] = {}
    nations = data.get("nations", {})
    if not isinstance(nations, dict):
        raise ValueError("[nations] must be a table of nationality = colour")
    for nationality, value in nations.items():
        try:
            Color.parse(value)
        except (ColorParseError, TypeError, ValueError):
            raise ValueError(f"nations.{nationality} = {value!r} is not a colour") from None
        variables[nation_variable(nationality)] = value
    extra = data.get("variables", {})
    if isinstance(extra, dict):
        variables.update({str(k): str(v) for k, v in extra.items()})
    dark = data.get("dark", True)
    if not isinstance(dark, bool):
        raise ValueError("'dark' must be true or false")
    return Theme(name=name.strip(), dark=dark, variables=variables, **colours)


def load_themes(folder: Path | None = None, extra: Iterable[Path] = ()) -> tuple[list, list[str]]:
    """All themes in ``folder`` (default: this package) plus ``extra`` files.

    Returns ``(themes, problems)``; each problem is one sentence naming the file.
    """
    themes, problems, seen = [], [], set()
    for path in [*_theme_files(folder), *extra]:
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
            theme = theme_from_mapping(data, path.name)
        except OSError as exc:
            problems.append(f"theme {path.name}: cannot be read ({exc.strerror}); skipped")
            continue
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            problems.append(f"theme {path.name}: not valid TOML ({exc}); skipped")
            continue
        except ValueError as exc:
            problems.append(f"theme {path.name}: {exc}; skipped")
            continue
        if theme.name in seen:
            problems.append(f"theme {path.name}: the name '{theme.name}' is taken; skipped")
            continue
        seen.add(theme.name)
        themes.append(theme)
    return themes, problems


def nation_colour(theme, nationality: str) -> str:
    """The accent colour for ``nationality`` in ``theme`` (its primary if none)."""
    if theme is None:
        return ""
    return theme.variables.get(nation_variable(nationality), theme.primary)
