"""The bounds of a game log's records, checked in bulk: the fast way to read a log.

``core.model.bounds`` puts a regex ``pattern`` on every string (no control character; a
handle is one word), and msgspec runs it on each string it decodes: over half the
time of reading a log went there.
So the game's records (``core.model.events``) are declared with these types instead: the
same bounds *without* the per-string patterns (every length and number bound stays),
and the patterns are checked once for the whole log, where it is cheap:

* no control character: a scan of the raw bytes (``suspicious_lines``) that can only
  err on the side of suspicion. A string can hold a control or bidi character only as
  a JSON escape (a backslash: any one makes the line suspicious) or as its raw UTF-8
  bytes (DEL ``7f``, C1 ``c2 80-9f``, ``e2 80 aa-ae``, ``e2 81 a6-a9``); a raw C0 byte
  is not valid JSON at all. A suspicious line is decoded again by the *strict* decoder
  (``Strict``: the same records with today's patterns), which has the last word;
* a handle is one word: every handle-typed value (found from the record types, so a
  new field is covered) is collected into one set, and each distinct handle is
  matched once with the very pattern msgspec would have used.

When either check fails, the reader falls back to the strict decoder line by line, so
the refusal and its words are exactly what they always were (``core.log.reader``).
"""

from __future__ import annotations

import functools
import itertools
import operator
import re
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import Annotated, Any

import msgspec
from msgspec import Meta

from stockade.core.model import bounds
from stockade.core.model.bounds import (  # the bounds with no string pattern, as they are
    MAX_CVP,
    MAX_ELR,
    MAX_HANDLE,
    MAX_NAME,
    MAX_ROLL,
    MAX_SEQ,
    MAX_SIDES,
    MAX_TEXT,
    MAX_TRAITS,
    MAX_TURN,
    MAX_UNITS,
    Cvp,
    Dice,
    Die,
    Elr,
    Roll,
    Seq,
    SmallInt,
    Turn,
    Version,
)

# ------------------------------------------------- the string types, checked in bulk
# Each loose Meta has a strict twin in ``core.model.string_bounds``; ``Strict`` swaps them back.
_HANDLE = Meta(max_length=MAX_HANDLE)
_NAME = Meta(max_length=MAX_NAME)
_TEXT = Meta(max_length=MAX_TEXT)

Handle = Annotated[str, _HANDLE]
Name = Annotated[str, _NAME]
Text = Annotated[str, _TEXT]

Handles = Annotated[list[Handle], Meta(max_length=MAX_UNITS)]
Pair = Annotated[list[Handle], Meta(max_length=2)]
Counters = Annotated[list[Name], Meta(max_length=2)]
Traits = Annotated[list[Name], Meta(max_length=MAX_TRAITS)]
HandleMap = Annotated[dict[Handle, Name], Meta(max_length=MAX_UNITS)]
CvpTable = Annotated[dict[Name, Cvp], Meta(max_length=64)]

# msgspec matches a pattern with ``re.search``: the same call, so the same verdict.
_handle_ok = re.compile(bounds.HANDLE_CHARS).search

# ------------------------------------------------------------- the raw-byte scan
# Bytes that may start a control or bidi character in a JSON string (see above).
_MARKERS = (b"\\", b"\x7f", b"\xc2", b"\xe2")
_SUSPECT = re.compile(rb"[\\\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xa8-\xae]|\xe2\x81[\xa6-\xa9]")


def suspicious_lines(blob: bytes) -> list[bytes]:
    """The lines of ``blob`` (without newlines) that might hold a control or bidi
    character; [] for almost every log. Four ``in`` tests over the whole buffer (at
    memory speed), then the precise scan only if one of the bytes occurs."""
    if not any(marker in blob for marker in _MARKERS):
        return []
    lines: dict[int, bytes] = {}
    for match in _SUSPECT.finditer(blob):
        start = blob.rfind(b"\n", 0, match.start()) + 1
        if start not in lines:
            end = blob.find(b"\n", start)
            lines[start] = blob[start : end if end >= 0 else len(blob)]
    return list(lines.values())


# --------------------------------------------------------- handles, from the types
# Each extractor takes the values of one field (an iterable, read once) and gives the
# handles they hold, as C iterators (map, filter, chain) with no Python step per value.
Extract = Callable[[Iterable[Any]], Iterable[str]]


def _same(values: Iterable[Any]) -> Iterable[str]:
    return values


