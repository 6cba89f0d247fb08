"""The clock follows the entries: an entry that belongs to a later phase of this Player
Turn moves the clock there in the same entry (one undo takes both back), and says so;
it never crosses into another Player Turn by itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from stockade.core.book.game import Game
from stockade.core.cli import main
from stockade.core.commands import execute
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def log(tmp_path, capsys) -> Path:
    """American squad a1 in Q4 beside a broken German 4-6-7 g1 in Q5; American MPh."""
    path = tmp_path / "game.jsonl"
    argv = [
        "new",
        path,
        "--scenario",
        "T",
        "--side",
        "American:American",
        "--side",
        "German:German",
    ]
    assert cli(capsys, *argv)[0] == 0
    script = tmp_path / "setup.txt"
    script.write_text(
        "add American 6-6-6 at Q4\nadd German 4-6-7 at Q5 broken\nadd German 9-1 at R9\n"
        "phase MPh 2 American\n"
    )
    assert cli(capsys, "run", path, script)[0] == 0
    return path


def _state(path: Path):
    game = Game.open(path, read_only=True)
    try:
        return game.state, game.records
    finally:
        game.close()


def test_do_surrender_in_the_mph_is_a_rtph_surrender_and_moves_the_clock(log, capsys):
    code, out, err = cli(capsys, "do", log, "surrender g1 to a1")
    assert code == 0, err
    assert "MPh -> RtPh" in out and "A20.21" in out
    # one line of the app's status at 80 columns: the entry's sentence follows it there
    assert len(out.splitlines()[0]) <= 76, out.splitlines()[0]
    state, records = _state(log)
    assert (state.turn, state.attacker, state.phase) == (2, "American", "RtPh")
    phase, surrender = records[-2:]
    assert isinstance(phase, ev.PhaseSet) and phase.phase == "RtPh"
    assert isinstance(surrender, ev.Surrendered) and surrender.reason == "rtph"
    assert phase.grp == surrender.grp  # one entry
    assert state.units["g1"].guard == "a1"


def test_one_undo_takes_back_the_entry_and_the_clock(log, capsys):
    assert cli(capsys, "do", log, "surrender g1 to a1")[0] == 0
    assert cli(capsys, "do", log, "undo")[0] == 0
    state, _ = _state(log)
    assert state.phase == "MPh" and state.units["g1"].guard is None


def test_run_moves_the_clock_too(log, tmp_path, capsys):
    script = tmp_path / "s.txt"
    script.write_text("surrender g1 to a1\n")
    code, out, _ = cli(capsys, "run", log, script)
    assert code == 0 and "MPh -> RtPh" in out
    assert _state(log)[0].phase == "RtPh"


def test_a_transfer_typed_in_the_rtph_moves_to_the_aph(log, capsys):
    assert cli(capsys, "do", log, "add American 4-4-7 at Q4")[0] == 0
    assert cli(capsys, "do", log, "surrender g1 to a1")[0] == 0
    code, out, err = cli(capsys, "do", log, "transfer g1 to a2")
    assert code == 0, err
    assert "RtPh -> APh" in out and "A20.5" in out
    state, _ = _state(log)
    assert state.phase == "APh" and state.units["g1"].guard == "a2"


def test_the_clock_never_goes_back_or_crosses_a_player_turn(log, capsys):
    game = Game.open(log)
    try:
        execute(game, "add American 4-4-7 at Q4")
        execute(game, "surrender g1 to a1")
        execute(game, "next")  # APh
        execute(game, "next")  # CCPh
        with pytest.raises(Refusal) as refused:
            execute(game, "transfer g1 to a2")  # the APh is behind; the next is German
        assert refused.value.rule == "A20.5"
        assert game.state.phase == "CCPh"
    finally:
        game.close()


def test_an_entry_of_the_phase_now_does_not_move_the_clock(log, capsys):
    game = Game.open(log)
    try:
        execute(game, "phase RtPh")
        outcome = execute(game, "surrender g1 to a1")
        assert "->" not in outcome.message
        assert [type(r) for r in outcome.records] == [ev.Surrendered]
    finally:
        game.close()


def test_skip_stops_at_the_next_phase_where_a20_has_something_waiting(log):
    game = Game.open(log)
    try:
        outcome = execute(game, "skip")  # MPh -> RtPh: g1 is broken and may surrender
        assert game.state.phase == "RtPh" and "new Player Turn" not in outcome.message
        execute(game, "surrender g1 to a1")
        execute(game, "skip")  # a1 guards g1: the APh (transfer, A20.5)
        assert game.state.phase == "APh"
        execute(game, "break a1")
        execute(game, "skip")  # its Guard broken, g1 may attempt escape in the CCPh (A20.55)
        assert game.state.phase == "CCPh"
    finally:
        game.close()


def test_skip_passes_a_ccph_where_no_prisoner_may_escape(tmp_path, capsys):
    """Italians will not attempt escape unless abandoned (A20.55): with only an
    Italian prisoner, nothing of A20 waits in the American CCPh."""
    path = tmp_path / "game.jsonl"
    sides = ["--side", "American:American", "--side", "Italian:Italian"]
    assert cli(capsys, "new", path, "--scenario", "T", *sides)[0] == 0
    script = tmp_path / "setup.txt"
    script.write_text(
        "add American 6-6-6 at Q4\nadd Italian 3-4-7 sq at Q5 broken\nphase MPh 2 American\n"
        "surrender i1 to a1\n"
    )
    assert cli(capsys, "run", path, script)[0] == 0
    game = Game.open(path)
    try:
        execute(game, "skip")  # the APh: a1 may transfer i1 (A20.5)
        assert game.state.phase == "APh"
        execute(game, "skip")
        assert (game.state.attacker, game.state.phase) == ("Italian", "RPh")
    finally:
        game.close()


def test_a_player_turn_where_nothing_a20_happens_costs_one_skip(log):
    game = Game.open(log)
    try:
        execute(game, "eliminate g1")
        outcome = execute(game, "skip")  # nothing waits: the German Player Turn
        assert (game.state.attacker, game.state.phase) == ("German", "RPh")
        assert outcome.message.startswith("new Player Turn: Turn 2, German RPh")
        execute(game, "skip")
        assert (game.state.turn, game.state.attacker, game.state.phase) == (3, "American", "RPh")
    finally:
        game.close()


def test_judged_in_is_the_state_or_a_view_in_the_phase_the_clock_follows_to():
    """What the pick lists check against: the state itself when the phase now will do;
    else a view in the later phase, sharing the units and the live state's tracker,
    that leaves the state's own clock where it is."""
    from stockade.core.book.game import Game
    from stockade.core.commands import execute
    from stockade.core.model import events as ev
    from stockade.core.rules.timing import judged_in

    game = Game.in_memory(
        "t", [ev.SideSpec("British", "British", 3), ev.SideSpec("German", "German", 3)]
    )
    for line in ["add British 4-5-8 at R5", "add German 4-6-7 at R5", "phase APh 1 British"]:
        execute(game, line)
    state = game.state
    capture = ev.Captured(guard="b1", units=["g1"])
    view = judged_in(state, [capture])
    assert view is not state and view.phase == "CCPh" and state.phase == "APh"
    assert view.units is state.units and view.tracker is state.tracker
    assert judged_in(state, [ev.StatusChanged(handle="b1", pinned=True)]) is state
    execute(game, "phase CCPh 1 British")
    assert judged_in(game.state, [capture]) is game.state


