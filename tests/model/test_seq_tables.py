"""The compact tables by seq answer as the dicts they stand for, whatever the order of
their writes (the fold's rising seqs, a snapshot's names out of order, a trial's
rewrites), and hold a seq in 16 bytes, not a dict slot and an int."""

from __future__ import annotations

import tracemalloc

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stockade.core.model.names import NamesBySeq
from stockade.core.model.seq_tables import Groups, SeqTable

seqs = st.integers(min_value=1, max_value=60)
writes = st.lists(st.tuples(seqs, st.integers()), max_size=40)


@given(writes, st.lists(writes, max_size=3), st.lists(seqs, max_size=5))
def test_a_seq_table_answers_as_a_dict(puts, updates, deletes):
    table: SeqTable[int] = SeqTable()
    plain: dict[int, int] = {}
    for seq, value in puts:
        table[seq] = value
        plain[seq] = value
    for pairs in updates:
        table.update(pairs)
        plain.update(pairs)
        table.update(dict(pairs))
    for seq in deletes:
        if seq in plain:
            del table[seq], plain[seq]
    assert dict(table) == plain and table == plain and len(table) == len(plain)
    assert list(table) == sorted(plain)
    for seq in range(62):
        assert table.get(seq, "none") == plain.get(seq, "none")
        assert (seq in table) == (seq in plain)


name = st.tuples(st.sampled_from("abc"), st.just("Germans 4-6-7"), st.sampled_from(["A1", "B2"]))


@given(st.lists(st.tuples(seqs, st.lists(name, max_size=3).map(tuple)), max_size=30))
def test_names_by_seq_give_out_what_was_put_in(puts):
    table = NamesBySeq()
    plain: dict = {}
    for seq, names in puts:
        table[seq] = names
        plain[seq] = names
    assert dict(table) == plain
    restored = NamesBySeq()
    restored.update(dict(reversed(list(plain.items()))))  # out of order, as a snapshot's
    assert dict(restored) == plain


group_writes = st.lists(st.tuples(st.integers(min_value=1, max_value=30), seqs), max_size=40)


@given(group_writes, st.lists(st.integers(min_value=1, max_value=30), max_size=4))
def test_groups_answer_as_a_dict_of_lists(adds, empties):
    groups: Groups[int] = Groups()
    plain: dict[int, list[int]] = {}
    for grp, item in adds:
        opened = groups.add(grp, item)
        assert opened == (grp not in plain)
        plain.setdefault(grp, []).append(item)
    for grp in empties:
        groups[grp] = []
        plain[grp] = []
    assert dict(groups) == plain and dict(groups.items()) == plain
    assert list(groups) == sorted(plain) and len(groups) == len(plain)
    assert list(groups.values()) == [plain[g] for g in sorted(plain)]
    for grp in range(32):
        assert groups.get(grp) == plain.get(grp) and (grp in groups) == (grp in plain)
    assert groups.flat(sorted(plain)) == [i for g in sorted(plain) for i in plain[g]]
    copied = groups.copy()
    groups.add(31, 31)
    assert dict(copied) == plain
    # loaded from a snapshot's columns: the same groups, the same answers
    ids = sorted(plain)
    for alone, rest in (([], ids), (copied.parts()[0].tolist(), sorted(copied.parts()[1]))):
        loaded: Groups[int] = Groups()
        loaded.load(alone, rest, [len(plain[g]) for g in rest], [i for g in rest for i in plain[g]])
        assert dict(loaded) == plain and list(loaded) == ids and len(loaded) == len(plain)
        assert loaded.flat(ids) == copied.flat(ids)
        assert loaded.covers(ids) and not loaded.covers([*ids, 40])


def test_groups_loaded_from_columns_that_do_not_fit_are_refused():
    with pytest.raises(ValueError, match="do not add up"):
        Groups[int]().load([], [1, 2], [1, 1], [1])
    with pytest.raises(ValueError, match="not in order"):
        Groups[int]().load([], [2, 1], [1, 1], [2, 1])
    with pytest.raises(ValueError, match="not in order"):
        Groups[int]().load([3, 2], [], [], [])
    with pytest.raises(ValueError, match="not in order"):  # a group alone twice
        Groups[int]().load([2], [2], [1], [2])
    with pytest.raises(ValueError, match="given twice"):
        Groups[int]().load([2], [2], [2], [2, 5])
    with pytest.raises(ValueError, match="empty"):
        filled: Groups[int] = Groups()
        filled.add(1, 1)
        filled.load([], [2], [1], [2])


def test_a_long_runs_tables_hold_a_few_bytes_an_entry():
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        when: SeqTable[tuple[int, str, str]] = SeqTable()
        groups: Groups[int] = Groups()
        shared = (1, "RPh", "Germans")
        for seq in range(1_000_000, 1_020_000):  # ints past the small ones, as a log's
            when[seq] = shared
            groups.add(seq, seq)
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held / 20_000 < 40, held / 20_000  # 26 here; 155 as a dict and a dict of lists


def test_a_table_loaded_from_columns_answers_as_one_filled_in_turn():
    filled: SeqTable[str] = SeqTable()
    for seq in (3, 5, 9):
        filled[seq] = f"v{seq}"
    loaded: SeqTable[str] = SeqTable()
    loaded.load([3, 5, 9], ["v3", "v5", "v9"])
    assert dict(loaded) == dict(filled) and loaded.get(5) == "v5" and 4 not in loaded
    for seqs, values in (([3, 3], ["a", "b"]), ([5, 3], ["a", "b"]), ([3], ["a", "b"])):
        with pytest.raises(ValueError, match="do not rise"):
            SeqTable[str]().load(seqs, values)
    with pytest.raises(ValueError, match="when empty"):
        filled.load([10], ["v10"])
