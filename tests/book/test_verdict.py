"""The verdict (issue 22): a scenario's Victory Conditions, entered once, judged live.

Six condition sets in the shapes real cards use (CVP threshold, Casualty Cap, more CVP
than the other side, Exit VP, Location control, a combination), each played through
the core (``execute`` on a game; through the CLI: tests/cli/test_verdict_cli.py), with the
verdict worked out by hand in each case's comment. Then what a verdict must also do:
undo, strike previews, exports, refusals, the snapshot.
"""

from __future__ import annotations

import msgspec
import pytest

from stockade.core.book import tally as tallying
from stockade.core.book.change import consequences, totals_of
from stockade.core.book.game import Game
from stockade.core.book.verdict import Verdict
from stockade.core.commands import execute
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal
from stockade.core.reads import tally_formats
from tests.book.kit import SETUP, SHAPES, Shape


def _verdict(game: Game) -> Verdict | None:
    """The verdict the tally holds (as its JSON object), read back as the typed one."""
    held = tallying.tally(game.state).verdict
    return None if held is None else msgspec.convert(held, Verdict)


SIDES = [ev.SideSpec("German", "German"), ev.SideSpec("Russian", "Russian")]


def _core(shape: Shape) -> Game:
    game = Game.in_memory("Shapes", SIDES)
    execute(game, f"vc {shape.vc}")
    for line in SETUP + shape.lines:
        execute(game, line)
    return game


@pytest.mark.parametrize("shape", SHAPES, ids=[s.name for s in SHAPES])
def test_each_card_shape_is_judged_through_the_core(shape):
    game = _core(shape)
    verdict = _verdict(game)
    assert verdict is not None
    assert (verdict.result, verdict.because, verdict.immediate) == (
        shape.result,
        shape.because,
        shape.immediate,
    )
    lead = f"{shape.result} now" if shape.immediate else f"if the game ended now: {shape.result}"
    assert verdict.headline.startswith(lead)


def test_before_the_condition_is_met_the_verdict_says_what_is_missing():
    game = Game.in_memory("T", SIDES)
    for line in ["vc German wins at end if amassed >= 6", *SETUP, "eliminate r1 by enemy"]:
        execute(game, line)
    verdict = _verdict(game)
    assert verdict is not None
    # one side's conditions only: the other side wins when they are not met
    assert verdict.result == "Russian win"
    assert verdict.clauses[0].any_of[0][0].missing == "4 more CVP amassed by German"
    assert "German win needs 4 more CVP amassed by German" in verdict.headline


def test_an_immediate_win_is_announced_by_the_write_and_the_game_may_then_end():
    game = Game.in_memory("T", SIDES)
    for line in ["vc Russian loses immediately if suffered >= 4", *SETUP]:
        execute(game, line)
    quiet = execute(game, "eliminate r1 by enemy").change
    assert quiet is not None and quiet.verdict is None  # still a Russian win
    loud = execute(game, "eliminate r2 by enemy").change
    assert loud is not None and loud.verdict is not None
    assert (loud.verdict.before, loud.verdict.after) == ("Russian win", "German win (immediately)")
    said = consequences(loud, totals_of(tallying.tally(game.state)))
    assert said[0].startswith("verdict: Russian win -> German win (immediately): German win now")
    ended = execute(game, "end").change
    assert ended is not None and ended.verdict is not None
    assert ended.verdict.after == "German win"
    assert _verdict(game).headline.startswith("game over: German win")
    execute(game, "undo")  # the end is an entry like any other
    assert not game.state.ended


def test_a_strike_preview_names_the_change_of_verdict():
    game = _core(SHAPES[0])  # German win on 6 CVP; entry 9 is the surrender
    surrender = next(r.seq for r in game.records if isinstance(r, ev.Surrendered))
    change = game.preview_strike(surrender)
    assert change.verdict is not None
    assert (change.verdict.before, change.verdict.after) == ("German win", "Russian win")
    said = consequences(change, totals_of(tallying.tally(game.state)))
    assert said[0].startswith("would turn the verdict from German win to Russian win")
    assert _verdict(game).result == "German win"


