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

import msgspec

from stockade.core.config import tomlstruct

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


class ThemeFile(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """What a theme file may hold; any other key is a mistake worth naming."""

    name: str
    dark: bool = True
    primary: str
    secondary: str | None = None
    accent: str | None = None
    warning: str | None = None
    error: str | None = None
    success: str | None = None
    foreground: str | None = None
    background: str | None = None
    surface: str | None = None
    panel: str | None = None
    boost: str | None = None
    nations: dict[str, str] = {}  # nationality = accent colour
    variables: dict[str, str] = {}  # extra Textual theme variables


class ThemeError(ValueError):
    """A theme file that cannot be used; ``problems`` name each reason."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


def _colour_problems(spec: ThemeFile, source: str, text: str) -> list[str]:
    from textual.color import Color, ColorParseError

    problems = []
    checks: list[tuple[str, str | None, str | None]]
    checks = [(key, getattr(spec, key), None) for key in COLOUR_KEYS]
    checks += [(f"nations.{n}", v, "nations") for n, v in spec.nations.items()]
    for key, value, table in checks:
        if value is None:
            continue
        try:
            Color.parse(value)
        except (ColorParseError, ValueError):
            line = tomlstruct.line_of(text, key.split(".")[-1], table)
            where = f"{source}, line {line}" if line else source
            problems.append(f"{where}: {key} = {value!r} is not a colour")
    return problems


def theme_from_text(text: str, source: str):
    """Build a Theme from a theme file's text; raise ThemeError naming every problem
    (file, line, key, value). Any problem rejects the whole theme: half a theme is
    worse than the default."""
    from textual.theme import Theme

    try:
        data = tomlstruct.parse(text)
    except tomllib.TOMLDecodeError as exc:
        raise ThemeError([f"{source}: not valid TOML ({exc})"]) from None
    try:
        spec, found = tomlstruct.check(data, ThemeFile, source, text)
    except tomlstruct.Invalid as exc:
        raise ThemeError([str(p) for p in exc.problems]) from None
    except RecursionError:
        raise ThemeError([f"{source}: nested too deeply"]) from None
    problems = [str(p) for p in found]
    if not spec.name.strip():
        problems.append(f"{source}: name = {spec.name!r}: a theme needs a name")
    problems += _colour_problems(spec, source, text)
    if problems:
        raise ThemeError(problems)
    colours = {key: getattr(spec, key) for key in COLOUR_KEYS if getattr(spec, key) is not None}
    variables = {nation_variable(n): v for n, v in spec.nations.items()}
    variables.update(spec.variables)
    return Theme(name=spec.name.strip(), dark=spec.dark, variables=variables, **colours)


def load_themes(folder: Path | None = None, extra: Iterable[Path] = ()) -> tuple[list, list[str]]:
    """All themes in ``folder`` (default: this package) plus ``extra`` files.

    Returns ``(themes, problems)``; each problem is one sentence naming the file, and
    where it can the line, key and value. A broken file is skipped, never a traceback.
    """
    themes, problems, seen = [], [], set()
    for path in [*_theme_files(folder), *extra]:
        source = f"theme {Path(path).name}"
        try:
            text = tomlstruct.read_text(Path(path))
            theme = theme_from_text(text, source)
        except OSError as exc:
            problems.append(f"{source}: cannot be read ({exc.strerror}); skipped")
            continue
        except tomlstruct.Unreadable as exc:
            problems.append(f"{source}: {exc}; skipped")
            continue
        except ThemeError as exc:
            problems.append("; ".join(exc.problems) + "; skipped")
            continue
        if theme.name in seen:
            problems.append(f"{source}: the name '{theme.name}' is taken; skipped")
            continue
        seen.add(theme.name)
        themes.append(theme)
    return themes, problems


def nation_colour(theme, nationality: str) -> str:
    """The accent colour for ``nationality`` in ``theme`` (its primary if none)."""
    if theme is None:
        return ""
    return theme.variables.get(nation_variable(nationality), theme.primary)
