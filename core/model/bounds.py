"""The bounds of every value a log or a command may carry, defined once.

A log may come from an opponent by mail. msgspec checks these constraints while it
decodes a line, so an out-of-range number or a string with a terminal escape in it is
refused at the line it is on, by the decoder, before any rule or derived structure
sees it. Commands are held to the same bounds: ``check_records`` round-trips what a
command would record through the same decoder (``Game.submit`` and ``Game.create``).

The ranges are what the game allows, with room to spare where a limit is a choice
(docs/durability.md, "Bounds", explains each one):

* ``Turn``: Game Turns 1-999 (the longest ASL scenarios run under 20 turns);
* ``Seq``: record numbers 0-10,000,000 (a long game is a few thousand records);
* ``Elr``: -99 to 99 as read (the rules refuse anything outside 1-6 with their own,
  friendlier message: the bound only stops absurd numbers);
* ``Cvp``: a unit's or a kind's CVP, 0-99; ``Roll``: a die roll, 0-99 (the rule checks
  the exact 2-12 or 1-6 range and names A20.552);
* strings: a maximum length each, and no control character at all: no C0 (below
  0x20, which includes ESC, newline and tab), no DEL (0x7f), no C1 (0x80-0x9f), no
  line or paragraph separator (U+2028, U+2029: a new line to a terminal, an editor
  and JavaScript), no bidirectional override or isolate (U+202A-202E, U+2066-2069). No field of a
  Stockade record documents an exception: every one is a single line;
* lists: at most ``MAX_UNITS`` units in one record, and small fixed sizes elsewhere.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

import msgspec
from msgspec import Meta

# -------------------------------------------------------------------- the limits
MAX_TURN = 999
MAX_SEQ = 10_000_000
MAX_ELR = 99  # the rules say 1-6 in their own words
MAX_CVP = 99
MAX_ROLL = 99
MAX_VERSION = 999  # a newer schema than ours is refused by logfile with its own message
MAX_UNITS = 200  # units named in one record: more than fit in any Location
MAX_SIDES = 8  # a game has two; the header is refused by the rules otherwise
MAX_TRAITS = 16
MAX_HANDLE = 32
MAX_NAME = 200  # scenario, side, nationality, counter, Location, program, time stamp
MAX_TEXT = 500  # free text: a strike's reason, a table's summary

# Every character is allowed but the C0 controls, DEL, the C1 controls and the
# bidirectional embeddings/overrides/isolates (which reorder how a line reads on
# screen: "Trojan Source"; no name needs them, a plain RTL name does not).
CONTROL_CHARS = "\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
# ``\Z``, not ``$``: msgspec matches with ``re.search``, and ``$`` also matches before a
# final newline, which let "oops\n" through as a strike's reason.
NO_CONTROL = f"^[^{CONTROL_CHARS}]*\\Z"
# A handle is a word: letters, digits, _ . - (no space, bracket or markup character).
HANDLE_CHARS = r"^[\w.-]*\Z"
# pattern texts, compiled by ``re`` on first use (and kept): a read never needs them
_CONTROL = f"[{CONTROL_CHARS}]"

# ------------------------------------------------------------------ number types
Turn = Annotated[int, Meta(ge=0, le=MAX_TURN)]
Seq = Annotated[int, Meta(ge=0, le=MAX_SEQ)]
Version = Annotated[int, Meta(ge=0, le=MAX_VERSION)]
Elr = Annotated[int, Meta(ge=-MAX_ELR, le=MAX_ELR)]
Cvp = Annotated[int, Meta(ge=0, le=MAX_CVP)]
Roll = Annotated[int, Meta(ge=0, le=MAX_ROLL)]
Die = Annotated[int, Meta(ge=0, le=20)]  # a camp die face (the biggest die has 20)
SmallInt = Annotated[int, Meta(ge=-99, le=99)]  # a camp change of Health or Kit

# ------------------------------------------------------------------ string types
# ``Handle``, ``Name``, ``Text`` and the containers of them, each with its pattern, are
# in ``core.model.string_bounds``: msgspec compiles a pattern when its Meta is made, and
# a log read checks strings in bulk (``core.model.record_bounds``), never by these.

# -------------------------------------------------------------------- containers
Dice = Annotated[tuple[Die, ...], Meta(max_length=32)]

# What each constraint means to a player, for the one-line refusal.
_CONTROL_WORDS = "holds a control character (an escape code?), which no record may hold"
_MESSAGE = r"^(?P<what>.*?)(?: - at `\$(?P<path>[^`]*)`)?$"
_LIMIT = r"^Expected `(?P<type>\w+)`(?: of length)? (?P<op>[<>]=) (?P<n>-?\d+)$"


def explain(exc: msgspec.ValidationError | str) -> str:
    """msgspec's message for a bound, in the player's words and naming the field.

    ``Expected `int` <= 999 - at `$.turn``` becomes ``field 'turn': at most 999``.
    """
    match = re.match(_MESSAGE, str(exc), re.S)
    if match is None:  # pragma: no cover - msgspec always matches the pattern above
        return str(exc)
    what, path = match.group("what"), match.group("path")
    field = _field_name(path) if path is not None else ""
    limit = re.match(_LIMIT, what)
    if limit:
        op, n = limit.group("op"), limit.group("n")
        kind = limit.group("type")
        if kind in ("str", "array", "object"):
            unit = {"str": "characters", "array": "items", "object": "entries"}[kind]
            said = f"{'at most' if op == '<=' else 'at least'} {n} {unit}"
        else:
            said = f"out of range: {'at most' if op == '<=' else 'at least'} {n}"
    elif what.startswith("Expected `str` matching regex"):
        said = "is not in the expected form"
        if "x00" in what or CONTROL_CHARS in what:
            said = _CONTROL_WORDS
        elif HANDLE_CHARS in what or HANDLE_CHARS.replace("\\", "\\\\") in what:
            said = "a handle is one word: letters, digits, _ . or - only"
    elif what == "Number out of range":
        said = "a number far out of range"
    else:
        said = what[:1].lower() + what[1:]
    return f"field '{field}': {said}" if field else str(said)


def _field_name(path: str) -> str:
    """``.units[3]`` -> ``units[3]``; ``.sides[0].name`` -> ``sides[0].name``."""
    return path[1:] if path.startswith(".") else path or "(the record)"


def has_control(text: str) -> bool:
    return re.search(_CONTROL, text) is not None


def check_records(records: list[Any], decoder: msgspec.json.Decoder[Any]) -> None:
    """Raise ValueError (explained) unless every record fits the bounds once decoded.

    A command builds records as Python objects, which msgspec does not check; the
    round trip through the log's own decoder holds them to exactly what a log line
    would be held to.
    """
    encoder = msgspec.json.Encoder()
    for record in records:
        try:
            decoder.decode(encoder.encode(record))
        except msgspec.ValidationError as exc:
            raise ValueError(explain(exc)) from None
