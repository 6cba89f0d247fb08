"""Mending an entry where it stands (``Game.amend``, ``amend N COMMAND``).

The issue's game: a transfer made 20 entries earlier to the wrong Guard (a2, where a3
took the prisoner). The elimination of a2 that the player typed with a takeover (a2
guarded the prisoner in the book), and the escort that took it off, were true of the
table in part. Amended, every later entry that still holds stays in place, the one
that holds in part keeps that part and says which, and the tally and verdict are the
ones of the game typed right the first time. The preview says exactly what the write
does and writes nothing; one undo takes the amendment back; the log reads the same
from disk.
"""

from __future__ import annotations

import pytest

from stockade.core.book.change import consequences, totals_of
from stockade.core.book.game import Game
from stockade.core.book.projection import Projection
from stockade.core.book.tally import cvp_if_ended, tally
from stockade.core.book.verdict import judge
from stockade.core.commands import execute, run_script
from stockade.core.commands.execute import amend
from stockade.core.model import events as ev
from stockade.core.model.errors import HistoryRefusal, InputRefusal, Refusal
from tests.rules.machine import dump

HEAD = [
    "vc American wins immediately if amassed >= 8; otherwise German",
    "add American 6-6-7 6-6-7 6-6-7 at Q4",
    "add German 4-6-7 4-6-7 at Q5 broken",
    "phase RtPh 1 American",
    "surrender g1 g2 to a1",
    "next",
]
FILL = ["move a1 R4", "move a1 Q4"] * 10  # 20 entries between the transfer and its fruit
TRANSFER = 11  # the transfer's entry number


def script(transfer: str, elimination: str) -> list[str]:
    return [
        *HEAD,
        transfer,
        *FILL,
        "next",
        "next",
        "next",  # the German PFPh: an elimination by fire is made in a fire phase (A7)
        elimination,
        "phase MPh 2 American",
        "escort a1",
    ]


def new_game(lines: list[str]) -> Game:
    game = Game.in_memory(
        "Amend", [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]
    )
    run_script(game, lines)
    return game


def wrong_game() -> Game:
    game = new_game(script("transfer g1 to a2", "eliminate a2 by enemy takeover a1"))
    assert isinstance(game.records[TRANSFER - 1], ev.Transferred)
    return game


def right_game() -> Game:
    return new_game(script("transfer g1 to a3", "eliminate a2 by enemy"))


def standing(game: Game) -> tuple:
    """What the players read: the tally, the verdict, every unit."""
    state = game.state
    verdict = judge(state, cvp_if_ended(state))
    return totals_of(tally(state)), verdict.key if verdict else "", dump(state)["units"]


def refolded(game: Game) -> dict:
    """The effective history folded from nothing: what the live fold must equal."""
    return dump(Projection(game.timeline.effective()).state)


def test_an_amended_transfer_20_entries_back_reads_as_if_typed_right():
    game, right = wrong_game(), right_game()
    later = [r.seq for r in game.projection.effective if r.seq > TRANSFER]
    assert len(later) >= 20
    assert standing(game)[0] != standing(right)[0]  # the mistake shows in the tally

    change = game.amend(TRANSFER, ev.Transferred(units=["g1"], to_guard="a3"))

    assert change.amended == [TRANSFER] and change.conflicts == 0
    assert [r.seq for r in game.projection.effective if r.seq > TRANSFER] == later
    assert standing(game) == standing(right)
    assert dump(game.state) == refolded(game)
    # the elimination holds in part, and says which part it lost
    elimination = next(x for x in change.later if x.in_part)
    assert elimination.in_part == "a2 eliminated; the takeover by a1 is dropped: a2 guards none now"
    # the entry reads as amended; the original stays in the log
    entry = game.history()[TRANSFER - 1]
    assert entry.amended_by == len(game.records) and entry.record.to_guard == "a3"
    assert isinstance(entry.was, ev.Transferred) and entry.was.to_guard == "a2"
    assert game.records[TRANSFER - 1].to_guard == "a2"


