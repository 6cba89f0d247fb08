"""Handles: resolving what the player typed, and allocating new ones.

A handle is the short name a counter is typed by (``g3``). New handles are the first
letter of the side's name, lowercased, plus the next free number; when both sides'
names start with the same letter, each side's prefix grows until they differ
(``ge1`` / ``gu1`` for Germans and Gurkhas), so a handle always tells its side.
"""

from __future__ import annotations

import difflib
import re

from stockade.core.commands.grammar import RESERVED_WORDS, verb_named
from stockade.core.model.errors import InputRefusal
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import Unit

_HANDLE = re.compile(r"^[a-z][a-z0-9_]*$")
_COUNTER_LIKE = re.compile(r"^\d")

# Characters a player misreads for one another on a screen or a scrap of paper: a
# handle that differs from another only by these (``al`` beside ``a1``) is never made.
_LOOK_ALIKE = str.maketrans({"1": "l", "i": "l", "0": "o", "5": "s", "2": "z", "8": "b"})


def read_as(handle: str) -> str:
    """How a handle reads: lowercased, look-alike characters made one."""
    return handle.lower().translate(_LOOK_ALIKE)


def look_alike(a: str, b: str) -> bool:
    """Whether handles ``a`` and ``b`` differ, but only by characters read alike."""
    return a.lower() != b.lower() and read_as(a) == read_as(b)


def reference(u: Unit) -> str:
    """How the board shows a unit: its counter and Location, ``4-6-7@P4``."""
    return f"{u.counter}@{u.location}" if u.location else u.counter


def resolve_unit(state: GameState, word: str) -> str:
    """The handle of the unit ``word`` names, as the player sees it on the board or in
    the side panels:

    * its handle, in any case (``g3``, ``G3``);
    * its counter and Location, ``4-6-7@P4`` (the Location in any case);
    * its counter alone, ``9-1`` (a vehicle: its name, ``StuG``), or a Location alone,
      ``@P4``, when only one unit fits;
    * a unique prefix of either, ``4-6@P`` or ``9-``.

    Units no longer on the board are named by their handle only. A word that fits
    several units is refused with the candidates, each with its handle."""
    units = state.units
    if word in units:
        return word
    folded = {h.lower(): h for h in units}
    if word.lower() in folded:
        return folded[word.lower()]
    if _COUNTER_LIKE.match(word) or word.startswith("(") or "@" in word:
        counter, _, place = word.partition("@")
        fits = [
            u
            for u in units.values()
            if u.on_board
            and u.counter.startswith(counter)
            and u.location.lower().startswith(place.lower())
        ]
        exact = [u for u in fits if u.counter == counter and u.location.lower() == place.lower()]
        fits = exact or fits
        if len(fits) == 1:
            return fits[0].handle
        if fits:
            listed = ", ".join(f"{reference(u)} ({u.handle})" for u in fits[:8])
            more = f" and {len(fits) - 8} more" if len(fits) > 8 else ""
            alike = len({reference(u) for u in fits}) == 1
            if alike:
                hint = "they stand together: type their handles"
            elif word.startswith("@"):
                hint = "name one by its counter there, like " + reference(fits[0])
            else:
                hint = "add the Location, like " + reference(fits[0]) + ", or type the handle"
            raise InputRefusal(f"'{word}' fits {len(fits)} units: {listed}{more}", hint)
        raise InputRefusal(
            f"no unit on the board is '{word}'",
            "a counter as printed and its Location, like 4-6-7@P4, or the handle",
        )
    # a vehicle is printed with its name, not FP-range-morale: "StuG" names it too
    named = [
        u
        for u in units.values()
        if u.on_board and u.unit_kind == "vehicle" and u.counter.lower() == word.lower()
    ]
    if len(named) == 1:
        return named[0].handle
    if named:
        listed = ", ".join(f"{reference(u)} ({u.handle})" for u in named[:8])
        raise InputRefusal(
            f"'{word}' fits {len(named)} units: {listed}",
            "add the Location, like " + reference(named[0]) + ", or type the handle",
        )
    # a Location where a unit is wanted: the way to name the units standing there
    where = next(
        (u.location for u in units.values() if u.on_board and u.location.lower() == word.lower()),
        None,
    )
    if where is not None:
        raise InputRefusal(
            f"no unit '{word}' in this game",
            f"{where} is a Location: @{where} names the units there, or type a handle",
        )
    close = difflib.get_close_matches(word.lower(), list(folded), n=3, cutoff=0.6)
    hint = (
        ("did you mean " + " or ".join(folded[c] for c in close) + "?")
        if close
        else "add it first (add SIDE COUNTER), or check the handle in the side panels"
    )
    raise InputRefusal(f"no unit '{word}' in this game", hint)