class Known:
    """What is known of each field type already met while making handle finders: its
    finder, and whether it is evaluated. The records share their field types (the same
    objects: ``Seq``, ``Name``, ``Handle``, ...): each is looked into once. Kept by the
    type's identity, never its equality (``Meta`` objects equal in value are not the
    same: a handle is told by ``_HANDLE`` itself), with the type (its id stays its own)."""

    __slots__ = ("evaluated", "handles")

    def __init__(self) -> None:
        self.handles: dict[int, tuple[Any, Extract | None]] = {}
        self.evaluated: dict[int, tuple[Any, bool]] = {}


def _handles_in(tp: Any, memo: Known | None = None) -> Extract | None:
    """A function giving every handle held by values of type ``tp`` (None: values of
    that type hold none). ``memo``: the finders already made."""
    if memo is None:
        return _handles_of_type(tp, None)
    known = memo.handles.get(id(tp))
    if known is None:
        known = memo.handles[id(tp)] = (tp, _handles_of_type(tp, memo))
    return known[1]


def _handles_of_type(tp: Any, memo: Known | None) -> Extract | None:
    metas: tuple[Any, ...] = ()
    if typing.get_origin(tp) is Annotated:
        tp, *extra = typing.get_args(tp)
        metas = tuple(extra)
    if tp is str:
        return _same if any(m is _HANDLE for m in metas) else None
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        held = [a for a in args if a is not type(None)]
        if len(held) > 1 and all(_is_tagged_struct(a) for a in held):
            return _tagged_handles(held, memo)
        inner = _handles_in(held[0], memo) if len(held) == 1 else None
        if inner is None:
            if any(_handles_in(a, memo) for a in held):  # pragma: no cover - no such field yet
                raise TypeError(f"{tp}: a union holding handles is not checked in bulk")
            return None
        some: Extract = inner  # drops None (and "", which the pattern accepts anyway)
        return lambda values: some(filter(None, values))
    if origin in (list, tuple, set, frozenset):
        inner = _handles_in(args[0], memo) if args else None
        if inner is None:
            return None
        return lambda values: inner(itertools.chain.from_iterable(values))
    if origin is dict:
        if _handles_in(args[1], memo) is not None:  # pragma: no cover - no such field yet
            raise TypeError(f"{tp}: handles as dict values are not checked in bulk")
        keys = _handles_in(args[0], memo)
        if keys is None:
            return None
        return lambda values: keys(itertools.chain.from_iterable(values))  # the keys
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
        nested = _struct_handles(tp, memo)
        if nested is None:
            return None
        return lambda values: nested(list(values))
    return None


def _is_tagged_struct(tp: Any) -> bool:
    return (
        isinstance(tp, type)
        and issubclass(tp, msgspec.Struct)
        and tp.__struct_config__.tag is not None
    )


def _tagged_handles(members: list[Any], memo: Known | None = None) -> Extract:
    """The handles held by values of a tagged union of records (an amendment's event):
    each value is read by the fields of its own type (None: the type holds none)."""
    by_type = {cls: _struct_handles(cls, memo) for cls in members}

    def extract(values: Iterable[Any]) -> Iterable[str]:
        out: list[str] = []
        for value in values:
            inner = by_type.get(type(value))
            if inner is not None:
                out += inner([value])
        return out

    return extract


def field_types(cls: type[msgspec.Struct], memo: Known | None = None) -> list[tuple[str, Any]]:
    """Each field of ``cls`` and its type, in order: as written in the classes'
    annotations when every one of them is an object (the records write them so), else
    as ``msgspec.structs.fields`` evaluates them (its evaluation of every annotation,
    objects too, was most of what building the handle finder cost). ``memo``: the
    types already found evaluated (or not)."""
    written: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        written.update(klass.__dict__.get("__annotations__", {}))
    found = [(name, written.get(name, _UNWRITTEN)) for name in cls.__struct_fields__]
    if all(_evaluated_once(tp, memo) for _name, tp in found):
        return found
    return [(f.name, f.type) for f in msgspec.structs.fields(cls)]


_UNWRITTEN = "?"  # a field whose annotation was not found: a string, so evaluated


def _evaluated_once(tp: Any, memo: Known | None) -> bool:
    """``_evaluated(tp)``, asked once per type of ``memo``."""
    if memo is None:
        return _evaluated(tp)
    known = memo.evaluated.get(id(tp))
    if known is None:
        known = memo.evaluated[id(tp)] = (tp, _evaluated(tp))
    return known[1]


def _evaluated(tp: Any) -> bool:
    """Is ``tp`` a type with no annotation left as text anywhere in it?"""
    if isinstance(tp, str | typing.ForwardRef):
        return False
    if typing.get_origin(tp) is typing.Literal:
        return True  # its values are values, strings among them
    return all(_evaluated(arg) for arg in typing.get_args(tp) if not isinstance(arg, Meta))