def test_end_goes_on_to_the_ccph_of_this_player_turn_in_one_entry(log, capsys):
    code, out, err = cli(capsys, "do", log, "end")
    assert code == 0, err
    assert "MPh -> CCPh" in out and "the scenario ends after the CCPh" in out
    state, records = _state(log)
    assert (state.phase, state.turn, state.attacker, state.ended) == ("CCPh", 2, "American", True)
    assert [type(r) for r in records[-2:]] == [ev.PhaseSet, ev.GameEnded]
    assert records[-1].grp == records[-2].grp  # one undo takes both back


def test_end_now_ends_the_game_where_the_clock_is(log, capsys):
    code, out, err = cli(capsys, "do", log, "end now")
    assert code == 0, err
    assert "->" not in out
    state, records = _state(log)
    assert (state.phase, state.ended) == ("MPh", True)
    assert isinstance(records[-1], ev.GameEnded)
    assert records[-1].grp != records[-2].grp  # an entry of its own: no clock move


def test_skip_passes_an_mph_where_the_hints_offer_no_recapture(log):
    """A guarded prisoner is freed by attacking its Guard, not recaptured by entering
    (A20.54 recaptures unarmed units): the hints offer nothing in the German MPh, and
    ``skip`` goes on to the CCPh, where g1 may attempt escape (A20.55)."""
    from stockade.core.reads.may import phase_hints

    game = Game.open(log)
    try:
        execute(game, "surrender g1 to a1")
        # the APh (transfer), the CCPh (g1 may attempt escape, A20.55), the German RPh
        for _ in range(3):
            execute(game, "skip")
        assert (game.state.attacker, game.state.phase) == ("German", "RPh")
        execute(game, "skip")
        assert (game.state.attacker, game.state.phase) == ("German", "CCPh")
        execute(game, "phase MPh 2 German")
        assert not any("recapture" in h for h in phase_hints(game.state))
    finally:
        game.close()


def _skip_from_the_mph(log: Path, *lines: str) -> tuple[str, str]:
    game = Game.open(log)
    try:
        for line in lines:
            execute(game, line)
        execute(game, "skip")
        return game.state.attacker, game.state.phase
    finally:
        game.close()


