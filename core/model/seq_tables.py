"""Tables by seq (a record's line in the log), compact for a long game.

``SeqTable``: the fold's per-entry tables (the time of each entry, the names its units
had) as a mapping seq -> value. The fold fills them in the order of its entries, whose
seqs rise: kept as an array of the seqs, rising, beside a list of the values (16 bytes
an entry; a dict's slot and the int of its key cost ~65). Looked up by bisection; a seq
put in out of order is inserted in its place.

``Groups``: a timeline's command groups (``core.log.timeline``), grp -> its events.
Most groups of a long log hold one event, the record that opened them: its seq is the
group's id. Such a group is kept as that id alone, in an array of them (8 bytes; a list
of one seq and its slot in a dict cost ~100 bytes a group), and is given out as a new
one-item list when asked for. Every other group (several events, none, events held as
records rather than seqs, or an id not its first seq) is a list in a dict, given out as
itself. Iterated in the order of the groups' ids, the order a log makes them in.
"""

from __future__ import annotations

from array import array
from collections.abc import ItemsView, Iterable, Iterator, Mapping, MutableMapping, ValuesView
from itertools import accumulate, chain, compress, repeat
from operator import and_, eq, ge, itemgetter, not_
from typing import Generic, TypeVar, overload

try:  # the C module alone: a fold imports no more than it uses (bisect.py is a replay's)
    from _bisect import bisect_left
except ImportError:  # pragma: no cover  (an interpreter without it)
    from bisect import bisect_left

T = TypeVar("T")
V = TypeVar("V")
D = TypeVar("D")


def _index(seqs: array[int], seq: int) -> int:
    """The index of ``seq`` in ``seqs`` (rising), or -1."""
    if seqs and seqs[-1] == seq:
        return len(seqs) - 1
    i = bisect_left(seqs, seq)
    return i if i < len(seqs) and seqs[i] == seq else -1


class SeqTable(MutableMapping[int, V]):
    """seq -> value, iterated in the order of the seqs."""

    __slots__ = ("_seqs", "_values", "_next")

    def __init__(self, items: Mapping[int, V] | Iterable[tuple[int, V]] = ()) -> None:
        self._seqs = array("q")
        self._values: list[V] = []
        self._next = 0  # the index after the last one found: seqs are often asked in turn
        self.update(items)

    def _at(self, seq: int) -> int:
        """The index of ``seq``, or -1."""
        seqs, at = self._seqs, self._next
        if at < len(seqs):
            here = seqs[at]
            if here == seq:
                self._next = at + 1
                return at
            if here > seq and (at == 0 or seqs[at - 1] < seq):
                return -1  # a walk in order asking for a seq the table skips
        elif not seqs or seqs[-1] < seq:
            return -1  # past the last
        at = _index(seqs, seq)
        if at >= 0:
            self._next = at + 1
        return at

    def __len__(self) -> int:
        return len(self._values)

    def __iter__(self) -> Iterator[int]:
        return iter(self._seqs)

    def __contains__(self, seq: object) -> bool:
        seqs, at = self._seqs, self._next
        if at < len(seqs) and seqs[at] == seq:
            return True
        return type(seq) is int and self._at(seq) >= 0

    def __getitem__(self, seq: int) -> V:
        at = self._at(seq) if type(seq) is int else -1
        if at < 0:
            raise KeyError(seq)
        return self._values[at]

    @overload
    def get(self, seq: int, /) -> V | None: ...
    @overload
    def get(self, seq: int, /, default: V | D) -> V | D: ...
    def get(self, seq: int, /, default: object = None) -> object:
        seqs, at = self._seqs, self._next  # (``_at`` written out: a walk's every step)
        if at < len(seqs) and seqs[at] == seq:
            self._next = at + 1
            return self._values[at]
        at = self._at(seq)
        return default if at < 0 else self._values[at]

    def __setitem__(self, seq: int, value: V) -> None:
        seqs = self._seqs
        if not seqs or seq > seqs[-1]:  # the fold's way: the next entry
            seqs.append(seq)
            self._values.append(value)
            return
        i = bisect_left(seqs, seq)
        if i < len(seqs) and seqs[i] == seq:
            self._values[i] = value
        else:
            seqs.insert(i, seq)
            self._values.insert(i, value)

    def __delitem__(self, seq: int) -> None:
        at = self._at(seq)
        if at < 0:
            raise KeyError(seq)
        del self._seqs[at]
        del self._values[at]

    def clear(self) -> None:
        self._seqs = array("q")
        self._values = []

    def update(  # type: ignore[override]  # a mapping or pairs, no keywords
        self, items: Mapping[int, V] | Iterable[tuple[int, V]] = ()
    ) -> None:
        """Put ``items`` in, sorted first when they come out of order (a snapshot's
        names come as the entries naming several units, then those naming one)."""
        pairs = list(items.items() if isinstance(items, Mapping) else items)
        keys = list(map(itemgetter(0), pairs))
        rising = not any(map(ge, keys, keys[1:]))
        if not rising:
            pairs.sort(key=itemgetter(0))  # stable: of a seq given twice, the last stands
            keys = list(map(itemgetter(0), pairs))
        seqs = self._seqs
        if (
            pairs
            and (rising or isinstance(items, Mapping))
            and (not seqs or pairs[0][0] > seqs[-1])
        ):  # each seq once, all after the last held (a restore): in bulk
            seqs.extend(keys)
            self._values.extend(self._kept(map(itemgetter(1), pairs)))
            return
        for seq, value in pairs:
            self[seq] = value

    def load(self, seqs: Iterable[int], values: list[V]) -> None:
        """Fill this table (new, empty) from columns: ``seqs`` rising, each with its
        value in ``values``, held as they are (a restore's; ValueError when the seqs do
        not rise or the columns differ in length)."""
        if self._seqs:
            raise ValueError("a table is loaded when empty")
        held = array("q", seqs)
        if len(held) != len(values) or any(map(ge, held, held[1:])):
            raise ValueError("a table's seqs do not rise one value each")
        self._seqs, self._values = held, values

    def _kept(self, values: Iterator[V]) -> Iterable[V]:
        """``values`` as this table holds them."""
        return values