def test_conditions_control_and_exits_are_entries_undo_takes_back():
    game = Game.in_memory("T", SIDES)
    for line in ["vc German wins if amassed >= 2", *SETUP]:
        execute(game, line)
    execute(game, "vc Russian wins if controls P4")
    assert game.state.vc.conditions.clauses[0].side == "Russian"
    execute(game, "control P4 Russian")
    execute(game, "exit g1 off east")
    assert game.state.units["g1"].status == "exited"
    assert game.state.vc.exit_vp("German") == 2
    execute(game, "undo")
    assert game.state.units["g1"].status == "active" and list(game.state.vc.exits) == []
    execute(game, "undo")
    assert game.state.vc.controller("P4") == ""
    execute(game, "undo")
    assert game.state.vc.conditions.clauses[0].side == "German"
    execute(game, "vc none")
    assert game.state.vc.conditions is None
    assert _verdict(game) is None


def test_a_guard_exits_with_its_prisoners_and_they_count_double_at_once():
    game = Game.in_memory("T", SIDES)
    for line in [*SETUP, "phase RtPh 1 German", "break r1", "surrender r1 to g1"]:
        execute(game, line)
    with pytest.raises(Refusal) as refused:  # A20.53: only in the captor's MPh/APh
        execute(game, "exit g1 off east")
    assert refused.value.rule == "A20.53"
    execute(game, "phase MPh 2 German")
    execute(game, "exit g1 off east")
    state = game.state
    assert state.units["r1"].status == "escorted"
    line = state.casualties[-1]
    assert (line.unit, line.multiplier, line.rule, line.credited) == ("r1", 2, "A20.53", "German")
    assert state.vc.exit_vp("German", "east") == 2  # the Guard is not eliminated: it exits


@pytest.mark.parametrize(
    "line,words",
    [
        ("vc Italian wins if amassed >= 2", "no side 'Italian'"),
        ("vc German wins if amassed about 2", "say MEASURE OP NUMBER or SIDE"),
        ("vc German wins if morale >= 2", "'morale' is neither a side nor a measure"),
        ("vc German wins if German morale >= 2", "'morale' is not a measure"),
        ("vc German triumphs if amassed >= 2", "say 'wins' or 'loses'"),
        ("vc German wins amassed >= 2", "the condition starts with 'if'"),
        ("vc German wins if controls 4 of P4 Q5", "4 of 2 Locations cannot be met"),
        ("vc German wins if amassed >= 2 and", "a test is missing around 'and'"),
        ("control P4 Italian", "no side 'Italian'"),
        ("exit g1 vp many", "must be a whole number, not 'many'"),
    ],
)
def test_bad_conditions_are_refused_in_plain_words_and_nothing_is_recorded(line, words):
    game = Game.in_memory("T", SIDES)
    for setup in SETUP:
        execute(game, setup)
    before = len(game.records)
    with pytest.raises(Refusal) as refused:
        execute(game, line)
    assert words in str(refused.value)
    assert len(game.records) == before


def test_exit_refuses_units_off_the_board_and_a_vehicle_without_its_vp():
    game = Game.in_memory("T", SIDES)
    for line in [*SETUP, "eliminate g1 by enemy", "add German PzIV vehicle cvp=0"]:
        execute(game, line)
    with pytest.raises(Refusal, match="only units on the board exit"):
        execute(game, "exit g1")
    handle = next(h for h, u in game.state.units.items() if u.unit_kind == "vehicle")
    with pytest.raises(Refusal, match="give its Exit VP"):
        execute(game, f"exit {handle}")
    execute(game, f"exit {handle} vp 4")
    assert game.state.vc.exit_vp("German") == 4


