"""Arguments declared as data: each is handed to argparse by the command line proper
(``add_to``), and the same declarations are read by ``read``, a strict reader of the
plain command lines only, for the tally answered from the derived store, which must
start before argparse could be imported (argparse, gettext and locale cost more than a
third of what that answer may take).

``read`` answers a command line only when it is certain argparse reads it the same
way: one positional that does not start with ``-``; options spelled whole or as a
unique prefix (``--form md``, ``--at=4``); a flag with no ``=``; a value that does not
start with ``-``; a number in ASCII digits; a choice among the choices. Anything else
(``--``, ``-h``, an unknown or ambiguous option, a missing value, a negative number)
is None, and argparse, in the command line proper, reads it and says what is wrong.
tests/cli/test_argspec.py holds the two to the same answers over generated command
lines.

Imports nothing but pathlib (a FILE is a Path, as argparse makes it).
"""

from __future__ import annotations

from pathlib import Path

TYPE_CHECKING = False  # typing costs ~2 ms to import; mypy reads this the same way

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any


class Positional:
    """A positional argument: its ``dest``, the type its text is made into, its
    metavar and help."""

    __slots__ = ("dest", "help", "metavar", "type")

    def __init__(self, dest: str, type: Callable[[str], Any], metavar: str, help: str) -> None:
        self.dest, self.type, self.metavar, self.help = dest, type, metavar, help

    def add_to(self, parser: Any) -> None:
        parser.add_argument(self.dest, type=self.type, metavar=self.metavar, help=self.help)


class Flag:
    """An option that takes no value: True when given, else False."""

    __slots__ = ("dest", "help", "name")
    default = False

    def __init__(self, name: str, help: str) -> None:
        self.name, self.dest, self.help = name, name.lstrip("-").replace("-", "_"), help

    def add_to(self, parser: Any) -> None:
        parser.add_argument(self.name, action="store_true", help=self.help)


class Option:
    """An option that takes one value: a number (``type=int``) or a string, one of
    ``choices`` when given; ``default`` when the option is absent."""

    __slots__ = ("choices", "default", "dest", "help", "metavar", "name", "type")

    def __init__(
        self,
        name: str,
        help: str,
        *,
        type: type[int] | type[str] = str,
        metavar: str | None = None,
        choices: Sequence[str] | None = None,
        default: object = None,
    ) -> None:
        self.name, self.dest, self.help = name, name.lstrip("-").replace("-", "_"), help
        self.type, self.metavar, self.choices, self.default = type, metavar, choices, default

    def add_to(self, parser: Any) -> None:
        extra: dict[str, Any] = {}
        if self.type is int:
            extra["type"] = int
        if self.metavar is not None:
            extra["metavar"] = self.metavar
        if self.choices is not None:
            extra["choices"] = self.choices
        parser.add_argument(self.name, default=self.default, help=self.help, **extra)

    def value(self, text: str) -> object:
        """The value of ``text`` as argparse makes it, or ``_UNSURE``."""
        if text.startswith("-"):
            return _UNSURE  # argparse may take it for an option, or a negative number
        if self.type is int:
            # int() also reads " 4", "+4", "4_0" and other scripts' digits: argparse's to say
            return int(text) if text.isascii() and text.isdigit() else _UNSURE
        if self.choices is not None and text not in self.choices:
            return _UNSURE
        return text


_UNSURE = object()  # a value only argparse may judge

FILE = Positional("file", Path, "FILE", "the game log (.jsonl)")
JSON = Flag("--json", "reply with one JSON object (shape: docs/commands.md, JSON replies)")


class Namespace:
    """What ``read`` gives: one attribute per argument, as argparse's Namespace has."""

    def __init__(self, **values: object) -> None:
        self.__dict__.update(values)

    def __eq__(self, other: object) -> bool:
        return vars(self) == vars(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Namespace({', '.join(f'{k}={v!r}' for k, v in sorted(vars(self).items()))})"

    # mypy: the attributes are the arguments' dests
    def __getattr__(self, name: str) -> Any:
        raise AttributeError(name)


def read(argv: list[str], arguments: Sequence[Positional | Flag | Option]) -> Namespace | None:
    """``argv`` read by ``arguments`` exactly as argparse reads it, or None when the
    line is not a plain one (see the module's doc): argparse's to read."""
    positional = [a for a in arguments if isinstance(a, Positional)]
    options = {a.name: a for a in arguments if not isinstance(a, Positional)}
    values: dict[str, object] = {a.dest: a.default for a in options.values()}
    given: list[str] = []
    i = 0
    while i < len(argv):
        token = argv[i]
        i += 1
        if not token.startswith("-"):
            given.append(token)
            continue
        if not token.startswith("--") or token == "--" or " " in token:
            return None
        name, eq, text = token.partition("=")
        found = [name] if name in options else [n for n in options if n.startswith(name)]
        if len(found) != 1:
            return None  # unknown or ambiguous
        option = options[found[0]]
        if isinstance(option, Flag):
            if eq:
                return None
            values[option.dest] = True
            continue
        if not eq:
            if i == len(argv):
                return None
            text = argv[i]
            i += 1
        value = option.value(text)
        if value is _UNSURE:
            return None
        values[option.dest] = value
    if len(given) != len(positional):
        return None
    for argument, text in zip(positional, given, strict=True):
        values[argument.dest] = argument.type(text)
    return Namespace(**values)


__all__ = ["FILE", "JSON", "Flag", "Namespace", "Option", "Positional", "read"]