def _struct_handles(
    cls: type[msgspec.Struct], memo: Known | None = None
) -> Callable[[list[Any]], Iterable[str]] | None:
    """The handles held by a list of ``cls`` objects, field by field. ``memo``: what is
    known of each type already met, kept by the caller across the classes it asks for."""
    parts: list[tuple[Callable[[Any], Any], Extract]] = []
    for name, tp in field_types(cls, memo):
        inner = _handles_in(tp, memo)
        if inner is not None:
            parts.append((operator.attrgetter(name), inner))
    if not parts:
        return None
    return lambda values: itertools.chain.from_iterable(
        [inner(map(get, values)) for get, inner in parts]
    )


# ----------------------------------------------------------- the strict twin types
def _strict_twin(meta: Any) -> Any:
    """The strict string type (``core.model.string_bounds``, with its pattern) of a loose
    string bound's Meta, None for any other."""
    from stockade.core.model import string_bounds as strict

    return {id(_HANDLE): strict.Handle, id(_NAME): strict.Name, id(_TEXT): strict.Text}.get(
        id(meta)
    )


def _strict_type(tp: Any, made: dict[type, type]) -> Any:
    """``tp`` with each loose string type swapped for its strict twin (recursively)."""
    if typing.get_origin(tp) is Annotated:
        base, *metas = typing.get_args(tp)
        for m in metas:
            twin = _strict_twin(m)
            if twin is not None and base is str:
                rest = [x for x in metas if x is not m]
                return Annotated[(twin, *rest)] if rest else twin
        return Annotated[(_strict_type(base, made), *metas)]
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
        return _strict_struct(tp, made)
    if origin in (typing.Union, types.UnionType):
        return functools.reduce(operator.or_, [_strict_type(a, made) for a in args])
    if origin in (list, tuple, set, frozenset, dict):
        return origin[tuple(_strict_type(a, made) for a in args)]
    return tp


def _strict_struct(cls: type[msgspec.Struct], made: dict[type, type]) -> type:
    twin = made.get(cls)
    if twin is not None:
        return twin
    config = cls.__struct_config__
    fields: list[tuple[str, Any] | tuple[str, Any, Any]] = []
    rename: dict[str, str] = {}
    for f in msgspec.structs.fields(cls):
        if f.encode_name != f.name:
            rename[f.name] = f.encode_name
        if f.default_factory is not msgspec.NODEFAULT:
            default: Any = msgspec.field(default_factory=f.default_factory)
        elif f.default is not msgspec.NODEFAULT:
            default = f.default
        else:
            fields.append((f.name, _strict_type(f.type, made)))  # required
            continue
        fields.append((f.name, _strict_type(f.type, made), default))
    twin = msgspec.defstruct(
        f"Strict{cls.__name__}",
        fields,
        kw_only=True,
        tag=config.tag,
        tag_field=config.tag_field,
        forbid_unknown_fields=config.forbid_unknown_fields,
        array_like=config.array_like,
        rename=rename or None,
    )
    made[cls] = twin
    return twin


class Strict:
    """The strict twin of a union of record types: the same fields, tags and defaults,
    with the patterns of ``core.model.bounds`` on every string (so its ValidationError is the
    one the player has always read), and the bulk handle check of the loose types."""

    def __init__(self, union: Any) -> None:
        self._members: tuple[Any, ...] = typing.get_args(union) or (union,)
        # each member's handle finder, made the first time a record of it is read (a
        # log holds a few of the record types; every run of ``stockade`` imports this)
        self._handles: dict[type, Callable[[list[Any]], Iterable[str]] | None] = {}
        self._member_set = frozenset(self._members)
        self._known = Known()  # the field types already looked into, for the next member

    def handles_of(self, cls: type) -> Callable[[list[Any]], Iterable[str]] | None:
        """The handle finder of member ``cls`` (None: it holds no handle, or is not a
        member)."""
        try:
            return self._handles[cls]
        except KeyError:
            extract = _struct_handles(cls, self._known) if cls in self._member_set else None
            return self._handles.setdefault(cls, extract)

    # The twin types are made on first use (a suspicious line, the careful path, a
    # command's bounds round trip), not at import: making them is not free, most runs
    # of ``stockade`` never need them, and every one of them imports this module.
    @functools.cached_property
    def union(self) -> Any:
        made: dict[type, type] = {}
        return functools.reduce(operator.or_, [_strict_struct(c, made) for c in self._members])

    @functools.cached_property
    def decoder(self) -> msgspec.json.Decoder[Any]:
        return msgspec.json.Decoder(self.union)

    def collect_handles(self, by_type: Mapping[type, list[Any]], into: set[str]) -> None:
        """Add every handle the records (grouped by type) hold to ``into``."""
        for cls, group in by_type.items():
            extract = self.handles_of(cls)
            if extract is not None:
                into.update(extract(group))

    def vouch(self, blob: bytes, by_type: Mapping[type, list[Any]]) -> bool:
        """Would the strict decoder accept every line of ``blob`` (whose loose decoding
        is ``by_type``, grouped by type)? Only the suspicious lines are decoded again."""
        seen: set[str] = set()
        self.collect_handles(by_type, seen)
        return self.vouch_collected(blob, seen)

    def vouch_collected(self, blob: bytes, handles: set[str]) -> bool:
        """``vouch``, given the handles of ``blob``'s records (``collect_handles``)."""
        for line in suspicious_lines(blob):
            try:
                self.decoder.decode(line)
            except (msgspec.MsgspecError, ValueError, RecursionError):
                return False
        return all(map(_handle_ok, handles))