def test_conditions_and_control_may_be_set_after_the_end_but_not_an_exit():
    game = Game.in_memory("T", SIDES)
    for line in [*SETUP, "end", "vc Russian wins if controls P4", "control P4 Russian"]:
        execute(game, line)
    assert _verdict(game).headline.startswith("game over: Russian win")
    with pytest.raises(Refusal, match="the game has ended"):
        execute(game, "exit g1")


def test_every_export_carries_the_verdict_and_a_game_without_conditions_none():
    game = _core(SHAPES[5])
    t = tallying.tally(game.state)
    head = "if the game ended now: German win (German Exit VP 4 &gt;= 4)"
    assert "Verdict: " + head.replace("&gt;", ">") in tallying.to_text(t)
    assert "German Exit VP 4 >= 4" in tallying.to_markdown(t).replace("\\", "")
    assert head in tallying.to_html(t)
    assert "[b]Verdict: if the game ended now: German win" in tally_formats.to_bbcode(t)
    rows = tally_formats.to_csv(t).splitlines()
    assert any(",verdict," in row and "German win" in row for row in rows)
    assert tallying.to_json(t)["verdict"]["winner"] == "German"
    plain = Game.in_memory("T", SIDES)
    assert "verdict" not in tallying.to_json(tallying.tally(plain.state))
    assert "Verdict" not in tallying.to_text(tallying.tally(plain.state))


