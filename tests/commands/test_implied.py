"""Board facts an entry implies: recorded with the entry (one group, one undo) and said
in its reply; never over what the book holds for A20; a fact the players typed in an
earlier phase is offered, not overwritten; a strict game refuses as it always did."""

from __future__ import annotations

import pytest

from stockade.core.book.game import Game
from stockade.core.commands import execute, plan, run_script
from stockade.core.commands.implied import StaleBoardFact
from stockade.core.commands.verbs_setup import Break, Move
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal
from stockade.core.rules.board_facts import NEEDS

SETUP = [
    "add German 4-6-7 x3 at K4",
    "add German 4-6-8 +ss at K4",
    "add Russian 4-4-7 x2 at L5",
    "add Russian 4-4-7 at L4",
]


def new_game(strict: bool = False, lines: list[str] = SETUP) -> Game:
    game = Game.in_memory(
        "implied",
        [ev.SideSpec("German", "German", 3), ev.SideSpec("Russian", "Russian", 3)],
        strict=strict,
    )
    run_script(game, lines)
    return game


# Each row of the board-facts table, as an entry that needs its fact: the lines before
# it (for a strict game, with the board lines typed), the entry, the reply line it
# implies, and the rule a strict game refuses it with.
ADVANCED = ["phase APh", "move g1 L4", "capture r3 by g1"]
ROWS = [
    pytest.param(
        ev.Surrendered,
        [],
        [],
        "surrender r1 to g4",
        "implied: r1 broken (A20.21",
        "A20.21",
        id="surrender",
    ),
    pytest.param(
        ev.Surrendered,
        ["add German 4-6-7 at K5 broken"],
        ["add German 4-6-7 at K5 broken", "phase DFPh", "break r1"],
        "surrender r1 to g5",
        "implied: g5 Good Order (A20.21",
        "A20.21",
        id="surrender-captor",
    ),
    pytest.param(
        ev.SurrenderRejected,
        [],
        [],
        "reject g1 by Russian",
        "implied: g1 broken (A20.3",
        "A20.3",
        id="reject",
    ),
    pytest.param(
        ev.Captured,
        [],
        [],
        "capture r3 by g1",
        "implied: g1 is in L4 (A20.22",
        "A20.22",
        id="capture",
    ),
    pytest.param(
        ev.Captured,
        ["turn"],
        ["turn"],
        "capture g1 by r3",
        "implied: r3 is in K4 (A20.22",
        "A20.22",
        id="capture-by-defender",
    ),
    pytest.param(
        ev.Transferred,
        ["capture r3 by g1", "turn", "turn"],
        [*ADVANCED, "turn", "turn"],
        "transfer r3 to g2",
        "implied: g2 is in L4 (A20.5",
        "A20.5",
        id="transfer",
    ),
    pytest.param(
        ev.EscapeAttempted,
        ["capture r3 by g1", "turn"],  # not in the CCPh of its capture (A20.55)
        [*ADVANCED, "turn"],
        "escape r3 guard-dies",
        "implied: g1 broken (A20.55",
        "A20.55",
        id="escape",
    ),
    pytest.param(
        ev.Recaptured,
        ["capture r3 by g1", "turn", "turn", "abandon r3"],
        [*ADVANCED, "turn", "turn", "abandon r3"],
        "recapture r3 by g2",
        "implied: g2 is in L4 (A20.54",
        "A20.54",
        id="recapture",
    ),
    pytest.param(
        ev.Eliminated,
        ["capture r3 by g1", "turn"],
        [*ADVANCED, "turn"],
        "eliminate g1 by enemy takeover g2",
        "implied: g2 is in L4 (A20.5",
        "A20.5",
        id="takeover",
    ),
    pytest.param(
        ev.Deployed,
        ["add German 4-6-7 at K4 broken"],
        ["add German 4-6-7 at K4 broken"],
        "deploy g5",
        "implied: g5 Good Order (A20.5",
        "A20.5",
        id="deploy",
    ),
]


@pytest.mark.parametrize(("kind", "before", "typed", "entry", "said", "rule"), ROWS)
def test_each_row_implies_its_fact_and_strict_refuses_it(kind, before, typed, entry, said, rule):
    game = new_game(lines=SETUP + before)
    held = len(game.records)
    outcome = execute(game, entry)
    assert said in outcome.message, outcome.message
    assert isinstance(outcome.records[-1], kind)
    # one group: the clock's move, the facts and the entry undo together
    assert {r.grp for r in game.records[held:]} == {held + 1}
    execute(game, "undo")
    assert game.state == new_game(lines=SETUP + before).state

    strict = new_game(strict=True, lines=SETUP + typed)
    with pytest.raises(Refusal) as refused:
        execute(strict, entry)
    assert refused.value.rule == rule
    assert not isinstance(refused.value, StaleBoardFact)