# ------------------------------------------------- what a new record may not hold
# Characters that show as nothing (zero-width spaces and joiners, word joiners, the
# byte-order mark, soft hyphen, Mongolian vowel separator, Hangul fillers, variation
# selectors, tag characters): two names that read the same on screen could differ.
# Pattern texts, compiled by ``re`` on a write's first use (and kept): a read needs neither.
_INVISIBLE = (
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f"
    "\u2060-\u2064\u206a-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0"
    "\U000e0000-\U000e0fff]"
)
_ASCII_HANDLE = r"[A-Za-z0-9_.-]*\Z"


def _named(char: str) -> str:
    import unicodedata  # for a refusal's words only: not on a read's path

    return f"U+{ord(char):04X} {unicodedata.name(char, 'unnamed character')}"


def handle_lookalike(handle: str) -> str:
    """Why ``handle`` may not be given to a new unit ("" if it may): a handle is typed
    at the command bar and read beside others, so it is ASCII letters, digits, _ . and
    - only; a letter of another script can look exactly like one (Cyrillic 'а1' beside
    'a1'), and a full-width or other compatibility form is one in disguise."""
    if re.match(_ASCII_HANDLE, handle):
        return ""
    odd = next(c for c in handle if not re.match(_ASCII_HANDLE, c))
    import unicodedata

    plain = unicodedata.normalize("NFKC", handle)
    hint = f" (write it {plain!r})" if plain != handle and re.match(_ASCII_HANDLE, plain) else ""
    return (
        f"a new handle is one word of ASCII letters, digits, _ . or - only; {handle!r} "
        f"holds {_named(odd)}, which can look like another letter{hint}"
    )


def check_written(records: list[Any], strict: Strict) -> None:
    """Raise ValueError (in the player's words) unless every record a command would
    write fits the bounds a log line is held to (``check_records``) and also holds no
    invisible character and no look-alike handle. Only what is written now is held to
    the last two: a log written before still reads as it always did."""
    bounds.check_records(records, strict.decoder)
    encoder = msgspec.json.Encoder()
    check_fresh(records, [encoder.encode(r) for r in records], strict)


def check_fresh(records: list[Any], lines: list[bytes], strict: Strict) -> None:
    """What only a record written now is held to: ``lines`` (the records encoded) hold
    no invisible character, and no handle of ``records`` looks like another letter.
    Raises ValueError in the player's words."""
    for line in lines:
        hidden = re.search(_INVISIBLE, line.decode("utf-8"))
        if hidden:
            raise ValueError(
                f"holds an invisible character ({_named(hidden.group())}), which no "
                "record may hold: two names that read the same could differ"
            )
    by_type: dict[type, list[Any]] = {}
    for record in records:
        by_type.setdefault(type(record), []).append(record)
    handles: set[str] = set()
    strict.collect_handles(by_type, handles)
    for handle in sorted(handles):
        why = handle_lookalike(handle)
        if why:
            raise ValueError(f"field 'handle': {why}")


__all__ = [
    "check_fresh",
    "check_written",
    "handle_lookalike",
    "Counters",
    "Cvp",
    "CvpTable",
    "Dice",
    "Die",
    "Elr",
    "Handle",
    "HandleMap",
    "Handles",
    "MAX_CVP",
    "MAX_ELR",
    "MAX_HANDLE",
    "MAX_NAME",
    "MAX_ROLL",
    "MAX_SEQ",
    "MAX_SIDES",
    "MAX_TEXT",
    "MAX_TRAITS",
    "MAX_TURN",
    "MAX_UNITS",
    "Name",
    "Pair",
    "Roll",
    "Seq",
    "SmallInt",
    "Strict",
    "Text",
    "Traits",
    "Turn",
    "Version",
    "suspicious_lines",
]
