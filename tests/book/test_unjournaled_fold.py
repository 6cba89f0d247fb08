"""A fold that keeps no undo journal (``open_parts(..., undo=False)``, what a folding
``stockade tally`` opens with): it makes no undo entry for an entry that holds, and
folds to the very state, conflicts and partial entries of a fold that keeps them; an
undo or a view that reaches back later makes the journal then (``complete_journal``)
and sees what the journaled fold sees."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.generate import write_log
from stockade.core.book.game_parts import open_parts
from tests.book.state_kit import campaign_with_conflicts, dump

pytestmark = pytest.mark.xdist_group("test_unjournaled_fold")


@pytest.fixture(scope="module")
def log(tmp_path_factory) -> Path:
    """A campaign of 600 entries with surrenders struck until later entries no longer
    hold (conflicts) or hold in part."""
    game = campaign_with_conflicts(600)
    path = tmp_path_factory.mktemp("unjournaled") / "campaign.jsonl"
    write_log(game, path)
    return path


def _same_fold(a, b) -> None:
    assert dump(a.state) == dump(b.state)
    words = {seq: str(refusal) for seq, refusal in b.conflicts.items()}
    assert {seq: str(refusal) for seq, refusal in a.conflicts.items()} == words
    assert a.partial == b.partial
    assert a.when == b.when
    assert a.names.by_seq == b.names.by_seq


def test_a_fold_without_the_journal_makes_no_entry_and_folds_the_same(log):
    _s, _t, plain = open_parts(log, read_only=True, undo=False)
    _s, _t, kept = open_parts(log, read_only=True)
    assert len(plain.undo) == len(kept.undo) == len(plain.effective)
    assert sum(entry is not None for entry in plain.undo) == 0  # no entry made
    assert None not in kept.undo
    assert plain.conflicts  # the refused entries were folded as the journaled fold folds them
    _same_fold(plain, kept)


def test_a_view_or_an_undo_reaching_back_makes_the_journal_then(log):
    _s, _t, plain = open_parts(log, read_only=True, undo=False)
    _s, _t, kept = open_parts(log, read_only=True)
    for seq in (1, 57, 300, kept.seqs[-1] - 1):
        assert dump(plain.state_at(seq)) == dump(kept.state_at(seq))
    assert None not in plain.undo  # made whole by the first view that reached back
    _same_fold(plain, kept)
    plain.rollback(len(plain.seqs) // 2)
    kept.rollback(len(kept.seqs) // 2)
    _same_fold(plain, kept)