def test_skip_passes_a_rtph_where_no_broken_unit_may_surrender(log):
    # A20.21: a Fanatic unit never surrenders via the RtPh; g1 is the only broken one
    moved = _skip_from_the_mph(log, "add German 4-6-8 at Q5 broken +fanatic", "eliminate g1")
    assert moved == ("German", "RPh")


def test_skip_passes_a_rtph_under_no_quarter(log):
    # A20.3: the Americans invoked No Quarter; their enemies never surrender to them
    assert _skip_from_the_mph(log, "nq American") == ("German", "RPh")


def test_skip_passes_a_rtph_with_no_captor(log):
    # A20.21: a broken captor cannot accept a surrender (and the German 9-1 is gone)
    assert _skip_from_the_mph(log, "break a1", "eliminate g2") == ("German", "RPh")


def test_skip_still_stops_at_a_rtph_where_one_may_surrender(log):
    assert _skip_from_the_mph(log, "add German 4-6-8 at Q5 broken +fanatic") == (
        "American",
        "RtPh",
    )


def test_a_clock_that_passes_a_phase_names_what_a20_had_waiting_there(log, capsys):
    """A CC capture typed in the MPh moves the clock to the CCPh past the RtPh, where
    the broken g1 may surrender: the reply names g1 and the rule, not "something"."""
    assert cli(capsys, "do", log, "add German 4-6-7 at Q4")[0] == 0
    code, out, err = cli(capsys, "do", log, "capture g3 by a1")
    assert code == 0, err
    (clock,) = [line for line in out.splitlines() if line.startswith("clock: ")]
    assert "MPh -> CCPh" in clock and "something waiting" not in clock
    assert "passed RtPh, where g1 may surrender (A20.21); prev goes back" in clock


def test_what_a20_has_waiting_names_the_unit_and_its_rule(log):
    from stockade.core.reads.may import waiting_in

    game = Game.open(log)
    try:
        state = game.state
        assert str(waiting_in(state, "RtPh")) == "RtPh, where g1 may surrender (A20.21)"
        assert waiting_in(state, "APh") is None  # no Guard yet
        execute(game, "surrender g1 to a1")
        waiting = waiting_in(game.state, "APh")
        assert waiting is not None and (waiting.what, waiting.rule) == (
            "a1 may transfer or abandon",
            "A20.5",
        )
        execute(game, "break a1")  # its Guard broken: g1 may attempt escape (A20.55)
        waiting = waiting_in(game.state, "CCPh")
        assert waiting is not None and waiting.what == "g1 may attempt escape from a1"
        assert waiting.rule == "A20.55"
    finally:
        game.close()


def test_skip_stops_at_the_ccph_where_the_hints_offer_an_escape(log, capsys):
    """g1, a German prisoner of a Good Order a1 with no German armed unit beside them,
    may attempt escape in the German CCPh, the escape implying a1 broken (A20.55): the
    hints say so there, so ``skip`` from the German DFPh stops there, not in the next
    Player Turn."""
    from stockade.core.reads.may import phase_hints

    for line in ("surrender g1 to a1", "phase DFPh 2 German"):
        code, _, err = cli(capsys, "do", log, line)
        assert code == 0, err
    code, out, err = cli(capsys, "do", log, "skip")
    assert code == 0, err
    assert out.startswith("Turn 2, German CCPh"), out
    state = _state(log)[0]
    assert any("g1 (German) may attempt escape" in h for h in phase_hints(state))


def test_an_undo_names_the_entry_the_player_made_and_the_clock_move_with_it(log, capsys):
    """A surrender typed in the MPh is recorded after the clock's move to the RtPh, in
    one entry: the undo (and the redo) names the surrender by its own number first, and
    the clock's move as what came with it; the history's line says the same."""
    assert cli(capsys, "do", log, "surrender g1 to a1")[0] == 0
    clock, surrender = _state(log)[1][-2:]
    assert isinstance(clock, ev.PhaseSet) and isinstance(surrender, ev.Surrendered)
    code, out, err = cli(capsys, "do", log, "undo")
    assert code == 0, err
    assert out.startswith(
        f"undone: entry {surrender.seq} (German 4-6-7 (g1) surrendered to American 6-6-6 "
        f"(a1) in Q4 [A20.21]), with its clock move (entry {clock.seq}: Turn 2, American RtPh)"
    ), out
    code, out, err = cli(capsys, "do", log, "redo")
    assert code == 0, err
    assert out.startswith(f"redone: entry {surrender.seq} (German 4-6-7 (g1) surrendered"), out
    assert "board facts it implied" not in out  # a clock move is no implied fact
    code, out, err = cli(capsys, "history", log)
    assert code == 0, err
    with_it = f"entry {surrender.seq}, with its clock move (entry {clock.seq})"
    assert f"undo of {with_it}" in out and f"redo of {with_it}" in out, out
