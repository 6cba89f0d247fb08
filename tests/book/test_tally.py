"""The CVP tally: every row of the multiplier table, crews remembered, leaders, scenario
overrides, per-turn totals, banked vs "if the game ended now", and the renderings."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stockade.core.book.game import Game
from stockade.core.book.tally import tally, to_html, to_json, to_markdown, to_text
from stockade.core.model import events as ev
from stockade.core.model.bounds import MAX_TURN
from stockade.core.model.errors import Refusal

US, DE = "US", "DE"


# ------------------------------------------------------------------ game helpers
def new_game(scenario: str = "Test", **kw) -> Game:
    return Game.in_memory(
        scenario, [ev.SideSpec(US, "American", 3), ev.SideSpec(DE, "German", 3)], **kw
    )


def add(
    game: Game, handle: str, side: str, kind: str, counter: str, location: str = "Q4", **kw
) -> None:
    game.submit(
        [
            ev.UnitEntered(
                handle=handle, side=side, unit_kind=kind, counter=counter, location=location, **kw
            )
        ]
    )


def phase(game: Game, name: ev.Phase, attacker: str = US, turn: int = 1) -> None:
    game.submit([ev.PhaseSet(turn=turn, attacker=attacker, phase=name)])


def captured_game(*german: tuple[str, str, str], merges=(), turn: int = 1) -> Game:
    """US squad a1 in Q4 takes the broken German units surrendering in the RtPh."""
    game = new_game()
    add(game, "a1", US, "squad", "6-6-6")
    for handle, kind, counter in german:
        add(game, handle, DE, kind, counter, "Q5", broken=True)
    phase(game, "RtPh", US, turn)
    game.submit(
        [ev.Surrendered(units=[h for h, _k, _c in german], guard="a1", merges=list(merges))]
    )
    return game


def end(game: Game) -> None:
    game.submit([ev.GameEnded()])


def side(game: Game, name: str = US):
    return tally(game.state).sides[name]


# -------------------------------------------------------- the multiplier table
@pytest.mark.parametrize(
    "kind, counter, cvp",
    [
        ("squad", "4-6-7", 2),
        ("hs", "2-4-7", 1),
        ("crew", "2-2-8", 2),
        ("leader", "9-2", 3),
        ("leader", "8-0", 1),
        ("leader", "8-1", 2),
        ("hero", "1-4-9", 1),
    ],
)
def test_eliminated_unit_counts_its_normal_cvp(kind, counter, cvp):
    game = new_game()
    add(game, "g1", DE, kind, counter)
    game.submit([ev.Eliminated(handle="g1", cause="fire-enemy", by_side=US)])
    [line] = side(game).lines
    assert (line.base, line.multiplier, line.points, line.rule) == (cvp, 1, cvp, "A26.21")
    assert line.banked and line.unit == "g1" and line.counter == counter
    assert side(game).cvp == cvp and side(game, DE).cvp == 0


def test_prisoner_guarded_at_game_end_counts_double():
    game = captured_game(("g1", "squad", "4-6-7"))
    end(game)
    [line] = side(game).lines
    assert (line.base, line.multiplier, line.points, line.rule) == (2, 2, 4, "A20.1")
    assert line.banked and "at game end" in line.why


def test_prisoner_escorted_off_counts_double_at_once():
    game = captured_game(("g1", "squad", "4-6-7"))
    phase(game, "APh", US)
    game.submit([ev.EscortedOff(guard="a1")])
    [line] = side(game).lines
    assert (line.points, line.multiplier, line.rule, line.banked) == (4, 2, "A20.53", True)
    end(game)
    assert side(game).cvp == 4  # not booked again at the end; the Guard books nothing
    assert side(game, DE).cvp == 0


def test_prisoner_eliminated_by_its_own_sides_fire_counts_double_at_once():
    game = captured_game(("g1", "squad", "4-6-7"))
    phase(game, "PFPh", DE, 2)
    game.submit([ev.Eliminated(handle="g1", cause="fire-own", by_side=DE)])
    [line] = side(game).lines
    assert (line.points, line.multiplier, line.rule, line.turn) == (4, 2, "A20.54", 2)
    assert side(game).cvp == side(game).cvp_if_ended == 4


def test_prisoner_casualty_reduced_by_own_fire_counts_the_hs_double():
    game = captured_game(("g1", "squad", "4-6-7"))
    game.submit([ev.CasualtyReduced(handle="g1", cause="fire-own")])
    line, projected = side(game).lines
    assert (line.base, line.multiplier, line.rule, line.banked) == (1, 2, "A20.54", True)
    assert (projected.base, projected.multiplier, projected.banked) == (1, 2, False)
    end(game)  # the HS left is still guarded: 1 x 2
    assert side(game).cvp == 2 + 2


def test_prisoner_killed_escaping_counts_normal_not_double():
    game = captured_game(("g1", "squad", "4-6-7"))
    game.submit([ev.StatusChanged(handle="a1", broken=True)])
    phase(game, "CCPh", DE)
    game.submit([ev.EscapeAttempted(units=["g1"], killed=["g1"])])
    [line] = side(game).lines
    assert (line.points, line.multiplier, line.rule) == (2, 1, "A20.55")
    end(game)
    assert side(game).cvp == 2


def test_prisoner_eliminated_with_cause_escape_counts_normal():
    game = captured_game(("g1", "hs", "2-4-7"))
    game.submit([ev.Eliminated(handle="g1", cause="escape", by_side=US)])
    [line] = side(game).lines
    assert (line.points, line.rule) == (1, "A20.55")


def test_escaped_prisoner_counts_nothing():
    game = captured_game(("g1", "squad", "4-6-7"))
    game.submit([ev.StatusChanged(handle="a1", melee=True)])
    phase(game, "CCPh", DE)
    assert side(game).cvp_if_ended == 4  # still a prisoner until it withdraws
    game.submit([ev.EscapedBy(units=["g1"], route="withdrawal")])
    assert side(game).cvp_if_ended == 0
    end(game)
    assert side(game).lines == [] and side(game).cvp == 0


def test_unarmed_abandoned_unit_at_game_end_counts_nothing():
    game = captured_game(("g1", "squad", "4-6-7"))
    phase(game, "APh", US)
    game.submit([ev.Abandoned(units=["g1"])])
    end(game)
    assert side(game).cvp == 0 and side(game).lines == []


def test_unarmed_unit_eliminated_later_counts_normal():
    game = captured_game(("g1", "squad", "4-6-7"))
    phase(game, "APh", US)
    game.submit([ev.Abandoned(units=["g1"])])
    game.submit([ev.Eliminated(handle="g1", cause="fire-enemy", by_side=US)])
    [line] = side(game).lines
    assert (line.points, line.multiplier) == (2, 1)
    assert game.state.sides[US].massacred  # A20.53: the side that abandoned it


def test_no_quarter_rejected_surrender_counts_normal():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-6")
    add(game, "g1", DE, "squad", "4-6-7", "Q5", broken=True)
    add(game, "g2", DE, "leader", "9-2", "Q5", broken=True)
    phase(game, "RtPh", US)
    game.submit([ev.SurrenderRejected(units=["g1", "g2"], by_side=US)])
    lines = side(game).lines
    assert [(line.unit, line.points, line.multiplier, line.rule) for line in lines] == [
        ("g1", 2, 1, "A20.3"),
        ("g2", 3, 1, "A20.3"),
    ]
    assert "Battlefield Integrity" in lines[0].why
    assert side(game).cvp == side(game).cvp_if_ended == 5


def test_massacre_counts_normal():
    game = Game.in_memory("M", [ev.SideSpec("RU", "Russian", 3), ev.SideSpec(DE, "German", 3)])
    add(game, "r1", "RU", "squad", "4-4-7")
    add(game, "g1", DE, "squad", "4-6-7", "Q5", broken=True)
    phase(game, "RtPh", "RU")
    game.submit([ev.Surrendered(units=["g1"], guard="r1")])
    phase(game, "PFPh", "RU", 2)
    game.submit([ev.Massacred(units=["g1"], by="r1")])
    [line] = tally(game.state).sides["RU"].lines
    assert (line.points, line.rule) == (2, "A20.4")


# ---------------------------------------------------------- crews and leaders
def test_crew_and_hs_merged_are_remembered_and_count_six_at_the_end():
    game = captured_game(
        ("g1", "crew", "2-2-8"),
        ("g2", "hs", "2-4-7"),
        merges=[ev.Merge(parts=["g1", "g2"], into="p1")],
    )
    [projected] = side(game).lines
    assert not projected.banked and projected.points == 6
    end(game)
    [line] = side(game).lines
    assert line.unit == "p1" and (line.base, line.multiplier, line.points) == (3, 2, 6)
    assert "2-2-8" in line.counter and "crew" in line.unit_kind


def test_crew_prisoner_is_worth_a_crew_not_a_hs():
    game = captured_game(("g1", "crew", "2-2-8"))
    assert game.state.units["g1"].unit_kind == "hs"  # exchanged for an unarmed HS (A20.51)
    end(game)
    [line] = side(game).lines
    assert line.points == 4 and "2-2-8" in line.counter


def test_leader_prisoner_at_end_counts_its_leader_value_double():
    game = captured_game(("g1", "leader", "9-2"))
    end(game)
    assert side(game).cvp == 6


# ------------------------------------------------------------ scenario values
def test_scenario_overrides_change_the_values():
    game = new_game(cvp={"squad": 3, "leader": 4})
    add(game, "g1", DE, "squad", "4-6-7")
    add(game, "g2", DE, "leader", "8-0")
    add(game, "g3", DE, "hs", "2-4-7")
    for handle in ("g1", "g2", "g3"):
        game.submit([ev.Eliminated(handle=handle, cause="fire-enemy", by_side=US)])
    assert [line.points for line in side(game).lines] == [3, 4, 1]


def test_a_units_own_value_overrides_the_table():
    game = new_game()
    add(game, "g1", DE, "leader", "9-1", cvp=5)
    game.submit([ev.Eliminated(handle="g1", cause="cc", by_side=US)])
    assert side(game).cvp == 5


# ------------------------------------------------------- turns and projections
def test_the_per_turn_tally_does_not_scale_with_a_turn_number():
    # The schema refuses such a turn in a log; the tally must not depend on that.
    game = new_game()
    add(game, "g1", DE, "squad", "4-6-7")
    game.submit([ev.Eliminated(handle="g1", cause="fire-enemy")])
    state = game.state
    state.turn = 10**30
    turns = list(tally(state).sides[US].by_turn)
    assert turns[0] == 1 and turns[-1] == 10**30 and len(turns) <= MAX_TURN + 1


def test_per_turn_totals_cover_every_game_turn():
    # Turn 2 was jumped over (no entry in it) and turn 4 reached with no casualty: both
    # show 0, so a chart by Game Turn skips none.
    game = new_game()
    for handle in ("g1", "g2", "g3"):
        add(game, handle, DE, "squad", "4-6-7")
    add(game, "u1", US, "hs", "3-3-7")
    game.submit([ev.Eliminated(handle="g1", cause="fire-enemy")])
    phase(game, "PFPh", US, 3)
    game.submit([ev.Eliminated(handle="g2", cause="fire-enemy")])
    game.submit([ev.Eliminated(handle="g3", cause="cc")])
    game.submit([ev.Eliminated(handle="u1", cause="cc")])
    phase(game, "PFPh", US, 4)
    assert side(game).by_turn == {1: 2, 2: 0, 3: 4, 4: 0}
    assert side(game, DE).by_turn == {1: 0, 2: 0, 3: 1, 4: 0}
    assert sum(side(game).by_turn.values()) == side(game).cvp


def test_banked_and_if_ended_now_mid_game_then_equal_at_end():
    game = captured_game(("g1", "squad", "4-6-7"), ("g2", "hs", "2-4-7"))
    add(game, "g3", DE, "squad", "4-6-7")
    game.submit([ev.Eliminated(handle="g3", cause="fire-enemy")])
    mid = side(game)
    assert mid.cvp == 2
    assert mid.cvp_if_ended == 2 + 4 + 2
    assert [line.banked for line in mid.lines] == [True, False, False]
    assert not tally(game.state).ended
    end(game)
    final = side(game)
    assert final.cvp == final.cvp_if_ended == mid.cvp_if_ended
    assert all(line.banked for line in final.lines)


def test_tally_at_an_earlier_point_of_the_history():
    game = captured_game(("g1", "squad", "4-6-7"))
    add(game, "g2", DE, "squad", "4-6-7")
    before = game.state.last_seq
    game.submit([ev.Eliminated(handle="g2", cause="fire-enemy")])
    assert side(game).cvp == 2
    assert tally(game.state_at(before)).sides[US].cvp == 0


# ------------------------------------------------------------------ renderings
def test_json_shape_is_plain_and_serialisable():
    game = captured_game(("g1", "crew", "2-2-8"))
    add(game, "g2", DE, "squad", "4-6-7")
    game.submit([ev.Eliminated(handle="g2", cause="fire-enemy")])
    data = json.loads(json.dumps(to_json(tally(game.state))))
    assert data["ended"] is False and set(data["sides"]) == {US, DE}
    us = data["sides"][US]
    assert (us["cvp"], us["cvp_if_ended"]) == (2, 6)
    assert us["by_turn"] == {"1": 2}
    assert [line["banked"] for line in us["lines"]] == [True, False]
    assert us["lines"][1] | {"why": ""} == {
        "unit": "g1",
        "counter": "(1)-0-6 [was 2-2-8]",
        "unit_kind": "crew",
        "seq": 5,
        "turn": 1,
        "rule": "A20.1",
        "base": 2,
        "multiplier": 2,
        "points": 4,
        "why": "",
        "banked": False,
    }


def test_text_explains_every_line_and_the_totals():
    game = captured_game(("g1", "squad", "4-6-7"))
    add(game, "g2", DE, "leader", "9-2")
    game.submit([ev.Eliminated(handle="g2", cause="sniper")])
    text = to_text(tally(game.state))
    assert "US (American): 3 CVP banked; 7 if the game ended now" in text
    assert "3 x 1 = 3" in text and "2 x 2 = 4 *" in text
    assert "eliminated by a sniper" in text and "prisoner guarded by a1" in text
    assert "(sniper)" not in text  # plain words, not the log's cause codes
    assert "DE (German): 0 CVP" in text and "no casualties yet" in text


def test_markdown_and_html_escape_what_the_player_typed():
    game = Game.in_memory(
        "<b>Hill|621</b> & co", [ev.SideSpec("A&B", "American"), ev.SideSpec("<x>", "German")]
    )
    add(game, "g1", "<x>", "squad", "4-6-7")
    game.submit([ev.Eliminated(handle="g1", cause="fire-enemy")])
    t = tally(game.state)
    md = to_markdown(t)
    assert "\\<b\\>Hill\\|621\\</b\\>" in md
    assert "| 2 x 1 = 2 |" in md
    page = to_html(t)
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "&lt;b&gt;Hill|621&lt;/b&gt; &amp; co" in page and "<b>" not in page
    assert "A&amp;B" in page and "&lt;x&gt;" in page


# ------------------------------------------------------------ property test
HANDLES = ["a1", "a2", "g1", "g2", "g3", "g4"]
KINDS = [
    "phase",
    "surrender",
    "reject",
    "eliminate",
    "takeover",
    "reduce",
    "escort",
    "abandon",
    "escape",
    "withdraw",
    "melee",
]
NEEDS_A_PRISONER = ("abandon", "escape", "withdraw")


def _pick(options: list[str], index: int, fallback: str) -> str:
    return options[index % len(options)] if options else fallback


def _step(state, kind: str, i: int, j: int, turn: int, flag: bool) -> list[ev.Record]:
    """One player action, with the phase and status it needs, so that most are legal."""
    on_board = [h for h, u in state.units.items() if u.on_board]
    prisoners = [h for h, u in state.units.items() if u.status == "prisoner"]
    a = _pick(prisoners if kind in NEEDS_A_PRISONER else on_board, i, HANDLES[0])
    owner = state.units[a].side
    enemy = state.enemy_of(owner)
    b = _pick([h for h in on_board if state.units[h].side != owner], j, a)
    friend = _pick([h for h in on_board if state.units[h].side == owner and h != a], j, a)
    guard = state.units[a].guard or a
    guard_side = state.units[guard].side

    def at(ph: ev.Phase, side: str) -> ev.PhaseSet:
        return ev.PhaseSet(turn=turn, attacker=side, phase=ph)

    steps: dict[str, list[ev.Record]] = {
        "phase": [at("RPh", owner)],
        "surrender": [
            at("RtPh", enemy),
            ev.StatusChanged(handle=a, broken=True),
            ev.Surrendered(units=[a], guard=b),
        ],
        "reject": [
            at("RtPh", enemy),
            ev.StatusChanged(handle=a, broken=True),
            ev.SurrenderRejected(units=[a], by_side=enemy),
        ],
        "eliminate": [
            ev.Eliminated(
                handle=a,
                cause="fire-own" if flag else "fire-enemy",
                by_side=owner if flag else enemy,
            )
        ],
        "takeover": [ev.Eliminated(handle=a, cause="cc", takeover=friend if flag else "-")],
        "reduce": [ev.CasualtyReduced(handle=a, cause="fire-own" if flag else "fire-enemy")],
        "escort": [at("APh", owner), ev.EscortedOff(guard=a)],
        "abandon": [at("APh", guard_side), ev.Abandoned(units=[a])],
        "escape": [
            ev.StatusChanged(handle=guard, broken=True),
            at("CCPh", guard_side),
            ev.EscapeAttempted(units=[a], killed=[a] if flag else []),
        ],
        "withdraw": [
            ev.StatusChanged(handle=guard, melee=True),
            at("CCPh", guard_side),
            ev.EscapedBy(units=[a], route="withdrawal"),
        ],
        "melee": [ev.StatusChanged(handle=a, melee=flag)],
    }
    return steps[kind]


actions = st.tuples(
    st.sampled_from(KINDS), st.integers(0, 9), st.integers(0, 9), st.integers(1, 4), st.booleans()
)


def _check_sums(t) -> None:
    for s in t.sides.values():
        assert s.cvp == sum(line.points for line in s.lines if line.banked)
        assert s.cvp_if_ended == sum(line.points for line in s.lines)
        assert sum(s.by_turn.values()) == s.cvp
        assert all(line.points == line.base * line.multiplier for line in s.lines)


def test_cvp_is_always_the_sum_of_its_lines():
    """After any run of random actions, each side's CVP is the sum of its lines, and
    banked points are never taken back. A refused action proves nothing, so the test
    counts accepted ones."""
    accepted: Counter[str] = Counter()
    refused: Counter[str] = Counter()

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.lists(actions, max_size=30))
    def sums_hold(steps):
        game = new_game()
        add(game, "a1", US, "squad", "6-6-6")
        add(game, "a2", US, "leader", "9-2")
        add(game, "g1", DE, "squad", "4-6-7")
        add(game, "g2", DE, "crew", "2-2-8")
        add(game, "g3", DE, "hs", "2-4-7")
        add(game, "g4", DE, "leader", "8-1")
        for step in steps:
            before = tally(game.state)
            try:
                game.submit(_step(game.state, *step))
            except Refusal:
                refused[step[0]] += 1
                continue
            accepted[step[0]] += 1
            after = tally(game.state)
            _check_sums(after)
            for name, s in after.sides.items():
                assert s.cvp >= before.sides[name].cvp  # banked points are never taken back
        before = tally(game.state)
        end(game)
        after = tally(game.state)
        _check_sums(after)
        for name, s in after.sides.items():
            # What the projection promised is exactly what the game end banked.
            assert s.cvp == s.cvp_if_ended == before.sides[name].cvp_if_ended

    sums_hold()
    # Escapes, takeovers and abandons need rare set-ups; the actions that bank and
    # promise CVP come up in every run, and most random actions are legal.
    assert all(accepted[kind] for kind in ("surrender", "eliminate", "reduce", "phase"))
    assert accepted.total() > (accepted.total() + refused.total()) / 4, (accepted, refused)


def test_text_tables_line_up_across_sides():
    """Both sides' tables use one set of column widths and one bar width, so a player
    reads them across: each header starts its columns at the same offsets, and every
    "by Game Turn" number sits in one column."""
    game = captured_game(("g1", "squad", "4-6-7"))
    add(game, "a9", US, "leader", "9-2")
    game.submit([ev.Eliminated(handle="a9", cause="sniper")])
    text = to_text(tally(game.state))
    heads = [line for line in text.splitlines() if line.lstrip().startswith("seq")]
    assert len(heads) == 2 and heads[0] == heads[1]
    bars = [line for line in text.splitlines() if line.startswith("    T")]
    assert len({len(line) - len(line.split()[-1]) for line in bars}) == 1, bars