def test_the_preview_says_exactly_what_the_amendment_does_and_writes_nothing():
    game = wrong_game()
    before, n = dump(game.state), len(game.records)
    event = ev.Transferred(units=["g1"], to_guard="a3")
    preview = game.amend(TRANSFER, event, preview=True)
    assert preview.preview and len(game.records) == n and dump(game.state) == before
    said = consequences(preview, totals_of(tally(game.state)))
    change = game.amend(TRANSFER, event)
    strip = ("preview", "appended")
    assert {k: v for k, v in _fields(preview).items() if k not in strip} == {
        k: v for k, v in _fields(change).items() if k not in strip
    }
    # what changes, before anything is written: the elimination that holds in part,
    # the escort that takes one prisoner fewer, the CVP
    assert any("holds in part: a2 eliminated; the takeover by a1 is dropped" in s for s in said)
    assert any(
        s.startswith("entry 37 (") and "would change: no longer makes g1 escorted" in s
        for s in said
    )
    assert "American banked CVP 8 -> 4" in said
    assert [x.seq for x in preview.later] == [35, 37]


def _fields(change) -> dict:
    import msgspec

    return msgspec.structs.asdict(change)


def test_one_undo_takes_the_amendment_back_and_redo_puts_it_back():
    game = wrong_game()
    before = standing(game)
    game.amend(TRANSFER, ev.Transferred(units=["g1"], to_guard="a3"))
    amended = standing(game)
    undone = game.undo()
    assert undone.amended == [TRANSFER]
    assert standing(game) == before and dump(game.state) == refolded(game)
    entry = game.history()[TRANSFER - 1]
    assert entry.amended_by == 0 and entry.record.to_guard == "a2"
    game.redo()
    assert standing(game) == amended and dump(game.state) == refolded(game)


def test_undo_to_an_entry_before_the_amended_one_takes_the_amendment_back_too():
    game = wrong_game()
    game.amend(TRANSFER, ev.Transferred(units=["g1"], to_guard="a3"))
    preview = game.undo_to(TRANSFER - 1)
    assert preview.amended == [TRANSFER]
    assert dump(game.state) == refolded(game)
    assert all(r.seq < TRANSFER for r in game.projection.effective)


def test_a_later_amendment_stands_over_an_earlier_one():
    game = wrong_game()
    game.amend(TRANSFER, ev.Transferred(units=["g1"], to_guard="a3"))
    game.amend(TRANSFER, ev.Transferred(units=["g1"], to_guard="a2"))
    assert standing(game) == standing(wrong_game())
    game.undo()
    assert game.history()[TRANSFER - 1].record.to_guard == "a3"
    assert standing(game) == standing(right_game())
    assert dump(game.state) == refolded(game)


def test_a_struck_amended_entry_leaves_the_place_and_comes_back_amended():
    game = wrong_game()
    game.amend(TRANSFER, ev.Transferred(units=["g1"], to_guard="a3"))
    game.strike(TRANSFER)
    assert dump(game.state) == refolded(game)
    game.unstrike(TRANSFER)
    assert standing(game) == standing(right_game())


def test_the_log_reads_back_the_same_from_disk(tmp_path):
    path = tmp_path / "g.jsonl"
    game = Game.create(
        path, "Amend", [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]
    )
    run_script(game, script("transfer g1 to a2", "eliminate a2 by enemy takeover a1"))
    amend(game, TRANSFER, "transfer g1 to a3")
    live = dump(game.state)
    game.close()
    again = Game.open(path)
    try:
        assert dump(again.state) == live
        assert again.history()[TRANSFER - 1].amended_by == len(again.records)
        assert again.projection.partial  # the elimination holds in part, read back too
        assert again.undo().amended == [TRANSFER]
        assert standing(again)[0] == standing(wrong_game())[0]
    finally:
        again.close()