def test_the_snapshot_cache_keeps_the_conditions_exits_and_control(tmp_path, monkeypatch):
    from bench.generate import generate, write_log
    from stockade.core.log import snap_sizes

    monkeypatch.setenv("STOCKADE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(snap_sizes, "MIN_EVENTS", 200)
    monkeypatch.setattr(snap_sizes, "TAIL", 30)
    game = generate(300, seed=4)
    side = next(iter(game.state.sides))
    execute(game, f"vc {side} wins if controls P4 or vp >= 1")
    execute(game, f"control P4 {side}")
    execute(game, f"add {side} 4-6-7 as zx1")
    execute(game, "exit zx1 off east")
    for _ in range(40):  # the snapshot stands TAIL entries before the end
        execute(game, "next")
    path = tmp_path / "g.jsonl"
    write_log(game, path)
    first = Game.open(path, read_only=True)  # folds all, writes the snapshot
    again = Game.open(path, read_only=True)
    assert again.projection.snap_position > 0  # really read from the snapshot
    assert again.state.vc == first.state.vc == game.state.vc
    assert again.state.vc.exits and again.state.vc.control


def test_an_immediate_condition_counts_guarded_prisoners_double():
    """Meeting it ends the game now, and at that end a guarded prisoner is double
    (A20.1): r1 eliminated 2 + r2 guarded 2 x 2 = 6 >= 6, though only 2 are banked."""
    game = Game.in_memory("T", SIDES)
    lines = ["vc German wins immediately if amassed >= 6", *SETUP, "eliminate r1 by enemy"]
    for line in [*lines, "phase RtPh 1 German", "break r2", "surrender r2 to g1"]:
        execute(game, line)
    verdict = _verdict(game)
    assert verdict is not None and verdict.immediate
    assert verdict.because == "German CVP amassed 6 >= 6, immediately"


def test_no_clause_met_is_a_draw_when_both_sides_have_conditions_unless_otherwise():
    game = Game.in_memory("T", SIDES)
    vc = "vc German wins if amassed >= 2; Russian wins if controls P4"
    for line in [vc, *SETUP]:
        execute(game, line)
    verdict = _verdict(game)
    assert verdict is not None and verdict.result == "draw"
    assert "Russian control of 1 more of P4 (nobody)" in verdict.because  # never set
    execute(game, f"{vc}; otherwise Russian")
    assert _verdict(game).result == "Russian win"


def test_when_several_clauses_are_met_an_immediate_one_wins_then_card_order():
    game = Game.in_memory("T", SIDES)
    for line in [*SETUP, "control P4 German", "control P5 Russian"]:
        execute(game, line)
    execute(game, "vc German wins if controls P4; Russian wins if controls P5")
    assert _verdict(game).winner == "German"
    execute(game, "vc German wins if controls P4; Russian wins immediately if controls P5")
    assert _verdict(game).winner == "Russian"


def _key(game: Game) -> str:
    verdict = _verdict(game)
    return "" if verdict is None else verdict.key


def test_every_write_reports_exactly_the_verdict_shift_the_whole_tally_shows():
    """The Change judges the verdict from one CVP sum and its own CVP delta: it must
    say what two whole tallies, before and after, say."""
    game = Game.in_memory("T", SIDES)
    steps = [
        "vc German wins at end if amassed >= 4; Russian loses immediately if suffered >= 6",
        *SETUP,
        "eliminate r1 by enemy",
        "phase RtPh 1 German",
        "break r2",
        "surrender r2 to g1",  # German 2 + 4 if ended: a German win
        "undo",
        "redo",
        "strike 12",  # the surrender: German back to 2
        "unstrike 12",
        "strike 9",  # r1's elimination
        "unstrike 9",
        "eliminate r3 by enemy",
        "end",
        "undo",
        "vc none",
        "undo",
    ]
    shifts = 0
    for line in steps:
        before = _key(game)
        change = execute(game, line).change
        assert change is not None, line
        after = _key(game)
        if before == after:
            assert change.verdict is None, line
        else:
            assert change.verdict is not None, line
            assert (change.verdict.before, change.verdict.after) == (before, after), line
            shifts += 1
    assert shifts >= 6


def test_the_quick_cvp_sum_is_the_tallys(tmp_path):
    from bench.generate import generate
    from stockade.sample_games import catalog

    states = [catalog.open_state(catalog.log_path(n)) for n in catalog.names()]
    states.append(generate(2000, seed=5).state)
    for state in states:
        t = tallying.tally(state)
        assert tallying.cvp_if_ended(state) == {n: s.cvp_if_ended for n, s in t.sides.items()}


def test_the_verdict_as_it_stood_after_an_earlier_entry(tmp_path, capsys):
    """``tally --at N`` and replay read a view of the state then: the conditions,
    control and exits as they were."""
    game = Game.in_memory("T", SIDES)
    for line in ["vc German wins if controls P4", *SETUP, "control P4 German", "exit g1"]:
        execute(game, line)
    control_seq = next(r.seq for r in game.records if isinstance(r, ev.LocationControlled))
    then = tallying.tally(game.state_at(control_seq - 1)).verdict
    assert then is not None and then["result"] == "Russian win" and then["control"] == {}
    now = tallying.tally(game.state_at(control_seq)).verdict
    assert now is not None and now["result"] == "German win" and now["exit_vp"]["German"] == 0
    assert tallying.tally(game.state_at(1)).verdict is None  # before the conditions


def test_the_cards_own_phrasing_reads_as_the_terse_form():
    from stockade.core.commands.handles import Context
    from stockade.core.commands.verbs_victory import read_conditions

    state = Game.in_memory("T", SIDES).state
    side_of = Context(state).side
    for card, terse in [
        (
            "Germans win at game end if they have amassed >= 20 CVP",
            "German wins at end if amassed >= 20",
        ),
        (
            "Russians win immediately upon amassing >= 15 CVP",
            "Russian wins immediately if amassed >= 15",
        ),
        (
            "Russians lose immediately upon suffering >= 12 CVP",
            "Russian loses immediately if suffered >= 12",
        ),
    ]:
        assert read_conditions(card, side_of).clauses[0].any_of == (
            read_conditions(terse, side_of).clauses[0].any_of
        ), card
        said, plain = (
            read_conditions(card, side_of).clauses[0],
            read_conditions(terse, side_of).clauses[0],
        )
        assert (said.side, said.loses, said.when) == (plain.side, plain.loses, plain.when)