class Groups(Mapping[int, list[T]], Generic[T]):
    """grp -> its events, in log order (records, or their seqs when the timeline reads
    its records by line)."""

    __slots__ = ("_ones", "_lists")

    def __init__(self, groups: Mapping[int, list[T]] | None = None) -> None:
        self._ones = array("q")  # ids of the groups that hold their own seq alone, rising
        self._lists: dict[int, list[T]] = {}  # every other group
        if groups:
            self.update(groups.items())

    def __len__(self) -> int:
        return len(self._ones) + len(self._lists)

    def __contains__(self, grp: object) -> bool:
        if grp in self._lists:
            return True
        return type(grp) is int and _index(self._ones, grp) >= 0

    def __iter__(self) -> Iterator[int]:
        lists = self._lists
        if not lists:
            return iter(self._ones)
        if not self._ones:
            return iter(sorted(lists))
        from heapq import merge  # a snapshot's write: not on a fold's path

        return merge(self._ones, sorted(lists))

    def __getitem__(self, grp: int) -> list[T]:
        group = self._lists.get(grp)
        if group is not None:
            return group
        if _index(self._ones, grp) < 0:
            raise KeyError(grp)
        return [grp]  # type: ignore[list-item]  # held as its own seq

    @overload
    def get(self, grp: int, /) -> list[T] | None: ...
    @overload
    def get(self, grp: int, /, default: list[T] | D) -> list[T] | D: ...
    def get(self, grp: int, /, default: object = None) -> object:
        group = self._lists.get(grp)
        if group is not None:
            return group
        if _index(self._ones, grp) < 0:
            return default
        return [grp]

    def size(self, grp: int) -> int:
        """How many events group ``grp`` holds (KeyError: no such group)."""
        group = self._lists.get(grp)
        if group is not None:
            return len(group)
        if _index(self._ones, grp) < 0:
            raise KeyError(grp)
        return 1

    def __setitem__(self, grp: int, group: list[T]) -> None:
        """Make group ``grp`` hold ``group`` (kept as it is, unless it is the group's
        own seq alone)."""
        lists, ones = self._lists, self._ones
        if ones and grp <= ones[-1] and (at := _index(ones, grp)) >= 0:
            del ones[at]
        if (
            len(group) == 1
            and type(one := group[0]) is int
            and one == grp
            and (not ones or grp > ones[-1])
        ):
            lists.pop(grp, None)
            ones.append(grp)
        else:
            lists[grp] = group

    def add(self, grp: int, item: T) -> bool:
        """Put ``item`` at the end of group ``grp``; True when that opened the group."""
        lists = self._lists
        group = lists.get(grp)
        if group is not None:
            group.append(item)
            return False
        ones = self._ones
        if ones and grp <= ones[-1]:
            at = _index(ones, grp)
            if at >= 0:  # its second event: a list from now on
                del ones[at]
                lists[grp] = [grp, item]  # type: ignore[list-item]  # its own seq first
                return False
        if type(item) is int and item == grp and (not ones or grp > ones[-1]):
            ones.append(grp)
        else:
            lists[grp] = [item]
        return True

    def update(self, pairs: Iterable[tuple[int, list[T]]]) -> None:
        for grp, group in pairs:
            self[grp] = group

    def _pairs(self) -> Iterator[tuple[int, list[T]]]:
        """(grp, its events) in the order of the ids, none looked up."""
        lists = self._lists
        if not lists:
            return ((grp, [grp]) for grp in self._ones)  # type: ignore[list-item]
        return (
            (grp, group if (group := lists.get(grp)) is not None else [grp])  # type: ignore[list-item]
            for grp in self
        )

    def items(self) -> ItemsView[int, list[T]]:
        return _Items(self)

    def values(self) -> ValuesView[list[T]]:
        return _Values(self)

    def flat(self, grps: Iterable[int]) -> list[T]:
        """The events of groups ``grps`` in a row, in that order."""
        lists = self._lists
        if not lists:  # every group its own seq alone
            return list(grps)  # type: ignore[arg-type]
        grps = list(grps)
        # each group's list, or (a group not listed is its seq alone) a 1-tuple of its
        # id: zip(grps) gives those tuples, so no Python-level step runs per group
        return list(chain.from_iterable(map(lists.get, grps, zip(grps))))  # type: ignore[arg-type]

    def parts(self) -> tuple[array[int], dict[int, list[T]]]:
        """The groups as held: the ids of those holding their own seq alone (rising),
        and every other group by id (not copied: read them, never change them)."""
        return self._ones, self._lists

    def load(self, alone: list[int], ids: list[int], sizes: list[int], seqs: list[int]) -> None:
        """Fill these groups (new, empty) from a snapshot's columns: the groups ``alone``
        (rising) hold their own seq alone; group ``ids[i]`` holds the next ``sizes[i]``
        of ``seqs``. ValueError when they do not fit: ids not rising or given twice, or
        the sizes not adding up to the seqs."""
        if self._ones or self._lists:
            raise ValueError("groups are loaded into an empty table")
        if len(ids) != len(sizes) or sum(sizes) != len(seqs):
            raise ValueError("the timeline's groups do not add up")
        if any(map(ge, ids, ids[1:])) or any(map(ge, alone, alone[1:])):
            raise ValueError("the timeline's groups are not in order")
        starts = list(accumulate(sizes, initial=0))
        # a group of one event whose seq is its id is kept as that id alone (each
        # group's first seq: None past the end, for a last group that holds nothing)
        firsts = map([*seqs, None].__getitem__, starts[:-1])
        single = list(map(and_, map(eq, sizes, repeat(1)), map(eq, firsts, ids)))
        ones = array("q", alone)
        if any(single):  # (not as this table writes them: taken all the same)
            ones = array("q", sorted([*alone, *compress(ids, single)]))
            if any(map(ge, ones, ones[1:])):
                raise ValueError("the timeline's groups are not in order")
        rest = map(not_, single)
        lists: dict[int, list[T]] = {
            grp: seqs[a:b]  # type: ignore[misc]
            for grp, a, b in compress(zip(ids, starts[:-1], starts[1:], strict=True), rest)
        }
        if not lists.keys().isdisjoint(ones):
            raise ValueError("a group given twice")
        self._ones, self._lists = ones, lists

    def covers(self, grps: Iterable[int]) -> bool:
        """True when every one of ``grps`` is a group here."""
        return not set(grps).difference(self._ones, self._lists)

    def copy(self) -> Groups[T]:
        """An independent copy (each list copied)."""
        out: Groups[T] = Groups()
        out._ones = array("q", self._ones)
        out._lists = {grp: list(group) for grp, group in self._lists.items()}
        return out


class _Items(ItemsView[int, list[T]]):
    _mapping: Groups[T]

    def __iter__(self) -> Iterator[tuple[int, list[T]]]:
        return self._mapping._pairs()


class _Values(ValuesView[list[T]]):
    _mapping: Groups[T]

    def __iter__(self) -> Iterator[list[T]]:
        return (group for _grp, group in self._mapping._pairs())