def test_striking_the_transfer_keeps_the_elimination_and_drops_the_takeover():
    """ "r9 eliminated; r7 takes over its prisoners" after the transfer to r9 is struck:
    the elimination stands; the takeover is dropped because r9 guards none."""
    game = wrong_game()
    change = game.strike(TRANSFER)
    assert change.conflicts == 0
    assert game.state.units["a2"].status == "eliminated"
    assert game.state.units["g1"].guard == "a1"  # a1 still holds it: never transferred
    [elimination] = [x for x in change.later if x.in_part]
    assert "takeover by a1 is dropped" in elimination.differences[0]


@pytest.mark.parametrize(
    ("line", "error", "words"),
    [
        ("amend 1 transfer g1 to a3", HistoryRefusal, "the game header cannot be amended"),
        ("amend 99 transfer g1 to a3", HistoryRefusal, "there is no entry 99"),
        ("amend 11 undo", InputRefusal, "not 'undo'"),
        ("amend 9", InputRefusal, "needs the entry number and what it should have been"),
        ("amend 11 transfer g1 to zz", InputRefusal, "no unit 'zz'"),
        ("amend 11 transfer g2 to a9", Refusal, ""),
    ],
)
def test_a_refused_amendment_writes_nothing(line, error, words):
    game = wrong_game()
    n, before = len(game.records), dump(game.state)
    with pytest.raises(error) as refused:
        execute(game, line)
    assert words in str(refused.value)
    assert len(game.records) == n and dump(game.state) == before


def test_the_amended_event_is_read_and_checked_where_it_stands():
    """The line is read against the game as it stood at the entry's place: a2 is
    eliminated now, but stood in Q4 when the transfer was made; a3 guarded nobody then."""
    game = wrong_game()
    with pytest.raises(Refusal, match="guards no prisoners"):
        execute(game, "amend 11 escort a3")
    execute(game, "amend 11 transfer g2 to a2")
    assert game.history()[TRANSFER - 1].record.units == ["g2"]
    execute(game, "strike 12")
    with pytest.raises(HistoryRefusal, match="entry 12 is struck"):
        execute(game, "amend 12 move a1 R5")


def test_the_bar_says_what_it_amended():
    game = wrong_game()
    outcome = execute(game, "amend 11 transfer g1 to a3")
    assert outcome.message.startswith("amended entry 11: German 4-6-7 (g1) transferred to ")
    assert "(was: German 4-6-7 (g1) transferred to American 6-6-7 (a2)" in outcome.message
    assert execute(game, "undo").message == "undone: entry 38 (the amendment of entry 11)"


def test_a_window_following_the_log_takes_in_amend_undo_and_redo(tmp_path):
    """The read-only second view (core/book/follow.py) folds an amendment, its undo and
    its redo from N's place as the writing window did."""
    from stockade.core.book.follow import GameFollower

    path = tmp_path / "g.jsonl"
    sides = [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]
    writer = Game.create(path, "Amend", sides)
    run_script(writer, script("transfer g1 to a2", "eliminate a2 by enemy takeover a1"))
    follower = GameFollower(path)
    try:
        for step in (
            lambda: amend(writer, TRANSFER, "transfer g1 to a3"),
            writer.undo,
            writer.redo,
        ):
            step()
            new, why = follower.poll()
            assert why == "" and len(new) == 1
            assert dump(follower.game.state) == dump(writer.state)
            assert dump(follower.game.state) == refolded(follower.game)
    finally:
        writer.close()


def test_the_replay_of_names_and_times_follows_amendments():
    """``names_then`` (entries worded from a replay of the log, as far as its last
    undo, redo, strike or amendment) holds, for every entry in effect, the time and
    names the live fold gave it."""
    from stockade.core.book.names_replay import NamesThen

    game = wrong_game()
    amend(game, TRANSFER, "transfer g1 to a3")
    game.undo()
    game.redo()
    run_script(game, ["move a3 R5"])
    game.strike(len(game.records))  # the replay reaches as far as the last control record
    then = NamesThen(list(game.records))
    for record in game.projection.effective:
        assert then.when.get(record.seq) == game.when[record.seq], record.seq
        assert then.of(record.seq) == game.names.of(record.seq), record.seq