def side_prefixes(sides: list[str]) -> dict[str, str]:
    """The handle prefix of each side: as many leading letters as tell them apart."""
    letters = {name: "".join(ch for ch in name.lower() if ch.isalpha()) or "u" for name in sides}
    for width in range(1, max(len(v) for v in letters.values()) + 1):
        prefixes = {name: word[:width] for name, word in letters.items()}
        if len(set(prefixes.values())) == len(prefixes):
            return prefixes
    # Same letters throughout ("Rebels" vs "rebels2"?): number the sides instead.
    return {name: f"{letters[name][:1]}{index}x" for index, name in enumerate(sides, 1)}


def find_side(state: GameState, word: str) -> str:
    """A side from its name, a unique prefix of it, or its nationality (any case)."""
    typed = word.strip().lower()
    names = list(state.sides)
    for name in names:
        if name.lower() == typed:
            return name
    matches = [n for n in names if n.lower().startswith(typed)] if typed else []
    matches = matches or [n for n in names if state.sides[n].nationality.lower() == typed]
    if len(matches) == 1:
        return matches[0]
    raise InputRefusal(f"no side '{word}' in this game", "sides: " + ", ".join(names))


class Context:
    """What a command is parsed against: the state, and the handles it makes."""

    def __init__(self, state: GameState, first_attacker: str | None = None):
        self.state = state
        self.first_attacker = first_attacker or (next(iter(state.sides), ""))
        self.made: list[str] = []  # handles this command creates, in order
        # what reading the line decided for the player: a stack's units, a value
        # filled in ("@P4: g1 g2 g3"); the reply shows them
        self.notes: list[str] = []
        self._read_as: set[str] | None = None  # every handle in use, as it reads
        self._prefixes = side_prefixes(list(state.sides)) if state.sides else {}

    # -- reading handles ------------------------------------------------------
    def unit(self, word: str) -> str:
        """The handle of an existing unit, by handle or as the board shows it
        (``resolve_unit``)."""
        return resolve_unit(self.state, word)

    def units(self, words: list[str], what: str = "units") -> list[str]:
        if not words:
            raise InputRefusal(f"name the {what}")
        return [self.unit(w) for w in words]

    def side(self, word: str) -> str:
        return find_side(self.state, word)

    def location(self, word: str) -> str:
        """The Location ``word`` names as the board names it: the spelling of the units
        recorded there (``P4`` for ``p4``), or as typed where none is. So a reply or a
        refusal names one Location one way, and a move keeps the board's spelling."""
        low = word.lower()
        for u in self.state.units.values():
            if u.location and u.location.lower() == low:
                return u.location
        return word

    def side_of(self, handle: str) -> str:
        return self.state.units[handle].side

    # -- making handles ---------------------------------------------------------
    def taken(self, handle: str) -> bool:
        """In use, or read alike with a handle in use (``a1`` once ``al`` exists)."""
        if self._read_as is None:  # once per command: numbering asks many times
            self._read_as = {read_as(h) for h in self.state.units}
        key = read_as(handle)
        return key in self._read_as or any(read_as(m) == key for m in self.made)

    def free(self, handle: str) -> str:
        """``handle``, asked for a new counter, unless it (or one it reads like) is in use."""
        if self.taken(handle):
            existing = [*self.state.units, *self.made]
            alike = [h for h in existing if look_alike(h, handle)]
            raise InputRefusal(
                f"handle '{handle}' reads like {alike[0]}, already in use"
                if alike
                else f"handle '{handle}' is already in use",
                "leave out 'as' to get the next free handle",
            )
        return handle

    def new_handle(self, side: str, wanted: str | None = None) -> str:
        """A handle for a new counter of ``side``: the one asked for, else the next free."""
        if wanted:
            handle = self.free(check_new_handle(wanted))
        else:
            prefix = self._prefixes.get(side) or side[:1].lower() or "u"
            number = 1
            while self.taken(f"{prefix}{number}"):
                number += 1
            handle = f"{prefix}{number}"
        self.made.append(handle)
        return handle


def check_new_handle(word: str) -> str:
    """A typed new handle, lowercased; refuse words the parser would misread."""
    handle = word.lower()
    if _COUNTER_LIKE.match(handle):
        raise InputRefusal(
            f"'{word}' reads like a counter, not a handle",
            "a handle starts with a letter, like g3",
        )
    if not _HANDLE.match(handle):
        raise InputRefusal(
            f"'{word}' is not a handle",
            "letters, digits and _ only, starting with a letter, like g3",
        )
    if handle in RESERVED_WORDS or verb_named(handle):
        raise InputRefusal(f"'{word}' is a command word and cannot be a handle")
    return handle