def test_the_reply_says_what_was_recorded_first_then_what_it_implied():
    """A short screen shows a reply's first lines: the entry (what was recorded), not
    the clock's move and the facts it implied, which follow it."""
    game = new_game(lines=[*SETUP, "add German 4-6-7 at K5 broken", "phase DFPh"])
    lines = execute(game, "surrender r1 to g5").message.splitlines()
    assert "surrendered" in lines[0], lines
    taken_with = [line for line in lines if line.startswith(("clock: ", "implied: "))]
    assert len(taken_with) == 3, lines  # the clock to the RtPh, r1 broken, g5 Good Order


def test_every_table_row_is_tested():
    assert {p.values[0] for p in ROWS} == set(NEEDS)


def test_the_book_holds_a20_a_prisoner_never_breaks():
    game = new_game()
    execute(game, "surrender r1 to g4")
    with pytest.raises(Refusal) as refused:
        execute(game, "reject r1 by German")
    assert refused.value.rule == "A20.3"
    assert game.state.units["r1"].status == "prisoner"
    assert not game.state.units["r1"].broken


def test_a_unit_in_melee_does_not_advance():
    game = new_game(lines=[*SETUP, "add Russian 4-4-7 at K4", "melee g1 r4"])
    with pytest.raises(Refusal) as refused:
        execute(game, "capture r3 by g1")
    assert refused.value.rule == "A20.54"
    assert game.state.units["g1"].location == "K4"


def test_no_unit_the_entry_does_not_name_is_moved_or_removed():
    """g2 stands in L4 with the Guard: the escape that kills g1 is refused (A20.55), not
    accepted by moving g2 away."""
    game = new_game(lines=[*SETUP, "capture r3 by g1", "turn", "turn", "transfer r3 to g2"])
    execute(game, "turn")
    with pytest.raises(Refusal) as refused:
        execute(game, "escape r3 guard-dies")
    assert refused.value.rule == "A20.55"
    assert game.state.units["g1"].location == "L4"


def test_a_fact_set_in_this_phase_is_not_implied_over():
    game = new_game(lines=[*SETUP, "phase CCPh", "move g1 K3"])
    with pytest.raises(Refusal) as refused:
        execute(game, "capture r3 by g1")
    assert refused.value.rule == "A20.22"
    assert not isinstance(refused.value, StaleBoardFact)


def test_a_unit_advances_once_a_phase():
    game = new_game(lines=[*SETUP, "add Russian 4-4-7 at M4"])
    execute(game, "capture r3 by g1")
    with pytest.raises(Refusal):
        execute(game, "capture r4 by g1")
    assert game.state.units["g1"].location == "L4"


def test_a_fact_the_players_typed_earlier_is_offered_not_overwritten():
    game = new_game(lines=[*SETUP, "move g1 K3"])
    with pytest.raises(StaleBoardFact) as refused:
        execute(game, "capture r3 by g1")
    stale = refused.value
    assert stale.rule == "A20.22"
    assert stale.offers == (Move(units=("g1",), to="L4"),)
    assert stale.lines == ["move g1 L4"]
    assert "recorded in K3 (Turn 1, German RPh)" in stale.text
    assert game.state.units["g1"].location == "K3"
    # the offer, then the entry: accepted
    execute(game, stale.offers[0])
    outcome = execute(game, "capture r3 by g1")
    assert "implied" not in outcome.message
    assert game.state.units["r3"].guard == "g1"


def test_a_guard_told_good_order_is_offered_break():
    game = new_game(lines=[*SETUP, "capture r3 by g1", "turn", "rally g1"])
    with pytest.raises(StaleBoardFact) as refused:
        execute(game, "escape r3 guard-dies")
    assert refused.value.offers == (Break(units=("g1",)),)


def test_no_offer_when_the_fact_is_not_the_only_obstacle():
    """r1 was recorded Good Order, but even broken it would not surrender to a side
    that has invoked No Quarter: refused as it stands, with nothing to accept."""
    game = new_game(lines=[*SETUP, "rally r1", "nq German"])
    with pytest.raises(Refusal) as refused:
        execute(game, "surrender r1 to g4")
    assert refused.value.rule == "A20.21"  # as it stands: r1 is recorded Good Order
    assert not isinstance(refused.value, StaleBoardFact)


