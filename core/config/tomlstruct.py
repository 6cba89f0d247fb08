"""A TOML file read into a msgspec Struct, every problem named for the person who
wrote the file: the file, the line (found by a cheap search, when it can be), the key
and the value. Used by the config file (tui/config.py) and theme files (themes/).

The Struct (declared with ``forbid_unknown_fields=True``) is the schema. Settings are
checked one by one against it, so a bad one is reported and dropped while the good ones
are kept; in a table of name = value (a ``dict`` field) each entry is checked on its own
too. What is left is converted by msgspec into the Struct, its defaults standing in for
whatever was dropped.

A user's file is read with bounds (``read_text``): a regular file only, opened without
waiting (a FIFO named config.toml hung the app on a blank terminal), at most
``MAX_BYTES`` read (one linked to /dev/zero ran it out of memory), and a TOML nested
too deeply to parse is a problem like any other (50k levels raised RecursionError).
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, get_origin

import msgspec

S = TypeVar("S", bound=msgspec.Struct)

MAX_BYTES = 256 * 1024  # a config or theme file is a few hundred bytes
# Open without waiting for a writer (a FIFO), where the platform has the flag.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


class Unreadable(ValueError):
    """A user's file that is not read: not a regular file, too big, not UTF-8."""


def read_text(path: Path, limit: int = MAX_BYTES) -> str:
    """The text of a user's file, read with bounds (see the module). Raises OSError
    when it cannot be opened, ``Unreadable`` (a readable reason) when it is not read."""
    fd = os.open(path, _OPEN_FLAGS)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a FIFO" if stat.S_ISFIFO(mode) else "a device or other special file"
            if stat.S_ISDIR(mode):
                kind = "a directory"
            raise Unreadable(f"is {kind}, not a regular file; not read")
        data = os.read(fd, limit + 1)
        while len(data) <= limit:
            more = os.read(fd, limit + 1 - len(data))
            if not more:
                break
            data += more
    finally:
        os.close(fd)
    if len(data) > limit:
        raise Unreadable(f"is over {limit // 1024} KB, too big for a settings file; not read")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise Unreadable("not UTF-8 text") from None


def parse(text: str) -> dict[str, Any]:
    """``tomllib.loads``, a TOML nested too deeply to parse raising TOMLDecodeError."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise tomllib.TOMLDecodeError("nested too deeply") from None


@dataclass(frozen=True)
class Problem:
    file: str
    key: str  # dotted: theme, keys."stockade.undo"; "" for the file as a whole
    value: Any
    why: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"{self.file}" + (f", line {self.line}" if self.line else "")
        if not self.key:  # the file as a whole
            return f"{where}: {self.why}"
        shown = "" if self.value is _MISSING else f" = {self.value!r}"
        return f"{where}: {self.key}{shown}: {self.why}"


_MISSING: Any = object()


def line_of(text: str, key: str, table: str | None = None) -> int | None:
    """The line where ``key = ...`` is written (inside ``[table]`` when given), or None.

    A cheap search, not a TOML parser: good enough to point a person at the line."""
    lines = text.splitlines()
    start = 0
    if table is not None:
        start = table_line(text, table) or 0
    pattern = re.compile(rf"^\s*([\"']?){re.escape(key)}\1\s*=")
    for number in range(start, len(lines)):
        if pattern.match(lines[number]):
            return number + 1
    return None


def table_line(text: str, table: str) -> int | None:
    """The line of the ``[table]`` header, or None."""
    header = re.compile(rf"^\s*\[\s*([\"']?){re.escape(table)}\1\s*\]")
    for number, line in enumerate(text.splitlines(), 1):
        if header.match(line):
            return number
    return None


def _why(error: msgspec.ValidationError) -> str:
    """msgspec's message without its ``- at `$...``` tail (we say where ourselves)."""
    text = str(error).split(" - at `", 1)[0]
    return text[:1].lower() + text[1:]


def _is_table(annotation: Any) -> bool:
    """A ``dict[str, X]`` field: a TOML table of name = value, checked entry by entry."""
    return get_origin(annotation) is dict


def check(data: dict[str, Any], schema: type[S], file: str, text: str) -> tuple[S, list[Problem]]:
    """``data`` (parsed TOML) as ``schema``, dropping and reporting what does not fit."""
    problems: list[Problem] = []
    fields = {f.encode_name: f for f in msgspec.structs.fields(schema)}
    kept: dict[str, Any] = {}
    for key, value in data.items():
        field = fields.get(key)
        if field is None:
            line = line_of(text, key) or table_line(text, key)
            problems.append(Problem(file, key, value, "unknown setting; ignored", line))
            continue
        if _is_table(field.type) and isinstance(value, dict):
            kept[key] = {}
            for name, item in value.items():
                try:
                    # A one-entry table of the field's own type: the check is exactly
                    # the Struct's, for this entry alone.
                    one = msgspec.convert({name: item}, field.type, strict=True)
                    kept[key][name] = one[name]
                except msgspec.ValidationError as exc:
                    line = line_of(text, name, table=key)
                    why = f"{_why(exc)}; ignored"
                    problems.append(Problem(file, f'{key}."{name}"', item, why, line))
            continue
        try:
            kept[key] = msgspec.convert(value, field.type, strict=True)
        except msgspec.ValidationError as exc:
            line = line_of(text, key) or table_line(text, key)
            problems.append(Problem(file, key, value, f"{_why(exc)}; {_fallback(field)}", line))
    try:
        return msgspec.convert(kept, schema, strict=True), problems
    except msgspec.ValidationError as exc:  # a required setting is missing (or was dropped)
        missing = re.search(r"missing required field `([^`]+)`", str(exc))
        if missing:
            problems.append(Problem(file, missing[1], _MISSING, "required, and missing"))
        else:
            problems.append(Problem(file, "", _MISSING, _why(exc)))
        raise Invalid(problems) from None


def _fallback(field: msgspec.structs.FieldInfo) -> str:
    if field.default is not msgspec.NODEFAULT:
        return f"using {field.default!r}"
    if field.default_factory is not msgspec.NODEFAULT:
        return "using the default"
    return "ignored"


class Invalid(Exception):
    """The file cannot give a usable Struct (a required setting missing or wrong)."""

    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(str(p) for p in problems))
        self.problems = problems


def load(path: Path, schema: type[S], label: str | None = None) -> tuple[S, list[Problem]]:
    """Read and check a TOML file. Raises :class:`Invalid` (with the problems) when the
    file cannot be read, is not TOML, or lacks what the schema requires; ``OSError``
    is turned into a problem too, so the caller has one exception to handle."""
    file = label or str(path)
    try:
        text = read_text(Path(path))
    except OSError as exc:
        raise Invalid([Problem(file, "", _MISSING, f"cannot be read ({exc.strerror})")]) from None
    except Unreadable as exc:
        raise Invalid([Problem(file, "", _MISSING, str(exc))]) from None
    try:
        data = parse(text)
    except tomllib.TOMLDecodeError as exc:
        raise Invalid([Problem(file, "", _MISSING, f"not valid TOML ({exc})")]) from None
    try:
        return check(data, schema, file, text)
    except RecursionError:
        raise Invalid([Problem(file, "", _MISSING, "nested too deeply")]) from None


__all__ = [
    "Invalid",
    "MAX_BYTES",
    "Problem",
    "Unreadable",
    "check",
    "line_of",
    "load",
    "parse",
    "read_text",
    "table_line",
]
