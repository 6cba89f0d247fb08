"""A snapshot's fields encoded a piece at a time (``core.log.snapcache``).

A long game's snapshot has columns as long as the game: a row per unit, and per entry
its time and its names. Made whole (lists of rows, then the bytes of all of them), they
were held beside the game's whole state while it was written: for a game of 376,000
units about a fifth of the write's peak. Here each column is a ``Column``: its length
and a way to walk its items, walked once per pass it needs (a count, then the items
as they are encoded), never held; ``pieces`` writes MessagePack's map of the fields a
piece of about ``piece`` bytes at a time, the very bytes msgspec gives the whole.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

import msgspec

When = tuple[int, str, str]  # an entry's turn, phase and attacker
Name = tuple[str, str, str]  # a unit's handle, label and Location
Names = tuple[Name, ...]  # an entry's names

NAME_WINDOW = 1 << 14  # the names told apart when making a column's table (see below)


class Column(NamedTuple):
    """A field's array: how many items, and a walk over them (one pass each call)."""

    n: int
    items: Callable[[], Iterable[Any]]


class Row(NamedTuple):
    """An array-like Struct's fields (a ``Column`` for an array walked as it is
    encoded; no Row in a Row): the bytes of the Struct, an array of them."""

    values: tuple[Any, ...]


def _header(n: int, fix: int, two: bytes, four: bytes) -> bytes:
    if n < 16:
        return bytes((fix | n,))
    if n < 1 << 16:
        return two + n.to_bytes(2, "big")
    return four + n.to_bytes(4, "big")


def array_header(n: int) -> bytes:
    """MessagePack's header of an array of ``n`` items."""
    return _header(n, 0x90, b"\xdc", b"\xdd")


def map_header(n: int) -> bytes:
    """MessagePack's header of a map of ``n`` pairs (a Struct: a map of its fields)."""
    return _header(n, 0x80, b"\xde", b"\xdf")


def pieces(fields: Sequence[tuple[str, Any]], piece: int) -> Iterator[bytearray]:
    """The bytes msgspec gives a Struct of ``fields`` (its fields' names and values,
    in order; a ``Column`` for an array walked as it is encoded), in pieces of about
    ``piece`` bytes, each made once the one before was written. Raises ValueError
    when a field does not encode, or a column does not hold as many items as it says."""
    encoder = msgspec.msgpack.Encoder()
    encode_into = encoder.encode_into
    out = bytearray(map_header(len(fields)))
    try:
        for name, value in fields:
            encode_into(name, out, -1)
            parts = value.values if isinstance(value, Row) else (value,)
            if isinstance(value, Row):
                out += array_header(len(parts))
            for part in parts:
                if not isinstance(part, Column):
                    encode_into(part, out, -1)
                    continue
                out += array_header(part.n)
                count = 0
                for item in part.items():
                    encode_into(item, out, -1)
                    count += 1
                    if len(out) >= piece:
                        yield out
                        out = bytearray()
                if count != part.n:
                    raise ValueError(f"the snapshot's {name} changed while it was written")
    except msgspec.MsgspecError as exc:
        raise ValueError(f"the snapshot does not encode: {exc}") from exc
    yield out


def when_columns(
    seqs: Sequence[int], position: int, when: Mapping[int, When]
) -> tuple[list[When], Column, Column]:
    """Each distinct time once (a time stands for many entries: a phase), then per
    entry of the first ``position`` that has one its seq and the time's index."""
    times: dict[When, int] = {}
    known = 0
    for s in itertools.islice(seqs, position):
        held = when.get(s)
        if held is not None:
            times.setdefault(held, len(times))
            known += 1

    def known_seqs() -> Iterator[int]:
        return (s for s in itertools.islice(seqs, position) if s in when)

    def indexes() -> Iterator[int]:
        return (times[when[s]] for s in known_seqs())

    return list(times), Column(known, known_seqs), Column(known, indexes)


def name_columns(
    seqs: Sequence[int], position: int, names: Mapping[int, Names]
) -> tuple[Column, Column, Column, Column]:
    """The names each of the first ``position`` entries had: a table of names, then
    per entry naming one unit its seq and the name's index in the table, and the
    entries naming none or several as (seq, names). A name is in the table once
    while it is among the last ``NAME_WINDOW`` told apart (a unit named over many
    entries, as most are, shares one tuple when read back), never a table of every
    name at once: a game of 376,000 units each named once held one of 376,000."""

    def walk() -> Iterator[tuple[int, Names, int, bool]]:
        """(seq, its names, the index of its one name or -1, a name new to the table)"""
        window: dict[Name, int] = {}
        made = 0
        for s in itertools.islice(seqs, position):
            held = names.get(s)
            if held is None:
                continue
            if len(held) != 1:
                yield s, held, -1, False
                continue
            i = window.get(held[0])
            if i is None:
                if len(window) >= NAME_WINDOW:
                    window.clear()
                i = window[held[0]] = made
                made += 1
                yield s, held, i, True
            else:
                yield s, held, i, False

    table = ones = others = 0
    for _s, _held, i, new in walk():
        table += new
        if i < 0:
            others += 1
        else:
            ones += 1
    return (
        Column(table, lambda: (held[0] for _s, held, _i, new in walk() if new)),
        Column(ones, lambda: (s for s, _held, i, _new in walk() if i >= 0)),
        Column(ones, lambda: (i for _s, _held, i, _new in walk() if i >= 0)),
        Column(others, lambda: ((s, held) for s, held, i, _new in walk() if i < 0)),
    )