def test_the_cli_prints_the_offer_ready_to_paste(tmp_path):
    from stockade.sample_games import catalog

    path = tmp_path / "g.jsonl"
    args = ["--scenario", "t", "--side", "German:German", "--side", "Russian:Russian"]
    assert catalog.cli("new", str(path), *args)[0] == 0
    for line in [*SETUP, "move g1 K3"]:
        assert catalog.cli("do", str(path), line)[0] == 0
    code, _out, err = catalog.cli("do", str(path), "capture r3 by g1")
    assert code != 0
    assert err.splitlines()[-1] == "ready to paste: move g1 L4"


def test_plan_counts_the_implied_facts():
    game = new_game()
    parsed = plan("surrender r1 to g4", game.state)
    assert parsed.implied == 1
    assert isinstance(parsed.events[0], ev.PhaseSet)
    fact = parsed.events[1]
    assert isinstance(fact, ev.StatusChanged) and fact.broken and fact.implied
    assert isinstance(parsed.events[2], ev.Surrendered)


def test_history_says_the_fact_was_implied():
    from stockade.core.book.describe import sentence_for

    game = new_game()
    execute(game, "surrender r1 to g4")
    fact = next(r for r in game.records if isinstance(r, ev.StatusChanged) and r.implied)
    assert "implied" in sentence_for(fact, game, with_time=False)


def test_an_undo_names_the_entry_first_and_the_fact_it_implied_with_it():
    """An undo takes an entry and the board fact it implied: the reply and the history
    name the surrender by its own number, and the fact as what came with it."""
    from stockade.core.book.describe import sentence_for

    game = new_game()
    execute(game, "surrender r1 to g4")
    fact = next(r for r in game.records if isinstance(r, ev.StatusChanged) and r.implied)
    surrender = game.records[-1]
    assert isinstance(surrender, ev.Surrendered)
    undone = execute(game, "undo").message
    assert undone.startswith(f"undone: entry {surrender.seq} (Russian 4-4-7 (r1) surrendered")
    assert f"and the board fact it implied (entry {fact.seq}: " in undone, undone
    clock = game.records[fact.seq - 2]  # the clock's move to the RtPh came first
    assert isinstance(clock, ev.PhaseSet) and clock.grp == surrender.grp
    assert sentence_for(game.records[-1], game) == (
        f"undo of entry {surrender.seq}, with its clock move (entry {clock.seq}) and the "
        f"board fact it implied (entry {fact.seq})"
    )


def test_an_escape_that_does_not_say_how_the_attack_ended_asks_for_it() -> None:
    """How the prisoners' attack ended is a board fact only the players know: a bare
    ``escape`` is asked for it (naming the outcome words), never read as a Melee or as
    nothing, and records nothing."""
    game = new_game(lines=[*SETUP, "surrender r1 to g4", "turn", "turn"])
    before = len(game.state.units)
    with pytest.raises(Refusal) as refused:
        execute(game, "escape r1")
    assert "guard-dies" in refused.value.text and "melee" in refused.value.text
    assert "ntcfail" in refused.value.text
    assert len(game.state.units) == before
    execute(game, "escape r1 melee")
    assert game.state.units["r1"].melee


def test_an_escape_never_guesses_between_a_broken_guard_and_a_melee() -> None:
    """g1 guards r3 in L4 where r4 stands armed: the Guard broken or in Melee with r4
    would each let r3 attack it (A20.55). The entry is refused naming the rule, with
    each fact offered as a ready entry, and nothing is recorded."""
    from stockade.core.commands.implied import BoardFactChoice
    from stockade.core.commands.verbs_setup import Melee

    game = new_game(lines=[*SETUP, "capture r3 by g1", "turn", "move r1 L4"])
    held = len(game.records)
    with pytest.raises(BoardFactChoice) as refused:
        execute(game, "escape r3 melee")
    choice = refused.value
    assert choice.rule == "A20.55"
    assert choice.offers == (Break(units=("g1",)), Melee(units=("g1", "r1")))
    assert choice.lines == ["break g1", "melee g1 r1"]
    assert len(game.records) == held
    # either offer, then the entry: accepted, implying nothing more
    execute(game, choice.offers[1])
    outcome = execute(game, "escape r3 melee")
    assert "implied" not in outcome.message


def test_an_escape_with_no_enemy_beside_the_guard_still_implies_it_broken() -> None:
    game = new_game(lines=[*SETUP, "capture r3 by g1", "turn"])
    outcome = execute(game, "escape r3 guard-dies")
    assert "implied: g1 broken (A20.55" in outcome.message


