"""The decoder of a tagged union of records, made for the kinds a short log holds.

msgspec reads the annotations of every class of a union the first time a decoder of
it is made (~9 M instructions for the game's 32 record classes, most of the cost of
opening a short game): a short log holds a few of those kinds, so ``decode_lines``
of one makes a decoder of the kinds its lines name, and the decoder of the whole
union is made when something else is read (a long log, one line, a record the
narrow decoder cannot take). Either gives the same records: a tag picks its class
whichever union holds it, and where the narrow decoder fails, the whole one decides
(its records, or its error, as before).
"""

from __future__ import annotations

import functools
import operator
import re
from typing import Any, Generic, TypeVar, get_args

import msgspec

T = TypeVar("T")

# A ``kind`` key and its value in a JSON line. A string value cannot hold it (its
# quotes would be escaped), so a match is a tag or, at worst, one kind too many.
_KIND = re.compile(rb'"kind"\s*:\s*"([^"\\]*)"')
# Past this size, scanning a log for its kinds costs about as much as the whole
# decoder, which a long log's reading makes anyway: under the size of the pieces a
# long log is read in (``core.log.streamed_read``), so that each piece is not scanned.
NARROW_BYTES = 64 * 1024


class RecordDecoder(Generic[T]):
    """``decode`` and ``decode_lines`` of msgspec's JSON decoder of ``union`` (a tagged
    union of Structs), that decoder made on first use; ``decode_lines`` of a short
    log, before it is made, with a decoder of the kinds the log names."""

    def __init__(self, union: Any) -> None:
        self._union = union
        self._by_tag: dict[str, Any] = {
            member.__struct_config__.tag: member for member in get_args(union)
        }
        self._whole: msgspec.json.Decoder[T] | None = None

    @property
    def whole(self) -> msgspec.json.Decoder[T]:
        """The decoder of the whole union (made once; a race makes it twice, harmlessly)."""
        made = self._whole
        if made is None:
            made = self._whole = msgspec.json.Decoder(self._union)
        return made

    def decode(self, buf: bytes) -> T:
        return self.whole.decode(buf)

    def decode_lines(self, buf: bytes) -> list[T]:
        if self._whole is None and len(buf) <= NARROW_BYTES:
            narrow = self.narrow(buf)
            if narrow is not None:
                try:
                    return narrow.decode_lines(buf)
                except (msgspec.MsgspecError, RecursionError):
                    pass  # the whole union decides: its records, or its error
        return self.whole.decode_lines(buf)

    def narrow(self, buf: bytes) -> msgspec.json.Decoder[T] | None:
        """A decoder of the kinds ``buf`` names. None when it names fewer than two (a
        lone tagged class takes a line without its tag, which the union refuses) or
        one that is not of the union: the whole decoder's error is the one to read."""
        try:
            members = [self._by_tag[tag.decode()] for tag in set(_KIND.findall(buf))]
        except (KeyError, UnicodeDecodeError):
            return None
        if len(members) < 2:
            return None
        return msgspec.json.Decoder(functools.reduce(operator.or_, members))

    def made(self) -> bool:
        """Is the whole union's decoder made (its cost paid)?"""
        return self._whole is not None