def test_the_cli_prints_each_alternative_ready_to_paste(tmp_path):
    from stockade.sample_games import catalog

    path = tmp_path / "g.jsonl"
    args = ["--scenario", "t", "--side", "German:German", "--side", "Russian:Russian"]
    assert catalog.cli("new", str(path), *args)[0] == 0
    for line in [*SETUP, "capture r3 by g1", "turn", "move r1 L4"]:
        assert catalog.cli("do", str(path), line)[0] == 0
    code, _out, err = catalog.cli("do", str(path), "escape r3 melee")
    assert code != 0
    assert err.splitlines()[-2:] == ["ready to paste: break g1", "ready to paste: melee g1 r1"]


def test_a_melee_in_the_ccph_implies_the_attackers_advance() -> None:
    """Melee is within one Location (A11): the ATTACKER advanced into the DEFENDER's
    Location in its APh, so a Melee recorded in the CCPh across two Locations implies
    the attackers there, as a CC capture does; never a Melee across two Locations."""
    game = new_game(lines=[*SETUP, "phase CCPh"])
    outcome = execute(game, "melee g1 r1")
    assert "implied: g1 is in L5 (A11" in outcome.message
    assert game.state.units["g1"].location == "L5"
    assert game.state.units["g1"].melee and game.state.units["r1"].melee


def test_a_melee_outside_the_aph_and_ccph_asks_who_advanced() -> None:
    from stockade.core.commands.implied import BoardFactChoice

    game = new_game()
    held = len(game.records)
    with pytest.raises(BoardFactChoice) as refused:
        execute(game, "melee g1 r1")
    assert refused.value.rule == "A11"
    assert refused.value.offers == (Move(units=("g1",), to="L5"), Move(units=("r1",), to="K4"))
    assert len(game.records) == held
    assert not game.state.units["g1"].melee


def test_a_strict_game_refuses_a_melee_across_two_locations() -> None:
    game = new_game(strict=True, lines=[*SETUP, "phase CCPh"])
    with pytest.raises(Refusal) as refused:
        execute(game, "melee g1 r1")
    assert refused.value.rule == "A11"
    assert not game.state.units["g1"].melee


def test_an_elimination_in_cc_moves_the_clock_to_the_ccph() -> None:
    game = new_game(lines=[*SETUP, "phase MPh"])
    outcome = execute(game, "eliminate r1 by cc")
    assert "clock: MPh -> CCPh" in outcome.message
    assert game.state.phase == "CCPh"


def test_an_elimination_by_fire_is_read_and_never_recorded_in_a_phase_without_fire() -> None:
    game = new_game()
    outcome = execute(game, "eliminate r1 by fire")
    assert "clock: RPh -> PFPh" in outcome.message
    last = game.records[-1]
    assert isinstance(last, ev.Eliminated) and last.cause == "fire-enemy"
    execute(game, "phase APh")
    with pytest.raises(Refusal) as refused:
        execute(game, "eliminate r2 by fire")
    assert refused.value.rule == "A7"
    with pytest.raises(Refusal) as refused:
        execute(game, "eliminate r2 by flames")
    assert "cc" in str(refused.value) and "German" in str(refused.value)


def test_a_clock_move_says_which_a20_phases_it_passed() -> None:
    """A broken r1 beside the German Guard could surrender in the RtPh; a transfer
    typed in the MPh moves the clock to the APh past it, and the reply says so."""
    lines = [*SETUP, "capture r3 by g1", "turn", "turn", "break r1", "move g4 L4", "phase MPh"]
    game = new_game(lines=lines)
    outcome = execute(game, "abandon r3")
    assert "clock: MPh -> APh" in outcome.message
    # each phase passed, with what waited there (the SS g4, with r3 in L4, may massacre
    # it in its AFPh, A20.4: "an unarmed unit in their Location")
    assert (
        "passed AFPh, where g4 may massacre r3 (A20.4); RtPh, where r1 may surrender "
        "(A20.21); prev goes back"
    ) in outcome.message


@pytest.mark.parametrize(
    ("phase", "why"),
    [
        ("MPh", "a recapture in the MPh enters the unarmed units' Location"),
        ("APh", "a recapture by CC is fought within one Location, which the ATTACKER entered"),
        ("CCPh", "a recapture by CC is fought within one Location, which the ATTACKER entered"),
    ],
)
def test_a_recapture_implies_the_move_of_the_phase_it_is_made_in(phase, why):
    """A20.54: in the MPh g2 recaptures by entering r3's Location; by CC (typed in the
    APh, the clock moves to the CCPh; or in the CCPh, where no unit moves) g2 stands
    there because it advanced in its APh, and the implied Location says so."""
    game = new_game(lines=[*SETUP, "capture r3 by g1", "turn", "turn", "abandon r3"])
    execute(game, f"phase {phase}")
    message = execute(game, "recapture r3 by g2").message
    assert f"implied: g2 is in L4 (A20.54: {why}" in message, message
